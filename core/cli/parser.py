"""The argument parser of ``python -m core.cli``: every command, subcommand and flag of the
contract (shared/spec/cli.md), added by one function per command group (as core/cli has one module
per group). Parsing only; the handlers live in the command modules."""

from __future__ import annotations

import argparse
from pathlib import Path


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="以 JSON 输出（契约格式）")
    p.add_argument("--debug", action="store_true", help="出错时打印调用栈")


def _batch_or_question(p: argparse.ArgumentParser) -> None:
    p.add_argument("question", nargs="?", help="问题")
    p.add_argument("--batch", type=Path, help="批量模式：JSONL，每行 {id, question, user?, thread?}")
    p.add_argument("--user", help="以该工作区用户身份执行（默认内置管理员）")


def _demo_commands(sub: argparse._SubParsersAction) -> None:
    """``demo`` (core.cli.demo)."""
    p = sub.add_parser("demo", help="加载示例表格、示例政策文档和示例用户")
    p.add_argument("--reset", action="store_true", help="先清空工作区中的示例数据")
    _common(p)


def _build_commands(sub: argparse._SubParsersAction) -> None:
    """``templates`` and ``build-graph`` (core.cli.build)."""
    p = sub.add_parser("templates", help="写出 15 个空白业务模板")
    p.add_argument("out_dir", type=Path)
    _common(p)

    p = sub.add_parser("build-graph", help="校验并构建业务图谱（两阶段）")
    p.add_argument("config", type=Path, nargs="?", help="构建配置 JSON（与 --rebuild 二选一）")
    p.add_argument("--clear", action="store_true", help="清空后重建")
    p.add_argument("--rebuild", action="store_true", help="按当前图谱保存的原始表格从头重新构建（升级后图谱结构变化时）")
    p.add_argument("--strict", action="store_true", help="有校验错误时以退出码 2 结束")
    p.add_argument("--tenant", default=None, help="图谱所属租户（默认：工作区默认租户 ZHICE_DEFAULT_TENANT）")
    _common(p)


def _ingest_commands(sub: argparse._SubParsersAction) -> None:
    """``ingest-docs``, ``reembed`` and ``retrieve`` (core.cli.ingest)."""
    p = sub.add_parser("ingest-docs", help="解析、分块并索引政策文档（目录递归）")
    p.add_argument("paths", nargs="+", type=Path)
    p.add_argument("--tenant", required=True)
    p.add_argument("--domain")
    p.add_argument("--status", choices=["in_effect", "repealed", "draft"])
    p.add_argument("--approve", action="store_true",
                   help="管理员审核通过本批文档（缺文号/机关/日期的文档否则进入待审核，不参与检索）")
    p.add_argument("--user")
    _common(p)

    p = sub.add_parser("reembed", help="用当前向量模型重建全部文档向量（更换 ZHICE_EMBED_MODEL 后；仅管理员）")
    p.add_argument("--check", action="store_true", help="只报告文档向量由哪个模型生成、是否与当前配置一致")
    p.add_argument("--user")
    _common(p)

    p = sub.add_parser("retrieve", help="混合检索（不生成答案），已应用权限过滤")
    _batch_or_question(p)
    p.add_argument("--k", type=int, default=10)
    _common(p)


def _ask_docs_commands(sub: argparse._SubParsersAction) -> None:
    """``ask-docs`` (core.cli.ask_docs)."""
    p = sub.add_parser("ask-docs", help="政策问答（智能体 RAG）")
    _batch_or_question(p)
    p.add_argument("--scenario", choices=["window", "research"])
    p.add_argument("--thread")
    _common(p)


def _task_commands(sub: argparse._SubParsersAction) -> None:
    """``task`` (core.cli.task)."""
    p = sub.add_parser("task", help="政策任务智能体（规划→执行→检查→汇总）")
    p.add_argument("request")
    p.add_argument("--user")
    p.add_argument("--max-steps", type=int, default=None, help="步数熔断（默认 10）")
    p.add_argument("--deadline-s", type=float, default=None, help="时间熔断，秒（默认 60）")
    p.add_argument("--thread", help="会话编号（默认新建）")
    p.add_argument("--out-md", type=Path, help="把报告导出为 Markdown 文件")
    p.add_argument("--out-xlsx", type=Path, help="把报告中的表格导出为 Excel 文件")
    _common(p)


