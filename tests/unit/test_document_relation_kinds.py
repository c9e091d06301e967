"""What documents say of each other beyond 废止: every example sentence of
data/rules/doc_relations.json yields its relation and every counter-example none; 代替
retires its target (已废止) while 修订 / 补充 / 延期 leave it in effect; across tenants a
relation is linked only from an issuer the target's tenant trusts."""

from __future__ import annotations

from datetime import date

import pytest

from core.documents.models import DocMeta
from core.documents.relations import extract_relations, relation_label, relation_rules, retiring_kinds
from core.retrieval.metastore import compute_statuses

TODAY = date(2025, 6, 1)
ROWS = relation_rules()


@pytest.mark.parametrize("row", ROWS, ids=[r["kind"] for r in ROWS])
def test_every_example_and_counter_example(row):
    for sentence, target in row["examples"]:
        assert {"kind": row["kind"], "target": target} in extract_relations(sentence), sentence
    for sentence in row["counter_examples"]:
        assert all(r["kind"] != row["kind"] for r in extract_relations(sentence)), sentence


def test_labels_and_which_kinds_retire():
    assert [relation_label(r["kind"]) for r in ROWS] == ["废止", "代替", "修订", "补充", "延期"]
    assert retiring_kinds() == {"repeals", "supersedes"}


def test_title_line_counts_and_each_pair_once():
    text = "《山东省2025年家电以旧换新实施方案》有效期延长至2026年12月31日。\n《山东省2025年家电以旧换新实施方案》有效期延长至2026年12月31日。"
    assert extract_relations(text, "关于延长《山东省2025年家电以旧换新实施方案》有效期的通知") == \
        [{"kind": "extends", "target": "《山东省2025年家电以旧换新实施方案》"}]


def meta(doc_id, tenant="济南", **kw):
    return DocMeta(doc_id=doc_id, file_name=f"{doc_id}.pdf", tenant=tenant, authorities=["济南市商务局"], **kw)


def _rel(kind: str, target: str) -> list[dict]:
    return [{"kind": kind, "target": target}]


def test_supersedes_retires_other_kinds_do_not():
    metas = [meta("old", title="济南市旧细则", doc_number="济商务字〔2024〕3号"),
             meta("new", relations=_rel("supersedes", "济商务字〔2024〕3号")),
             meta("plan", title="关于印发《济南市实施方案》的通知"),
             meta("amend", relations=_rel("amends", "《济南市实施方案》")),
             meta("extend", relations=_rel("extends", "《济南市实施方案》")),
             meta("notice", title="济南市活动公告"),
             meta("supp", relations=_rel("supplements", "《济南市活动公告》"))]
    status, relations = compute_statuses(metas, TODAY)
    assert status["old"] == "repealed" and status["plan"] == "in_effect" and status["notice"] == "in_effect"
    assert {r for r in relations} == {("new", "济商务字〔2024〕3号", "old", "supersedes"),
                                      ("amend", "《济南市实施方案》", "plan", "amends"),
                                      ("extend", "《济南市实施方案》", "plan", "extends"),
                                      ("supp", "《济南市活动公告》", "notice", "supplements")}


def test_across_tenants_only_from_a_trusted_issuer():
    metas = [meta("plan", title="济南市实施方案"),
             meta("prov", tenant="山东省", relations=_rel("supersedes", "《济南市实施方案》"))]
    metas[1].authorities = ["山东省商务厅"]
    status, relations = compute_statuses(metas, TODAY)
    assert status["plan"] == "in_effect" and relations == [("prov", "《济南市实施方案》", None, "supersedes")]
    trusted = {"济南": [{"issuer_tenant": "山东省", "authority": "山东省商务厅"}]}
    status, relations = compute_statuses(metas, TODAY, trusted=trusted)
    assert status["plan"] == "repealed" and relations == [("prov", "《济南市实施方案》", "plan", "supersedes")]
