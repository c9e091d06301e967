"""Agents in rules mode on a demo workspace: latency per question, 8 concurrent threads, the
serving process's memory and the dashboard's time to first page (prints JSON).

    python scripts/bench_agents.py --home WS [--kg 100] [--policy 100] [--threads 8]
    python scripts/bench_agents.py --home WS --serve-rss 50     # one child process, see below
    python scripts/bench_agents.py --home WS --dashboard        # streamlit run + HTTP poll

WS must hold the demo (``python -m core.cli demo``). Questions come from the golden sets
(data/eval/kg_golden.jsonl, data/eval/docs_golden.jsonl), in file order; a case with
``history`` has its earlier turns asked first on the same thread, untimed. Each question is
asked once after one warm-up question per engine; ZHICE_TODAY is 2025-04-15 (the policy
golden set's date) and KG questions run with today = 2026-11-30 (as scripts/bench_kg.py).

Concurrency: ``--threads`` threads ask the same services in one process against the one
workspace, each question on a fresh thread; every answer must equal the single-thread answer
(an exception or a different answer is an error: cross-talk).

Serving memory (``--serve-rss N``): the dashboard's pages call core.services in the streamlit
process; a browser-less benchmark cannot drive streamlit's websocket, so a fresh process asks
N questions through the same services (half KG, half policy) and reports its resident set —
the services' share of a serving process, without streamlit's own (measured idle by
``--dashboard``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

KG_TODAY = date(2026, 11, 30)
POLICY_TODAY = "2025-04-15"


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    if not s:
        return 0.0
    return float(s[min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))])


def use_workspace(home: str) -> None:
    """Point this process at ``home`` in rules mode (no LLM)."""
    os.environ["ZHICE_HOME"] = home
    os.environ["ZHICE_TODAY"] = POLICY_TODAY
    os.environ.pop("ZHICE_LLM_API_KEY", None)
    from core import config

    config.set_settings(None)


def golden(kind: str, n: int) -> list[dict]:
    name = "kg_golden.jsonl" if kind == "kg" else "docs_golden.jsonl"
    lines = (REPO / "data" / "eval" / name).read_text("utf-8").splitlines()
    return [json.loads(x) for x in lines if x.strip()][:n]


def ask(case: dict) -> tuple[float, str]:
    """(ms, answer) of ``case``'s question on a fresh thread; its ``history`` turns are asked
    first on the same thread, untimed."""
    import uuid

    from core.security.principals import resolve_user
    from core.services.ask_docs import ask_docs
    from core.services.ask_kg import ask_kg

    principal = resolve_user(case.get("user") or None)
    thread = f"bench-{uuid.uuid4().hex[:10]}"
    ms, res = 0.0, {}
    for q in [*case.get("history", []), case["question"]]:
        t = time.perf_counter()
        if case.get("kind") == "kg":
            res = ask_kg(q, principal=principal, thread_id=thread, auto=True, today=KG_TODAY)
        else:
            res = ask_docs(q, principal, thread_id=thread)
        ms = (time.perf_counter() - t) * 1000
    return ms, res.get("answer") or ""


def latency(cases: list[dict]) -> tuple[dict, dict[str, str]]:
    """p50/p95/mean over ``cases`` (one engine) and each case's answer. Beside the wall time,
    the process's CPU time per question (nothing else runs in the process meanwhile): on a
    machine shared with other jobs the wall time includes waiting for a core, CPU time not."""
    if not cases:
        return {"n": 0}, {}
    ask(cases[0])  # warm-up: model, index, graph, checkpointer
    ms, cpu, answers, errors = [], [], {}, 0
    for c in cases:
        c0 = time.process_time()
        try:
            dt, answers[c["id"]] = ask(c)
            ms.append(dt)
            cpu.append((time.process_time() - c0) * 1000)
        except Exception as exc:  # noqa: BLE001 - counted, not fatal
            errors += 1
            answers[c["id"]] = f"<error {type(exc).__name__}>"
    return {"n": len(ms), "errors": errors, "p50_ms": round(pct(ms, 50), 1), "p95_ms": round(pct(ms, 95), 1),
            "mean_ms": round(sum(ms) / max(len(ms), 1), 1), "cpu_p50_ms": round(pct(cpu, 50), 1)}, answers


def concurrency(cases: list[dict], reference: dict[str, str], threads: int) -> dict:
    """Every case asked once more, ``threads`` at a time; errors = exceptions + answers that
    differ from the single-thread ones."""
    cases = [c for c in cases if not c.get("history") and not reference.get(c["id"], "").startswith("<error")]

    def one(c):
        try:
            ms, answer = ask(c)
            return c["id"], answer, None, ms
        except Exception as exc:  # noqa: BLE001
            return c["id"], None, f"{type(exc).__name__}: {exc}", None
    t = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        got = list(pool.map(one, cases))
    wall = time.perf_counter() - t
    exc = [(i, e) for i, _a, e, _ms in got if e]
    differ = [i for i, a, e, _ms in got if not e and a != reference[i]]
    ms = [m for *_x, m in got if m is not None]
    return {"threads": threads, "questions": len(cases), "wall_s": round(wall, 1),
            "throughput_qps": round(len(cases) / wall, 2) if wall else None, "p50_ms": round(pct(ms, 50), 1),
            "p95_ms": round(pct(ms, 95), 1), "exceptions": len(exc), "different_answers": len(differ),
            "errors": len(exc) + len(differ),
            "examples": [f"{i}: {e}"[:200] for i, e in exc[:3]] + [f"{i}: answer differs" for i in differ[:3]]}


def run_agents(home: str, n_kg: int, n_policy: int, threads: int) -> dict:
    use_workspace(home)
    kg, policy = golden("kg", n_kg), golden("docs", n_policy)
    kg_lat, kg_ans = latency(kg)
    pol_lat, pol_ans = latency(policy)
    mixed = [c for pair in zip(kg, policy) for c in pair] + kg[len(policy):] + policy[len(kg):]
    conc = concurrency(mixed, {**kg_ans, **pol_ans}, threads)
    return {"kg": kg_lat, "policy": pol_lat, "concurrency": conc}


def _minimal(schema: dict, defs: dict):
    """The smallest value a JSON schema accepts: defaults where given, else empty / false / 0."""
    if "$ref" in schema:
        return _minimal(defs[schema["$ref"].split("/")[-1]], defs)
    if "default" in schema:
        return schema["default"]
    kind = schema.get("type") or next((o.get("type") for o in schema.get("anyOf", []) if o.get("type") != "null"), "string")
    if kind == "object":
        props = schema.get("properties", {})
        return {k: _minimal(props[k], defs) for k in schema.get("required", []) if k in props}
    return {"array": [], "boolean": False, "integer": 0, "number": 0, "string": ""}.get(kind, "")


def instant_reply(body: dict) -> dict:
    """What the instant Chat Completions server answers: for a structured call the smallest object
    its schema (in the last system message) accepts, so every node takes its rules verdicts;
    for prose one cited sentence (streamed when asked)."""
    if (body.get("response_format") or {}).get("type") == "json_object":
        text = body["messages"][-1]["content"]
        schema = json.loads(text[text.index("{"):])
        return {"content": json.dumps(_minimal(schema, schema.get("$defs", {})), ensure_ascii=False)}
    prose = "根据检索到的材料作答[1]。"
    return {"stream": [prose]} if body.get("stream") else {"content": prose}


def llm_overhead(home: str, n_kg: int, n_policy: int) -> dict:
    """The same golden questions in rules mode and through the OpenAI-compatible path against a
    local Chat Completions server that answers at once (tests/support/chat_server.py): the
    difference is what the LLM path itself costs (prompts, HTTP round trips, parsing), not a
    model's thinking time. Also the number of model calls per question."""
    from tests.support.chat_server import ChatServer

    groups = {"kg": golden("kg", n_kg), "policy": golden("docs", n_policy)}
    use_workspace(home)
    rules = {k: latency(c)[0] for k, c in groups.items()}
    llm: dict = {}
    with ChatServer(responder=instant_reply) as server:
        env = {"ZHICE_LLM_API_KEY": "bench", "ZHICE_LLM_BASE_URL": server.base_url, "ZHICE_LLM_MODEL": "test-model",
               "ZHICE_LLM_MAX_RETRIES": "0"}
        os.environ.update(env)
        from core import config

        config.set_settings(None)
        try:
            for k, c in groups.items():
                before = len(server.requests)
                llm[k] = latency(c)[0]
                llm[k]["model_calls_per_question"] = round((len(server.requests) - before) / (len(c) + 1), 2)
        finally:
            for k in env:
                os.environ.pop(k, None)
            config.set_settings(None)
    return {k: {"rules": rules[k], "llm_instant": llm[k],
                "p50_overhead_ms": round(llm[k]["p50_ms"] - rules[k]["p50_ms"], 1)
                if llm[k].get("n") and rules[k].get("n") else None} for k in groups}


