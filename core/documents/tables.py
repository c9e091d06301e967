"""Tables of parsed documents: a table cut by a page break stitched back into one, split into
segments (caption row, header rows, data rows) and rendered row by row with its column names
("列名: 值；…") for chunking (:mod:`core.documents.chunk`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from core.documents.structure import Paragraph, Piece

_NUMERIC = re.compile(r"^[-+]?\d[\d,，]*(\.\d+)?%?$")


def _is_numeric(v: str) -> bool:
    return bool(_NUMERIC.match(v.strip()))


def _is_caption_row(row: list[str]) -> bool:
    """A row that only names the next block of the table ("第二十条第（一）项")."""
    if len(row) < 2:
        return False
    vals = [c.strip() for c in row if c.strip()]
    if not vals or len(set(vals)) != 1 or _is_numeric(vals[0]):
        return False
    return len(vals) >= 2 or bool(re.match(r"^(第.{1,12}[条项款]|表\s*\d|附表)", vals[0]))


def stitch_tables(paras: list[Paragraph]) -> list[Paragraph]:
    """Join a table continued on the next page (same column count, or the previous piece ended
    with a caption row) into one table paragraph; a repeated header row is dropped and merged
    label cells cut by the page break are filled from the row above."""
    out: list[Paragraph] = []
    for p in paras:
        prev = out[-1] if out else None
        if (p.kind == "table" and prev is not None and prev.kind == "table" and p.rows and prev.rows
                and p.page_start == prev.page_end + 1):
            same_cols = len(p.rows[0]) == len(prev.rows[0])
            if same_cols or _is_caption_row(prev.rows[-1]):
                rows = [list(r) for r in p.rows]
                header = next((r for r in prev.rows if not _is_caption_row(r)), None)
                if same_cols and header is not None and rows and rows[0] == header:
                    rows = rows[1:]
                if same_cols and rows:
                    _fill_labels(prev.rows[-1], rows)
                merged_rows = prev.rows + rows
                text = prev.text + "\n" + "\n".join(" | ".join(c for c in r if c) for r in rows)
                pieces = prev.pieces + [Piece(len(prev.text) + 1, len(text), s) for s in p.spans]
                out[-1] = Paragraph(text=text, kind="table", pieces=pieces, rows=merged_rows, block=prev.block)
                continue
        out.append(p)
    return out


def _fill_labels(above: list[str], rows: list[list[str]]) -> None:
    ncols = len(above)
    first_num = next((j for j in range(ncols) if any(_is_numeric(r[j]) for r in rows if j < len(r))), ncols)
    prev = above
    for r in rows:
        for j in range(min(first_num, len(r))):
            if not r[j].strip() and j < len(prev) and prev[j].strip():
                r[j] = prev[j]
        prev = r


@dataclass
class _Segment:
    caption: str = ""
    header: list[list[str]] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)


def table_segments(rows: list[list[str]]) -> list[_Segment]:
    """Split a (stitched) table into segments: caption row -> header rows -> data rows.

    Header rows: the first row of a segment, plus following all-text rows when the segment's
    data rows are numeric (statistics tables with 2–3 header levels)."""
    segs: list[_Segment] = []
    cur: Optional[_Segment] = None
    i = 0
    n = len(rows)
    while i < n:
        r = rows[i]
        if _is_caption_row(r):
            cur = _Segment(caption=next(c for c in r if c.strip()))
            segs.append(cur)
            i += 1
            continue
        if cur is None or (not cur.header and not cur.rows):
            if cur is None:
                cur = _Segment()
                segs.append(cur)
            # header block
            cur.header.append(r)
            i += 1
            later_numeric = any(any(_is_numeric(c) for c in rr) for rr in rows[i:i + 6])
            while (i < n and len(cur.header) < 4 and later_numeric and not _is_caption_row(rows[i])
                   and not any(_is_numeric(c) for c in rows[i])):
                cur.header.append(rows[i])
                i += 1
            continue
        cur.rows.append(r)
        i += 1
    return segs


def column_names(header: list[list[str]], ncols: int) -> list[str]:
    names = []
    for j in range(ncols):
        parts: list[str] = []
        for hr in header:
            v = hr[j].strip() if j < len(hr) else ""
            if v and (not parts or parts[-1] != v):
                parts.append(v)
        name = "/".join(parts)
        if len(name) > 24 and "/" not in name:
            name = "项目"
        names.append(name)
    return names


def render_row(names: list[str], row: list[str]) -> str:
    """"列名: 值；列名: 值" — adjacent columns with the same name are merged (label columns
    under one spanning header), repeated values from merged cells shown once."""
    pairs: list[tuple[str, list[str]]] = []
    for j, v in enumerate(row):
        name = names[j] if j < len(names) else ""
        v = v.strip()
        if pairs and pairs[-1][0] == name:
            if v and (not pairs[-1][1] or pairs[-1][1][-1] != v):
                pairs[-1][1].append(v)
        else:
            pairs.append((name, [v] if v else []))
    out = []
    for name, vals in pairs:
        if not vals:
            continue
        val = " ".join(vals)
        out.append(f"{name}: {val}" if name else val)
    return "；".join(out)


def render_table_lines(rows: list[list[str]]) -> list[tuple[str, str, list[str]]]:
    """[(caption, header line, row lines)] for every segment of a table."""
    out = []
    for seg in table_segments(rows):
        ncols = max([len(r) for r in seg.header + seg.rows] or [0])
        names = column_names(seg.header, ncols) if seg.header else [""] * ncols
        if not seg.rows and seg.header:
            # a header-only segment (e.g. the last row block of a text table) is data
            lines = [render_row([""] * ncols, r) for r in seg.header]
            out.append((seg.caption, "", [ln for ln in lines if ln]))
            continue
        header_line = " | ".join(dict.fromkeys(n for n in names if n))
        lines = [render_row(names, r) for r in seg.rows]
        out.append((seg.caption, header_line, [ln for ln in lines if ln]))
    return out
