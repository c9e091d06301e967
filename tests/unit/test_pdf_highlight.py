"""The citation highlight on real PDFs (data/samples/policies): exactly the quoted characters
— digits, ％ and Latin text included, nothing of the next sentence — on every page a quote
spans (core/agents/rag/preview.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from core.agents.rag.preview import _norm_text, locate_quote, page_chars, render_pdf

POLICIES = Path(__file__).resolve().parents[2] / "data" / "samples" / "policies"
APPLIANCE = POLICIES / "关于印发《济南市2025年家电以旧换新补贴实施细则》的通知(1).pdf"


def _pages(path):
    with pymupdf.open(path) as doc:
        return [(i + 1, page_chars(doc[i])) for i in range(doc.page_count)]


def _covered(rects, bbox) -> bool:
    cx, cy = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
    return any(r[0] - 0.5 <= cx <= r[2] + 0.5 and r[1] - 0.5 <= cy <= r[3] + 0.5 for r in rects)


def test_digits_and_percent_inside_the_quote_are_highlighted_and_nothing_more():
    pages = _pages(APPLIANCE)
    pno, chars = next((p, c) for p, c in pages if "15%" in "".join(x[0] for x in c))
    text = "".join(x[0] for x in chars)
    at = text.index("15%")
    start = text.rfind("。", 0, at) + 1
    end = text.index("。", at) + 1
    quote = text[start:end]
    located = locate_quote([(pno, chars)], quote)
    assert list(located) == [pno]
    for ch, bbox, _ in chars[start:end]:
        assert _covered(located[pno], bbox), ch            # every quoted character, 1 5 % included
    after = [c for c in chars[end:end + 6] if c[2] != chars[end - 1][2]]
    for ch, bbox, _ in after:                               # the next sentence's own line is left alone
        assert not _covered(located[pno], bbox), ch


def test_quote_with_spaces_and_fullwidth_forms_matches():
    pages = _pages(APPLIANCE)
    pno, chars = next((p, c) for p, c in pages if "2000元" in "".join(x[0] for x in c))
    text = "".join(x[0] for x in chars)
    at = text.index("2000元")
    quote = "  ".join(text[at - 6:at + 6])  # as the text layer prints it: spaces between characters
    assert _norm_text(quote) == text[at - 6:at + 6]
    assert locate_quote([(pno, chars)], quote)[pno]


@pytest.mark.parametrize("path", sorted(p for p in POLICIES.glob("*.pdf") if "山东省商务厅" not in p.name)[:3])
def test_quote_across_a_page_break_is_highlighted_on_both_pages(path):
    pages = _pages(path)
    if len(pages) < 2:
        pytest.skip("one page")
    (p1, c1), (p2, c2) = pages[0], pages[1]
    quote = "".join(x[0] for x in c1[-15:]) + "".join(x[0] for x in c2[:15])
    located = locate_quote([(p1, c1), (p2, c2)], quote)
    assert set(located) == {p1, p2}
    preview = render_pdf(path, {"page": p1, "page_end": p2, "quote": quote, "file_name": path.name})
    shown = {p["page"]: p for p in preview["pages"]}
    assert set(shown) == {p1, p2}
    for p in (p1, p2):
        assert shown[p]["located_by"] == "quote" and shown[p]["focus_png"][:4] == b"\x89PNG"