def rss_mb() -> float:
    """This process's resident set now (Linux /proc; peak from getrusage as a fallback)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return peak_mb()


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def serve_rss(home: str, n: int) -> dict:
    """In THIS process: n questions through the services (half KG, half policy)."""
    use_workspace(home)
    cases = [c for pair in zip(golden("kg", n), golden("docs", n)) for c in pair][:n]
    errors = 0
    for c in cases:
        try:
            ask(c)
        except Exception:  # noqa: BLE001
            errors += 1
    return {"questions": len(cases), "errors": errors, "rss_mb": round(rss_mb(), 1), "peak_rss_mb": round(peak_mb(), 1),
            "torch_imported": "torch" in sys.modules}


def serve_rss_child(home: str, n: int, timeout: int = 1200) -> dict:
    """serve_rss in a fresh process (nothing loaded by the caller counts)."""
    out = subprocess.run([sys.executable, __file__, "--home", home, "--serve-rss", str(n)], capture_output=True,
                         text=True, timeout=timeout, cwd=REPO)
    if out.returncode:
        return {"error": out.stderr.strip().splitlines()[-1][:300] if out.stderr.strip() else f"rc {out.returncode}"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _proc_rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def dashboard(home: str, timeout: float = 180) -> dict:
    """``streamlit run app.py`` on a free port: seconds until the first page is served (HTTP
    200 on / and on the health endpoint), and the server's resident set then."""
    port = _free_port()
    env = {**os.environ, "ZHICE_HOME": home, "ZHICE_TODAY": POLICY_TODAY}
    env.pop("ZHICE_LLM_API_KEY", None)
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                             "--server.port", str(port), "--browser.gatherUsageStats", "false"],
                            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        first = None
        while time.perf_counter() - t < timeout and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r1, \
                        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r2:
                    if r1.status == 200 and r2.status == 200 and b"<html" in r2.read().lower():
                        first = time.perf_counter() - t
                        break
            except OSError:
                time.sleep(0.2)
        out = {"first_page_s": round(first, 2) if first else None, "server_rss_mb": _proc_rss_mb(proc.pid),
               "error": None if first else "no page within the timeout"}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
    run = subprocess.run([sys.executable, __file__, "--home", home, "--first-run"], capture_output=True, text=True,
                         timeout=600, cwd=REPO)
    lines = run.stdout.strip().splitlines()
    out["first_script_run"] = json.loads(lines[-1]) if run.returncode == 0 and lines else {"error": f"rc {run.returncode}"}
    return out


