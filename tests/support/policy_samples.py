"""The sample policy documents (``data/samples/policies``) as the policy agent's evidence chunks,
for unit tests of its rule functions: each file parsed and chunked once per run, handed out as
fresh dicts (the rules may annotate them)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

POLICIES = Path(__file__).resolve().parents[2] / "data" / "samples" / "policies"


@lru_cache(maxsize=None)
def _chunks(file_name: str) -> tuple[dict, ...]:
    from core.documents.chunk import chunk_document
    from core.documents.metadata import extract_metadata
    from core.documents.parse import parse_file

    doc = parse_file(POLICIES / file_name)
    meta = extract_metadata(doc)
    return tuple({**c.to_dict(), "title": meta.title, "file_name": file_name, "doc_id": file_name,
                  "doc_number": meta.doc_number, "date": meta.publish_date or meta.sign_date, "grade": {"score": 0.8}}
                 for c in chunk_document(doc, meta))


def chunks(*file_names: str) -> list[dict]:
    """The chunks of these sample documents, in order, as the agent's graded evidence."""
    return [dict(c) for f in file_names for c in _chunks(f)]