def _ask_kg_commands(sub: argparse._SubParsersAction) -> None:
    """``ask-kg`` and ``source-row`` (core.cli.ask_kg)."""
    p = sub.add_parser("ask-kg", help="业务图谱问答")
    _batch_or_question(p)
    p.add_argument("--auto", action="store_true", help="自动确认槽位、计划和范围")
    p.add_argument("--thread")
    p.add_argument("--plan-file", type=Path, help="在等待计划确认的会话中，以修改后的计划（JSON：{\"plan\": [...]}）答复")
    _common(p)

    p = sub.add_parser("source-row", help="溯源：查看答案来源的表格行（按用户权限脱敏）")
    p.add_argument("template")
    p.add_argument("file")
    p.add_argument("row")
    p.add_argument("--user")
    _common(p)


def _eval_commands(sub: argparse._SubParsersAction) -> None:
    """``eval`` (core.cli.eval)."""
    p = sub.add_parser("eval", help="运行黄金集并写出评测报告")
    p.add_argument("dataset", type=Path, nargs="?", help="评测集 JSONL 文件（或用 --set 指定评测集名称）")
    p.add_argument("--set", help="评测集名称：内置（data/eval）或工作区评测集")
    p.add_argument("--baseline", help="对比的基线运行编号，或 pinned（该评测集固定的基线，默认）")
    p.add_argument("--pin", action="store_true", help="把本次运行固定为该评测集的基线")
    p.add_argument("--gate", action="store_true", help="相对基线有指标退步时以退出码 1 结束（用于 CI）")
    p.add_argument("--tolerance", type=float, help="判定退步的容差（绝对值，默认 0.02）")
    p.add_argument("--retrieval-k", type=int, help="每次检索最多返回的片段数（用于对比不同配置）")
    p.add_argument("--judge", action="store_true",
                   help="另请大模型给每个用例的答案打分（大模型评分，需配置大模型；不影响其他指标）")
    p.add_argument("--out", type=Path)
    p.add_argument("--user", help="以该工作区用户身份运行（默认内置管理员）")
    _common(p)


def _review_commands(sub: argparse._SubParsersAction) -> None:
    """``feedback`` and ``review week|classify|to-golden`` (core.cli.review)."""
    p = sub.add_parser("feedback", help="对自己会话的最后一个回答打分（👍/👎）")
    p.add_argument("--thread", required=True)
    p.add_argument("--kind", required=True, choices=["docs", "kg", "task"])
    p.add_argument("--rating", required=True, type=int, choices=[1, -1])
    p.add_argument("--reason")
    p.add_argument("--user", help="以该工作区用户身份执行（默认内置管理员）")
    _common(p)

    p = sub.add_parser("review", help="每周复盘：本周坏例队列、分类、转为评测用例")
    rsub = p.add_subparsers(dest="review_command", metavar="SUBCOMMAND")
    r = rsub.add_parser("week", help="某一周的复盘队列")
    r.add_argument("--week", help="ISO 周，如 2026-W10（默认本周，北京时间）")
    r.add_argument("--user")
    _common(r)
    r = rsub.add_parser("classify", help="给用例分类、写期望答案、指派、设置状态")
    r.add_argument("id")
    r.add_argument("--category", help="检索失败/理解错误/生成失败/引用错误/期望偏差/无问题/其他（或其英文代码）")
    r.add_argument("--expected", help="期望答案（每行一个要点）")
    r.add_argument("--evidence", help="答案所在的文档或表格行（每行一个）")
    r.add_argument("--status", help="待处理/处理中/已解决/不处理（或 open/in_progress/resolved/wontfix）")
    r.add_argument("--assignee")
    r.add_argument("--user")
    _common(r)
    r = rsub.add_parser("to-golden", help="把用例转为工作区评测集中的评测用例")
    r.add_argument("id")
    r.add_argument("--set", required=True)
    r.add_argument("--expected", help="期望答案（每行一个要点）")
    r.add_argument("--user")
    _common(r)


