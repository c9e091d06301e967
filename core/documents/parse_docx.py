"""DOCX (python-docx) into blocks of a :class:`ParsedDocument` (:mod:`core.documents.parse`):
paragraphs with their visible list numbering ("（一）", "1."), tables as rows; an encrypted or
legacy .doc file, or a package that cannot be opened, raises a ``DocumentError`` naming it."""

from __future__ import annotations

import io
import posixpath
import re
import zipfile

from core.documents.errors import CorruptDocumentError, EncryptedDocumentError
from core.documents.models import Block, ParsedDocument
from core.documents.normalize import normalize_text
from core.text.numerals import int_to_cn

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def _open_docx(data: bytes, name: str):
    import docx

    if data[:8] == _OLE_MAGIC:
        if "EncryptedPackage".encode("utf-16-le") in data or b"EncryptedPackage" in data:
            raise EncryptedDocumentError(name)
        raise CorruptDocumentError(name, "Word 2007+（.docx）文件（可能是旧版 .doc，请另存为 .docx）")
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise CorruptDocumentError(name, "Word（.docx）文件")
    try:
        return docx.Document(io.BytesIO(data))
    except KeyError:
        # a relationship points at a part that is not in the package (e.g. Target="../NULL");
        # Word opens such files, so drop the dangling relationships and retry.
        try:
            return docx.Document(_drop_dangling_rels(data))
        except Exception as exc:
            raise CorruptDocumentError(name, "Word（.docx）文件", detail=str(exc)) from exc
    except Exception as exc:
        raise CorruptDocumentError(name, "Word（.docx）文件", detail=str(exc)) from exc


def _drop_dangling_rels(data: bytes) -> io.BytesIO:
    zin = zipfile.ZipFile(io.BytesIO(data))
    names = set(zin.namelist())
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.namelist():
            blob = zin.read(item)
            if item.endswith(".rels"):
                base = posixpath.dirname(posixpath.dirname(item))

                def keep(m: re.Match) -> str:
                    tag = m.group(0)
                    if 'TargetMode="External"' in tag:
                        return tag
                    tm = re.search(r'Target="([^"]*)"', tag)
                    if not tm:
                        return tag
                    target = tm.group(1)
                    resolved = target[1:] if target.startswith("/") else posixpath.normpath(posixpath.join(base, target))
                    return tag if resolved in names else ""

                blob = re.sub(r"<Relationship\b[^>]*/>", keep, blob.decode("utf-8")).encode("utf-8")
            zout.writestr(item, blob)
    out.seek(0)
    return out


def _format_num(n: int, fmt: str) -> str:
    if fmt in ("chineseCounting", "chineseCountingThousand", "ideographTraditional", "chineseLegalSimplified",
               "taiwaneseCounting", "japaneseCounting"):
        return int_to_cn(n) if n > 0 else str(n)
    if fmt == "lowerLetter":
        return chr(ord("a") + (n - 1) % 26)
    if fmt == "upperLetter":
        return chr(ord("A") + (n - 1) % 26)
    if fmt == "lowerRoman":
        return _roman(n).lower()
    if fmt == "upperRoman":
        return _roman(n)
    if fmt == "decimalEnclosedCircle" and 1 <= n <= 20:
        return chr(0x2460 + n - 1)
    if fmt in ("bullet", "none"):
        return ""
    return str(n)


def _roman(n: int) -> str:
    vals = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
            (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for v, s in vals:
        while n >= v:
            out += s
            n -= v
    return out


class _Numbering:
    """Renders Word list numbering ("（1）", "（三）", "1.") the way Word shows it."""

    def __init__(self, document):
        self.levels: dict[tuple[str, int], tuple[int, str, str]] = {}
        self.num_to_abs: dict[str, str] = {}
        self.counters: dict[tuple[str, int], int] = {}
        try:
            part = document.part.numbering_part
        except Exception:
            return
        el = part.element
        ns = el.nsmap.get("w") or "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
        w = "{%s}" % ns
        for absn in el.findall(f"{w}abstractNum"):
            aid = absn.get(f"{w}abstractNumId")
            for lvl in absn.findall(f"{w}lvl"):
                il = int(lvl.get(f"{w}ilvl", "0"))
                start = lvl.find(f"{w}start")
                fmt = lvl.find(f"{w}numFmt")
                txt = lvl.find(f"{w}lvlText")
                self.levels[(aid, il)] = (
                    int(start.get(f"{w}val")) if start is not None else 1,
                    fmt.get(f"{w}val") if fmt is not None else "decimal",
                    txt.get(f"{w}val") if txt is not None else "%1.",
                )
        for num in el.findall(f"{w}num"):
            a = num.find(f"{w}abstractNumId")
            if a is not None:
                self.num_to_abs[num.get(f"{w}numId")] = a.get(f"{w}val")
        self.w = w

    def label(self, p_el) -> str:
        if not self.levels:
            return ""
        w = self.w
        ppr = p_el.find(f"{w}pPr")
        numpr = ppr.find(f"{w}numPr") if ppr is not None else None
        if numpr is None:
            return ""
        nid_el = numpr.find(f"{w}numId")
        il_el = numpr.find(f"{w}ilvl")
        nid = nid_el.get(f"{w}val") if nid_el is not None else None
        il = int(il_el.get(f"{w}val")) if il_el is not None else 0
        aid = self.num_to_abs.get(nid or "")
        if aid is None or (aid, il) not in self.levels:
            return ""
        start, fmt, text = self.levels[(aid, il)]
        key = (aid, il)
        self.counters[key] = self.counters.get(key, start - 1) + 1
        for deeper in [k for k in self.counters if k[0] == aid and k[1] > il]:
            del self.counters[deeper]

        def sub(m: re.Match) -> str:
            lv = int(m.group(1)) - 1
            if (aid, lv) not in self.levels:
                return ""
            s, f, _ = self.levels[(aid, lv)]
            return _format_num(self.counters.get((aid, lv), s), f)

        return re.sub(r"%(\d)", sub, text)


def parse_docx(data: bytes, doc: ParsedDocument) -> None:
    """Append the blocks of a .docx file to ``doc``: paragraphs with the list numbering Word
    shows, tables as rows; ``CorruptDocumentError`` / ``EncryptedDocumentError`` for files
    python-docx cannot open."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    document = _open_docx(data, doc.file_name)
    numbering = _Numbering(document)
    body = document.element.body
    para = 0
    for child in body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            p = Paragraph(child, document)
            label = numbering.label(child)
            text = normalize_text(p.text)
            if not text.strip():
                continue
            if label and not text.startswith(label):
                text = normalize_text(label + text)
            doc.blocks.append(Block(page=1, text=text, para=para, kind="text"))
            para += 1
        elif tag == "tbl":
            t = Table(child, document)
            rows = []
            for r in t.rows:
                try:
                    cells = [normalize_text(c.text).replace("\n", " ") for c in r.cells]
                except Exception:  # malformed merged cells
                    continue
                if any(cells):
                    rows.append(cells)
            if rows:
                width = max(len(r) for r in rows)
                rows = [r + [""] * (width - len(r)) for r in rows]
                text = "\n".join(" | ".join(c for c in r if c) for r in rows)
                doc.blocks.append(Block(page=1, text=text, para=para, kind="table", rows=rows))
                para += 1