def first_script_run(home: str) -> dict:
    """In THIS process: the first run of app.py as streamlit's AppTest runs it (what a new
    browser session waits for after the page shell: imports, settings, the login page)."""
    use_workspace(home)
    from streamlit.testing.v1 import AppTest

    t = time.perf_counter()
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=180).run()
    out = {"first_run_s": round(time.perf_counter() - t, 2), "exception": bool(at.exception),
           "title": [x.value for x in at.title][:1]}
    out["first_answer"] = {k: first_answer(*v) for k, v in (("policy", ("1_政策问答.py", "docs", False)),
                                                             ("kg", ("4_图谱问答.py", "kg", True)))}
    out["rss_mb"] = round(rss_mb(), 1)
    return out


def first_answer(page: str, golden_kind: str, auto_confirm: bool) -> dict:
    """A signed-in user opens ``page`` and asks the first golden question of its engine: the
    page's first run and the run that shows the answer, as AppTest drives them (KG with the
    page's auto-confirm switch on, as a manager who trusts the plan would)."""
    from streamlit.testing.v1 import AppTest

    from core.security.principals import resolve_user

    at = AppTest.from_file(str(REPO / "pages" / page), default_timeout=300)
    at.session_state["principal"] = resolve_user(None)
    t = time.perf_counter()
    at.run()
    page_s = time.perf_counter() - t
    if auto_confirm:
        next(x for x in at.toggle if "自动确认" in x.label).set_value(True).run()
    t = time.perf_counter()
    at.chat_input[0].set_value(golden(golden_kind, 1)[0]["question"]).run()
    answer_s = time.perf_counter() - t
    return {"page_s": round(page_s, 2), "answer_s": round(answer_s, 2), "exception": bool(at.exception),
            "answered": len(at.chat_message) >= 2}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True, help="workspace holding the demo")
    ap.add_argument("--kg", type=int, default=100)
    ap.add_argument("--policy", type=int, default=100)
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--serve-rss", type=int, default=0, help="only: N questions in this process, then its RSS")
    ap.add_argument("--dashboard", action="store_true", help="only: streamlit time to first page")
    ap.add_argument("--first-run", action="store_true", help="only: app.py's first script run (AppTest)")
    ap.add_argument("--llm-overhead", action="store_true", help="only: rules vs an instant Chat Completions server")
    args = ap.parse_args(argv)
    if args.first_run:
        out = first_script_run(args.home)
    elif args.llm_overhead:
        out = llm_overhead(args.home, args.kg, args.policy)
    elif args.serve_rss:
        out = serve_rss(args.home, args.serve_rss)
    elif args.dashboard:
        out = dashboard(args.home)
    else:
        out = run_agents(args.home, args.kg, args.policy, args.threads)
    print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
