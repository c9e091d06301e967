"""``graph search | neighbors | path``: the graph explorer, scoped and masked for the user —
core.services.explore."""

from __future__ import annotations

from core.cli.output import emit
from core.errors import BadInputError
from core.security.principals import resolve_user
from core.services import explore as service


def human_search(res: dict) -> str:
    if not res["results"]:
        return "没有找到匹配的实体：换一个名称、编号或简称再试"
    return "\n".join(f"{r['id']}\t{r['name']}\t{r['score']}" for r in res["results"])


def human_graph(res: dict) -> str:
    if not res["nodes"]:
        return "没有找到路径（最多 4 跳）"
    lines = [f"{n['id']}\t{n['name']}" for n in res["nodes"]]
    lines += [f"{e['source']} -[{e['type']}]-> {e['target']}" for e in res["edges"]]
    if "total_nodes" in res:
        lines.append(f"显示 {len(res['nodes'])} / 共 {res['total_nodes']} 个节点" + ("（已截断，可用 --limit 或筛选条件）"
                                                                             if res["truncated"] else ""))
    return "\n".join(lines)


def cmd_graph(args) -> int:
    principal = resolve_user(args.user)
    cmd = args.graph_command
    if cmd == "search":
        res = service.search(principal, args.text, limit=args.limit)
        emit(res, args.json, human_search)
    elif cmd == "neighbors":
        res = service.neighbors(principal, args.id, depth=args.depth, labels=args.label or (), rels=args.rel or (),
                                months=args.months, limit=args.limit)
        emit(res, args.json, human_graph)
    elif cmd == "path":
        res = service.shortest_path(principal, args.from_id, args.to_id, max_hops=args.max_hops)
        emit(res, args.json, human_graph)
    else:  # pragma: no cover - argparse refuses other names
        raise BadInputError("可用子命令：search、neighbors、path")
    return 0
