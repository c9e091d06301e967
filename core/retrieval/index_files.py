"""The embedded document index on disk, under ``settings.index_dir``::

    index/manifest.json          {"generation": n, "epoch": e, "docs": [doc_id, ...], "vector_model": id}
    index/docs/<doc_id>.json     chunks + their BM25 tokens + content hashes
    index/docs/<doc_id>.npy      their vectors (absent while the dense model is unavailable)
    index/write.lock             the writers' cross-process lock

Every file is replaced atomically (written beside, then renamed); a document's files are
written before the manifest lists it, so a reader never meets a half-written document. What
the manifest's fields mean, and who may write them when, is :mod:`core.retrieval.index`'s
business; this module only reads and writes them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterator

import numpy as np

from core.documents.models import Chunk
from core.retrieval.protocol import chunk_from_dict

#: one document as read back: (doc_id, chunks, BM25 tokens per chunk, content hashes, vectors | None)
DocFiles = tuple[str, list[Chunk], list[list[str]], list[str], "np.ndarray | None"]


class IndexFiles:
    def __init__(self, root: Path):
        self.root = root
        (root / "docs").mkdir(parents=True, exist_ok=True)
        self.manifest_path = root / "manifest.json"
        self.lock_path = root / "write.lock"

    # ---- manifest ----------------------------------------------------------------------------
    def stamp(self) -> tuple | None:
        """The manifest's identity (inode, mtime, size): another process replaced it when this changes."""
        try:
            st = self.manifest_path.stat()
        except FileNotFoundError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def manifest(self) -> dict:
        if self.manifest_path.is_file():
            return json.loads(self.manifest_path.read_text(encoding="utf-8"))
        return {"generation": 0, "docs": []}

    def write_manifest(self, body: dict) -> None:
        tmp = self.manifest_path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps(body, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, self.manifest_path)

    # ---- documents ---------------------------------------------------------------------------
    def path(self, doc_id: str, ext: str) -> Path:
        return self.root / "docs" / f"{doc_id}.{ext}"

    def read_doc(self, doc_id: str) -> DocFiles:
        raw = json.loads(self.path(doc_id, "json").read_text(encoding="utf-8"))
        chunks = [chunk_from_dict(c) for c in raw["chunks"]]
        vec_path = self.path(doc_id, "npy")
        vecs = np.load(vec_path) if vec_path.is_file() else None
        if vecs is not None and vecs.shape[0] != len(chunks):
            vecs = None
        return doc_id, chunks, raw["tokens"], raw["hashes"], vecs

    def read_docs(self, doc_ids: list[str]) -> list[DocFiles]:
        return list(self.iter_docs(doc_ids))

    def iter_docs(self, doc_ids: list[str]) -> Iterator[DocFiles]:
        """The documents one at a time (a load of the whole index never holds every document's
        BM25 tokens at once)."""
        for doc_id in doc_ids:
            try:
                yield self.read_doc(doc_id)
            except (OSError, ValueError, KeyError):
                continue  # a damaged document file: skip it, keep the rest searchable

    def write_doc(self, doc_id: str, chunks: list[Chunk], toks: list[list[str]], hashes: list[str],
                  vecs: np.ndarray | None) -> None:
        """A document's files; nobody reads them before the manifest lists the document."""
        doc_json = {"doc_id": doc_id, "chunks": [c.to_dict() for c in chunks], "tokens": toks, "hashes": hashes}
        tmp = self.path(doc_id, f"json.tmp{os.getpid()}")
        tmp.write_text(json.dumps(doc_json, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, self.path(doc_id, "json"))
        if vecs is not None:
            self.save_vectors(doc_id, vecs)
        else:
            self.path(doc_id, "npy").unlink(missing_ok=True)

    def has_vectors(self, doc_id: str) -> bool:
        return self.path(doc_id, "npy").is_file()

    def save_vectors(self, doc_id: str, vecs: np.ndarray) -> None:
        np.save(self.path(doc_id, "npy"), vecs)

    def remove_doc(self, doc_id: str) -> None:
        self.path(doc_id, "json").unlink(missing_ok=True)
        self.path(doc_id, "npy").unlink(missing_ok=True)


__all__ = ["DocFiles", "IndexFiles"]
