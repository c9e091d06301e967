"""``python -m core.cli demo``: the bundled sample spreadsheets, sample policy documents and
sample users, loaded into the current workspace."""

from __future__ import annotations

import argparse
import time

from core.security.audit import audit
from core.security.principals import UserStore

DEMO_TENANT = "demo"
DEMO_PASSWORD = "zhice-demo-2026"

# name, role, tenants, domains, scenario
DEMO_USERS = [
    ("manager_a", "manager", [DEMO_TENANT], [], "window"),
    ("researcher_a", "manager", [DEMO_TENANT], [], "research"),
    ("staff_a", "staff", [DEMO_TENANT], [], "window"),
    ("guest_a", "guest", [DEMO_TENANT], [], "window"),
    ("reviewer_a", "reviewer", [DEMO_TENANT], [], "window"),
    ("outsider", "manager", ["other"], [], "window"),
]


def create_demo_users() -> list[str]:
    store = UserStore()
    store.ensure_admin()
    for name, role, tenants, domains, scenario in DEMO_USERS:
        if not store.exists(name):
            store.add(name, role, DEMO_PASSWORD, tenants=tenants, domains=domains, scenario=scenario)
    return [u.name for u in store.list()]


def run_demo(reset: bool = False) -> dict:
    from core.services.build import load_demo_graph
    from core.services.ingest import ingest_demo_documents

    t0 = time.perf_counter()
    users = create_demo_users()
    graph = load_demo_graph(clear=reset)
    documents = ingest_demo_documents(reset=reset)
    audit("cli", "demo", detail={"reset": reset, "seconds": round(time.perf_counter() - t0, 1)})
    return {"graph": graph, "documents": documents, "users": users}


def cli_demo(args: argparse.Namespace) -> int:
    from core.cli import emit

    result = run_demo(reset=args.reset)

    def human(r: dict) -> str:
        nodes = sum(r["graph"].get("nodes", {}).values())
        edges = sum(r["graph"].get("edges", {}).values())
        docs = r["documents"].get("documents", [])
        errors = r["documents"].get("errors", [])
        lines = [f"业务图谱：节点 {nodes}，关系 {edges}",
                 f"政策文档：{len(docs)} 篇" + (f"，失败 {len(errors)} 篇" if errors else ""),
                 f"用户：{'、'.join(r['users'])}（示例用户密码：{DEMO_PASSWORD}）"]
        return "\n".join(lines)

    emit(result, args.json, human)
    return 0
