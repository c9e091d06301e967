"""Scores the blind question batches (data/eval/blind/{policy,kg}_batch_N.jsonl) against the two
rules-mode engines through the CLI, and prints one table per batch and engine.

Each answer is classified as
  correct              answered, and the gold (or an accepted alternative) is in the answer
  refused_correctly    the gold is null (not answerable) and the engine refused
  refused_wrongly      the gold is not null but the engine refused
  wrong_but_confident  answered when it should refuse, or answered without the gold value
Matching is a normalised contains-match: NFKC, no blanks or thousands separators, numbers
canonical (2,000.00 -> 2000), dates as YYYY-MM-DD / YYYY-MM, brackets 〔〕[]【】 alike; a number
never matches inside a longer number (5% is not found in 15%). A record may add "accept"
(alternative strings, any one suffices) and "all_of" (strings that must all appear; "a|b" = a or b).

    .venv/bin/python scripts/score_blind.py [--engine policy|kg] [--batch N ...] [--json OUT.json]

Run with the demo workspace (ZHICE_HOME) and ZHICE_TODAY set as in data/eval/blind/README.md.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLIND = os.path.join(ROOT, "data", "eval", "blind")
CLASSES = ("correct", "refused_correctly", "refused_wrongly", "wrong_but_confident")

# KG answers carry no refusal flag: an answer that says it found nothing / cannot answer counts as
# a refusal (as does a question left at a confirm step).
_KG_REFUSAL = re.compile(
    r"暂未查到|未查到|查不到|没有查到|未找到|没有找到|找不到|无法回答|无法确定|无法查询|不支持|暂不支持|"
    r"没有相关|无相关|没有.{0,12}(数据|记录|信息|字段)|不包含|不在.{0,10}范围|无权|超出|请换个问法|未能理解|没能理解|无法理解"
)


def _canon_num(m: re.Match) -> str:
    s = m.group(0).replace(",", "")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def normalise(text: str, dates: bool = True) -> str:
    t = unicodedata.normalize("NFKC", str(text or ""))
    t = t.replace("〔", "[").replace("〕", "]").replace("【", "[").replace("】", "]").replace("［", "[").replace("］", "]")
    t = re.sub(r"(?m)^\s*(\d+)\.\s+", r"\1) ", t)  # a list number ("2. 2026-02") is no decimal point
    t = re.sub(r"\s+", "", t)
    if dates:  # 2025年1月5日 / 2025-1-5 / 2025.01.05 -> "2025-01-05 ", 2025年1月 / 2025-01 -> "2025-01 "
        t = re.sub(r"(\d{4})[年/.-](\d{1,2})[月/.-](\d{1,2})日?", lambda m: f"{m[1]}-{int(m[2]):02d}-{int(m[3]):02d} ", t)
        t = re.sub(r"(\d{4})(?:年(\d{1,2})月|-(\d{1,2}))(?![\d-])", lambda m: f"{m[1]}-{int(m[2] or m[3]):02d} ", t)
    t = re.sub(r"(?<![\d.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\d.])\d+\.\d+", _canon_num, t)
    return t.lower()


def contains(haystack: str, needle: str) -> bool:
    """Normalised contains; a needle starting/ending with a digit must not touch further digits."""
    return _contains(normalise(haystack), normalise(needle)) or _contains(normalise(haystack, False), normalise(needle, False))


def _contains(h: str, n: str) -> bool:
    n = n.strip()
    if not n:
        return False
    start = 0
    while True:
        i = h.find(n, start)
        if i < 0:
            return False
        before = h[i - 1] if i > 0 else ""
        after = h[i + len(n)] if i + len(n) < len(h) else ""
        ok_before = not (n[0].isdigit() and (before.isdigit() or before == "."))
        ok_after = not (n[-1].isdigit() and (after.isdigit() or (after == "." and h[i + len(n) + 1:i + len(n) + 2].isdigit())))
        if n.replace(".", "").isdigit():  # a bare number is no part of a date ("4" is not in 2026年4月)
            ok_before = ok_before and before != "年"
            ok_after = ok_after and after not in ("年", "月", "日", "号")
        if ok_before and ok_after:
            return True
        start = i + 1


_UNIT_NUMBER = re.compile(r"^(\d{3,}(?:\.\d+)?)(件|条|个|人|场|次|名|台|张|元|万元|亿元|天|日|小时)$")
_NUMBER = re.compile(r"^-?[\d,]+(\.\d+)?$")


def headline(answer: str) -> str:
    """A KG answer's statement: the lines before its numbered evidence rows ("1. …", "依据")."""
    out = []
    for line in str(answer or "").splitlines():
        if re.match(r"\s*(\d+\.\s|依据)", line):
            break
        out.append(line)
    return "\n".join(out)


def _listed(head: str) -> int | None:
    m = re.search(r"共\s*(\d+)\s*(条|人|个|台|组|项)", head)
    return int(m.group(1)) if m else None


