"""``templates OUT_DIR`` and ``build-graph CONFIG.json``: the blank business templates and the
business-graph build — core.services.build."""

from __future__ import annotations

from core.cli.output import emit
from core.errors import BadInputError
from core.security.principals import resolve_user
from core.services import build as service


def cmd_templates(args) -> int:
    paths = service.write_templates(args.out_dir)
    emit({"written": [str(p) for p in paths]}, args.json, lambda r: f"已写出 {len(r['written'])} 个模板到 {args.out_dir}")
    return 0


def human(r: dict) -> str:
    lines = [f"租户 {r['tenant']} 的图谱第 {r['generation']} 版构建完成，用时 {r['seconds']} 秒；错误 {len(r['errors'])} 条，警告 {len(r['warnings'])} 条",
             "节点：" + "，".join(f"{k} {v}" for k, v in r["nodes"].items() if v),
             "关系：" + "，".join(f"{k} {v}" for k, v in r["edges"].items() if v)]
    for e in r["errors"][:50]:
        lines.append(f"  错误 [{e['template']}] {e['file']} 第{e['row']}行 {e['column'] or ''}：{e['reason']}")
    for w in r["warnings"][:50]:
        lines.append(f"  警告 [{w['template']}] {w['file']} 第{w['row']}行 {w['column'] or ''}={w['value']}：{w['reason']}")
    return "\n".join(lines)


def cmd_build_graph(args) -> int:
    principal = resolve_user(getattr(args, "user", None))
    tenant = getattr(args, "tenant", None)
    if args.rebuild == (args.config is not None):
        raise BadInputError("请给出构建配置文件，或用 --rebuild 按已保存的原始表格重新构建（二选一）")
    if args.rebuild:
        result = service.rebuild_from_sources(principal, tenant=tenant)
    else:
        result = service.build_from_config(principal, args.config, tenant=tenant, clear=args.clear)
    emit(result, args.json, human)
    return 2 if args.strict and result["errors"] else 0
