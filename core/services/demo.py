"""The demo data: the bundled sample spreadsheets, sample policy documents and sample users,
loaded into the current workspace (the ``demo`` command and the dashboard's empty-workspace
button).

Demo users get a random one-time password each, passed once to ``echo`` when they are created
(and the administrator's, on first start), and must change it at first sign-in, like
``admin``."""

from __future__ import annotations

import time

from core.security.audit import audit
from core.security.principals import UserStore, random_password

DEMO_TENANT = "demo"

# name, role, tenants, domains, scenarios (the first is the default)
DEMO_USERS = [
    ("manager_a", "manager", [DEMO_TENANT], [], ["window"]),
    ("researcher_a", "manager", [DEMO_TENANT], [], ["research", "window"]),
    ("staff_a", "staff", [DEMO_TENANT], [], ["window"]),
    ("guest_a", "guest", [DEMO_TENANT], [], ["window"]),
    ("reviewer_a", "reviewer", [DEMO_TENANT], [], ["window"]),
    ("outsider", "manager", ["other"], [], ["window"]),
]


def create_demo_users(echo=print) -> tuple[list[str], dict[str, str]]:
    """Create the administrator (first start) and the demo users that do not exist yet.
    Returns (all user names, {name: one-time password} for the users created now); each
    password is also passed to ``echo`` once."""
    store = UserStore()
    created: dict[str, str] = {}
    admin_password = store.ensure_admin(echo=echo)
    if admin_password:
        created["admin"] = admin_password
    for name, role, tenants, domains, scenarios in DEMO_USERS:
        if not store.exists(name):
            password = random_password()
            store.add(name, role, password, tenants=tenants, domains=domains, scenario=scenarios[0],
                      scenarios=scenarios, must_change_password=True)
            created[name] = password
            echo(f"[ZhiCe] 已创建示例用户 {name}，一次性密码：{password}（首次登录后必须修改）")
    return [u.name for u in store.list()], created


def run_demo(reset: bool = False, *, echo=print, progress=None, principal=None) -> dict:
    """Load everything. ``progress(fraction, text)`` (optional) follows the steps: users,
    business graph (read / nodes / edges), documents (解析 / OCR / 向量化 per file)."""
    from core.services.build import load_demo_graph
    from core.services.ingest import ingest_demo_documents

    def step(frac: float, text: str) -> None:
        if progress is not None:
            progress(min(max(frac, 0.0), 1.0), text)

    t0 = time.perf_counter()
    step(0.0, "创建示例用户")
    users, created = create_demo_users(echo=echo)
    phases = {"read": (0.02, 0.10, "读取业务表格"), "nodes": (0.12, 0.15, "写入图谱节点"), "edges": (0.27, 0.13, "写入图谱关系")}

    def on_build(phase: str, frac: float, msg: str) -> None:
        start, span, label = phases.get(phase, (0.02, 0.38, "构建图谱"))
        step(start + span * frac, f"业务图谱 · {label}")

    # progress / principal only when given, so callers (and test doubles) of the older
    # signatures keep working
    graph = load_demo_graph(clear=reset, tenant=DEMO_TENANT, **({"progress": on_build} if progress else {}))

    def on_stage(ev: dict) -> None:
        total = max(ev["total"], 1)
        step(0.4 + 0.6 * ev["index"] / total,
             f"政策文档 {min(ev['index'] + 1, total)}/{total} · {ev['file'] or ''} · {ev['text']}")

    extra = {**({"on_stage": on_stage} if progress else {}), **({"principal": principal} if principal else {})}
    documents = ingest_demo_documents(reset=reset, tenant=DEMO_TENANT, **extra)
    step(1.0, "完成")
    audit("cli", "demo", detail={"reset": reset, "seconds": round(time.perf_counter() - t0, 1),
                                 "users_created": sorted(created)})
    return {"graph": graph, "documents": documents, "users": users}


def load_demo(principal, *, progress=None) -> dict:
    """The empty-workspace button of the dashboard (administrators): ``run_demo`` as
    ``principal``. Returns counts and the one-time passwords of demo users created now (shown
    once to the administrator, as the command line prints them)."""
    from core.errors import PermissionDenied

    if principal is None or not getattr(principal, "is_admin", False):
        raise PermissionDenied("只有管理员可以载入示例数据")
    printed: list[str] = []
    result = run_demo(echo=printed.append, progress=progress, principal=principal)
    audit(principal.name, "demo.load", detail={"documents": len(result["documents"].get("documents", []))})
    docs = result["documents"]
    return {"nodes": sum(result["graph"].get("nodes", {}).values()),
            "edges": sum(result["graph"].get("edges", {}).values()),
            "documents": len(docs.get("documents", [])), "document_errors": docs.get("errors", []),
            "users": result["users"], "passwords": printed}