def matches(record: dict, answer: str, kg: bool = False) -> bool:
    """Policy: anywhere in the answer. KG: a plain number must be in the statement (or in the one
    record listed); names and lists may be in the rows, unless the answer lists far more records
    than were asked for (an unfiltered dump that happens to contain the gold)."""
    items = record.get("all_of") or []
    golds = [g for g in [record["expected"]] + list(record.get("accept") or []) if g]
    text = str(answer or "")
    if kg:
        head, n = headline(text), _listed(headline(text))
        if not items and _NUMBER.match(str(record["expected"]).strip()):
            if n != 1:
                text = head
        elif n is not None and n > (len(items) or 1) + 3:
            return False
    if items:
        return all(any(contains(text, alt) for alt in item.split("|")) for item in items)
    # "3001件" / "7730.28万元" also match the bare number when it has 3+ digits (answers quote
    # table cells without the unit); short numbers keep their unit ("3件" is not any "3").
    golds += [m.group(1) for g in golds for m in [_UNIT_NUMBER.match(normalise(g, False))] if m]
    return any(contains(text, g) for g in golds)


def is_refusal(engine: str, result: dict) -> bool:
    if "error" in result:
        return True
    if engine == "policy":
        return bool(result.get("refused"))
    if result.get("refused") or result.get("need_confirm"):
        return True
    answer = str(result.get("answer") or "")
    return not answer.strip() or bool(_KG_REFUSAL.search(headline(answer)))


def classify(engine: str, record: dict, result: dict) -> str:
    refused = is_refusal(engine, result)
    if record.get("expected") is None:
        return "refused_correctly" if refused else "wrong_but_confident"
    if refused:
        return "refused_wrongly"
    return "correct" if matches(record, str(result.get("answer") or ""), kg=engine == "kg") else "wrong_but_confident"


def present_batches() -> list[int]:
    """The batch numbers that have a file, for either engine."""
    found = {int(m.group(1)) for f in os.listdir(BLIND) if (m := re.fullmatch(r"(?:policy|kg)_batch_(\d+)\.jsonl", f))}
    return sorted(found)


def load(engine: str, batch: int) -> list[dict]:
    with open(os.path.join(BLIND, f"{engine}_batch_{batch}.jsonl"), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def run_engine(engine: str, records: list[dict]) -> dict[str, dict]:
    """Runs one batch through the CLI batch mode (models loaded once); returns results by id."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps({"id": r["id"], "question": r["question"]}, ensure_ascii=False) + "\n")
        path = fh.name
    cmd = [sys.executable, "-m", "core.cli"]
    cmd += ["ask-docs", "--batch", path, "--json"] if engine == "policy" else ["ask-kg", "--auto", "--batch", path, "--json"]
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=os.environ.copy())
    finally:
        os.unlink(path)
    out: dict[str, dict] = {}
    for line in proc.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                continue
            if "id" in obj:
                out[obj["id"]] = obj
    if not out:
        sys.stderr.write(proc.stderr[-2000:])
    return out


def _raw(result: dict) -> dict:
    keep = {k: result.get(k) for k in ("answer", "refused", "need_confirm", "error") if k in result}
    if result.get("citations"):
        keep["cited_files"] = sorted({c.get("file_name") for c in result["citations"] if c.get("file_name")})
    return keep


def score(engine: str, records: list[dict], results: dict[str, dict]) -> dict:
    cases = []
    for r in records:
        res = results.get(r["id"], {"error": "no result"})
        cases.append({"id": r["id"], "question": r["question"], "expected": r.get("expected"),
                      "class": classify(engine, r, res), "answer": str(res.get("answer") or res.get("error") or ""),
                      "raw": _raw(res)})
    counts = {c: sum(1 for x in cases if x["class"] == c) for c in CLASSES}
    return {"engine": engine, "n": len(cases), "counts": counts, "cases": cases}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", choices=("policy", "kg"))
    ap.add_argument("--batch", type=int, nargs="+", help="batch numbers (default: every batch file there is)")
    ap.add_argument("--json", dest="json_out", help="write the figures and per-case classes to this file")
    ap.add_argument("--rescore", help="classify again the raw results kept in a previous --json file (no engine run)")
    args = ap.parse_args(argv)
    engines = [args.engine] if args.engine else ["policy", "kg"]
    batches = args.batch or present_batches()
    saved = {}
    if args.rescore:
        with open(args.rescore, encoding="utf-8") as fh:
            for s in json.load(fh):
                saved[(s["engine"], s["batch"])] = {c["id"]: c["raw"] for c in s["cases"]}
        engines = [e for e in engines if any(k[0] == e for k in saved)]
        batches = [b for b in batches if any(k[1] == b for k in saved)]
    report = []
    for engine in engines:
        for b in batches:
            recs = load(engine, b)
            results = saved.get((engine, b)) if args.rescore else run_engine(engine, recs)
            if results is None:
                continue
            s = score(engine, recs, results)
            s["batch"] = b
            report.append(s)
            c = s["counts"]
            print(f"\n{engine} batch {b} (n={s['n']}): " + "  ".join(f"{k}={c[k]}" for k in CLASSES))
            for x in s["cases"]:
                if x["class"] in ("wrong_but_confident", "refused_wrongly"):
                    print(f"  {x['class']:<20} {x['id']}  {x['question']}  gold={x['expected']}  said={x['answer'][:120]!r}")
    print("\n| engine | batch | n | correct | refused_correctly | refused_wrongly | wrong_but_confident |")
    print("|---|---|---|---|---|---|---|")
    for s in report:
        c = s["counts"]
        print(f"| {s['engine']} | {s['batch']} | {s['n']} | " + " | ".join(str(c[k]) for k in CLASSES) + " |")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as fh:
            json.dump(report, fh, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
