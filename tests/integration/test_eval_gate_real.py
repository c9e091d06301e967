"""``eval --gate`` on the real path, quickly: a small subset of the built-in docs golden set
over the demo's Word notices (keyword search only, no model to load), answered by the real
agent in rules mode. A normal run is pinned as the baseline and passes the gate again; the same
set with retrieval cut to one chunk (``--retrieval-k 1``) is worse and the gate exits 1 naming
the metrics that regressed."""

from __future__ import annotations

import json
from pathlib import Path

from core import config
from core.cli import main

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "data" / "eval" / "docs_golden.jsonl"
SAMPLES = REPO / "data" / "samples" / "policies"
AS_OF = "2025-04-15"  # the day the golden questions were written (see test_ask_docs_real)
# cases answered from the Word notices: some hold up with one retrieved chunk, some need more
SUBSET = ["d-004", "d-007", "d-010", "d-016", "d-018", "d-058", "d-060", "d-061", "d-107", "d-110", "d-128",
          "d-132", "d-142"]


def _eval(capsys, *args: str) -> tuple[int, dict, str]:
    code = main(["eval", *args, "--json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def test_gate_fails_on_a_run_with_retrieval_cut_to_one_chunk(tmp_path, monkeypatch, capsys):
    from core.security.principals import resolve_user
    from core.services.ingest import ingest_paths

    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "no-model"))  # BM25 + titles only: fast
    monkeypatch.setenv("ZHICE_TODAY", AS_OF)
    config.set_settings(None)
    docx = sorted(SAMPLES.glob("*.docx"))
    assert len(ingest_paths(docx, resolve_user(None), "demo", approve=True)["documents"]) == len(docx)
    records = {r["id"]: r for r in map(json.loads, GOLDEN.read_text(encoding="utf-8").splitlines()) if r["id"] in SUBSET}
    subset = tmp_path / "docs_subset.jsonl"
    subset.write_text("".join(json.dumps(records[i], ensure_ascii=False) + "\n" for i in SUBSET), encoding="utf-8")

    code, base, _ = _eval(capsys, str(subset), "--pin")
    assert code == 0 and base["metrics"]["docs"]["accuracy"] >= 0.9, base["metrics"]
    code, again, _ = _eval(capsys, str(subset), "--gate")
    assert code == 0 and again["baseline"] == base["run_id"] and again["regressions"] == []

    code, worse, err = _eval(capsys, str(subset), "--retrieval-k", "1", "--gate")
    assert worse["config"]["retrieval"]["k"] == 1 and worse["baseline"] == base["run_id"]
    assert code == 1 and {"docs.accuracy", "docs.correctness"} <= set(worse["regressions"]), worse["metrics"]
    assert worse["metrics"]["docs"]["accuracy"] < base["metrics"]["docs"]["accuracy"]
    assert "相对基线有指标退步" in err and "政策问答 通过率" in err
