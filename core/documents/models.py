"""Data shapes shared by parsing, chunking, indexing and answering.

A bbox is ``(x0, y0, x1, y1)`` in PDF points on its page (pymupdf's coordinates); for DOCX /
Markdown / TXT, ``page`` is 1 and the bbox is ``None`` while ``para`` gives the paragraph index.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal, Optional

BBox = tuple[float, float, float, float]
BlockKind = Literal["text", "table", "figure", "ocr"]
ChunkKind = Literal["article", "prose", "table", "figure", "preamble"]
DocStatus = Literal["in_effect", "repealed", "expired", "draft", "upcoming"]
ReviewState = Literal["approved", "pending"]  # pending = 待审核: kept out of retrieval


@dataclass
class Block:
    """One piece of text as it sits on a page (a line group, a table, an OCR line)."""

    page: int                     # 1-based
    text: str
    bbox: Optional[BBox] = None
    kind: BlockKind = "text"
    para: Optional[int] = None    # paragraph index for DOCX/MD/TXT
    rows: Optional[list[list[str]]] = None  # for tables: cell text, header first


@dataclass
class ParsedDocument:
    doc_id: str                   # first 16 hex digits of the file's SHA-256
    file_name: str
    source_type: Literal["pdf", "docx", "md", "txt"]
    pages: int
    blocks: list[Block] = field(default_factory=list)
    ocr_pages: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(b.text for b in self.blocks)


@dataclass
class Span:
    """Where a piece of a chunk sits: page + bbox (PDF) or paragraph (DOCX/MD/TXT)."""

    page: int
    bbox: Optional[BBox] = None
    para: Optional[int] = None


@dataclass
class Chunk:
    chunk_id: str                 # stable: f"{doc_id}-{ord:04d}"
    doc_id: str
    ord: int
    text: str                     # as indexed: header path line + body
    body: str                     # body only (for quoting / sentence extraction)
    heading: str = ""             # e.g. 第五十四条 / 第一章 总则
    path: list[str] = field(default_factory=list)  # [title, 第一章 …, 第二条 …]
    kind: ChunkKind = "prose"
    page_start: int = 1
    page_end: int = 1
    spans: list[Span] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class DocMeta:
    doc_id: str
    file_name: str
    title: str = ""
    doc_number: str = ""          # 文号, normalised: 济商务字〔2025〕6号
    authorities: list[str] = field(default_factory=list)
    sign_date: str = ""           # 成文日期 YYYY-MM-DD
    publish_date: str = ""        # 发布日期
    effective_date: str = ""      # 施行日期
    expiry_date: str = ""         # 有效期至 / 废止日期
    level: str = ""               # 国家 / 省 / 市 / 区县
    status: DocStatus = "in_effect"
    status_override: bool = False
    review_state: ReviewState = "approved"
    domain: str = ""
    tenant: str = ""
    repeals: list[str] = field(default_factory=list)  # 文号/titles this document repeals (同时废止)
    # what else it says of other documents: [{"kind": supersedes|amends|supplements|extends,
    # "target": 文号 or 《title》}] (core.documents.relations)
    relations: list[dict] = field(default_factory=list)
    pages: int = 0
    source_type: str = ""
    # chunks whose text looks like a prompt injection (scanned at ingestion):
    # [{"chunk_id", "ord", "patterns": [names]}]; shown as flagged in the 文档库
    flagged_chunks: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)