def _audit_commands(sub: argparse._SubParsersAction) -> None:
    """``audit`` (core.cli.audit)."""
    p = sub.add_parser("audit", help="审计日志（仅管理员）")
    p.add_argument("--of", help="只看该用户的事件")
    p.add_argument("--kind", help="事件类型或其前缀，如 question、login、doc")
    p.add_argument("--since", help="起始日期 YYYY-MM-DD")
    p.add_argument("--limit", type=int, default=100)
    p.add_argument("--user", help="以该工作区用户身份执行（默认内置管理员）")
    _common(p)


def _explore_commands(sub: argparse._SubParsersAction) -> None:
    """``graph search|neighbors|path`` (core.cli.explore)."""
    p = sub.add_parser("graph", help="图谱浏览：实体搜索、邻居、最短路径（按用户权限限定范围并脱敏）")
    gsub = p.add_subparsers(dest="graph_command", metavar="SUBCOMMAND")
    g = gsub.add_parser("search", help="按名称、编号、简称（容错）搜索实体")
    g.add_argument("text")
    g.add_argument("--limit", type=int, default=10)
    g.add_argument("--user")
    _common(g)
    g = gsub.add_parser("neighbors", help="实体及其邻居（节点编号如 项目:XMSQ0102）")
    g.add_argument("id")
    g.add_argument("--depth", type=int, default=1, choices=[1, 2])
    g.add_argument("--label", action="append", default=[], help="只看这些标签的邻居（可重复）")
    g.add_argument("--rel", action="append", default=[], help="只看这些关系类型（可重复）")
    g.add_argument("--months", help="年月范围，如 2026-01:2026-03")
    g.add_argument("--limit", type=int, default=150, help="最多返回的节点数（超出时 truncated 为 true）")
    g.add_argument("--user")
    _common(g)
    g = gsub.add_parser("path", help="两个实体之间的最短路径")
    g.add_argument("from_id")
    g.add_argument("to_id")
    g.add_argument("--max-hops", type=int, default=4)
    g.add_argument("--user")
    _common(g)


def _users_commands(sub: argparse._SubParsersAction) -> None:
    """``users add|check|token|revoke-tokens`` (core.cli.users)."""
    p = sub.add_parser("users", help="工作区用户管理")
    usub = p.add_subparsers(dest="users_command", metavar="SUBCOMMAND")
    a = usub.add_parser("add", help="创建用户")
    a.add_argument("name")
    a.add_argument("--role", required=True, choices=["admin", "manager", "staff", "guest", "reviewer"])
    a.add_argument("--tenant", action="append", default=[])
    a.add_argument("--domain", action="append", default=[])
    a.add_argument("--scenario", choices=["window", "research"], action="append", default=[],
                   help="该用户可用的场景（可重复；第一个为默认场景，省略时为 window）")
    a.add_argument("--password-stdin", action="store_true", help="从标准输入读取密码")
    _common(a)
    c = usub.add_parser("check", help="按登录页的规则校验登录（计入锁定次数并写审计日志）")
    c.add_argument("name")
    c.add_argument("--password-stdin", action="store_true", help="从标准输入读取密码")
    _common(c)
    t = usub.add_parser("token", help="为用户签发 HTTP API 令牌（仅管理员；令牌只显示一次）")
    t.add_argument("name")
    t.add_argument("--ttl-days", type=int, default=None, help="有效期（天，1–365，默认 30）")
    t.add_argument("--user", help="以该管理员身份执行（默认本机操作员）")
    _common(t)
    t = usub.add_parser("revoke-tokens", help="吊销用户的全部 HTTP API 令牌（仅管理员）")
    t.add_argument("name")
    t.add_argument("--user", help="以该管理员身份执行（默认本机操作员）")
    _common(t)


#: the command groups, in the order ``--help`` lists their commands
COMMAND_GROUPS = (_demo_commands, _build_commands, _ingest_commands, _ask_docs_commands, _task_commands,
                  _ask_kg_commands, _eval_commands, _review_commands, _audit_commands, _explore_commands,
                  _users_commands)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m core.cli", description="知策 ZhiCe 命令行")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add_commands in COMMAND_GROUPS:
        add_commands(sub)
    return parser
