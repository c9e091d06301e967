"""A whitelisted-AST expression evaluator for derived concepts (年龄 ← 出生日期 …).

Only literals, names from the given environment, arithmetic, comparisons, boolean logic,
conditional expressions and a fixed set of functions are allowed. Anything else (attributes,
subscripts, lambdas, comprehensions, calls to unknown names, dunder names) raises
:class:`ExprError` before evaluation.
"""

from __future__ import annotations

import ast
import operator
import re
from datetime import date, datetime
from typing import Any, Callable

from core.errors import BadInputError


class ExprError(BadInputError):
    default_message = "表达式不合法"


def _to_date(v: Any) -> date | None:
    if v is None or v == "":
        return None
    if isinstance(v, datetime):
        return v.date()
    if isinstance(v, date):
        return v
    s = str(v).strip()
    m = re.match(r"(\d{4})\s*[-/.年]\s*(\d{1,2})(?:\s*[-/.月]\s*(\d{1,2}))?", s)
    if not m:
        return None
    return date(int(m.group(1)), int(m.group(2)), int(m.group(3) or 1))


def to_number(v: Any) -> float | None:
    if v is None or v == "":
        return None
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(str(v).replace(",", "").replace("，", "").strip())
    except ValueError:
        return None


def years_between(a: Any, b: Any) -> int | None:
    """Whole years from ``a`` to ``b`` (age-style: birthday not reached yet = one less)."""
    da, db = _to_date(a), _to_date(b)
    if da is None or db is None:
        return None
    years = db.year - da.year - ((db.month, db.day) < (da.month, da.day))
    return years


def months_between(a: Any, b: Any) -> int | None:
    """Whole months from ``a`` to ``b`` (negative when ``b`` is earlier)."""
    da, db = _to_date(a), _to_date(b)
    if da is None or db is None:
        return None
    months = (db.year - da.year) * 12 + (db.month - da.month)
    if db.day < da.day and months > 0:
        months -= 1
    elif db.day > da.day and months < 0:
        months += 1
    return months


def days_between(a: Any, b: Any) -> int | None:
    da, db = _to_date(a), _to_date(b)
    if da is None or db is None:
        return None
    return (db - da).days


def _replace(s: Any, a: str, b: str) -> str:
    return str(s if s is not None else "").replace(a, b)


_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_CMP = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
        ast.Gt: operator.gt, ast.GtE: operator.ge}


def _in(a, b):
    return a in (b or ())


def _not_in(a, b):
    return a not in (b or ())


_CMP[ast.In] = _in
_CMP[ast.NotIn] = _not_in


def functions(today: date) -> dict[str, Callable]:
    return {
        "today": lambda: today,
        "date": _to_date,
        "years_between": years_between,
        "months_between": months_between,
        "days_between": days_between,
        "to_number": to_number,
        "replace": _replace,
        "abs": abs, "min": min, "max": max, "round": round, "len": len,
        "str": str,
        "startswith": lambda s, prefix: str(s if s is not None else "").startswith(str(prefix)),
        # every(分组字段, 条件): the condition must hold on every row of the row's group (applied by
        # tools.apply_conditions); on one row it is the condition itself
        "every": lambda _group, ok: ok,
    }


_ALLOWED = (ast.Expression, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.IfExp, ast.Call, ast.Name,
            ast.Constant, ast.Load, ast.And, ast.Or, ast.Not, ast.USub, ast.UAdd, ast.List, ast.Tuple,
            *_BIN.keys(), *_CMP.keys())


def check(expr: str, names: set[str] | None = None, today: date | None = None) -> ast.Expression:
    """Parse and validate; raises ExprError naming the first disallowed construct."""
    if not isinstance(expr, str) or not expr.strip():
        raise ExprError("表达式为空")
    if len(expr) > 500:
        raise ExprError("表达式过长（最多 500 个字符）")
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"表达式无法解析：{expr}", detail=str(exc)) from None
    fnames = set(functions(today or date.today()))
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise ExprError(f"表达式中不允许使用 {type(node).__name__}：{expr}")
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in fnames or node.keywords:
                raise ExprError(f"表达式中只允许调用白名单函数（{'、'.join(sorted(fnames))}）：{expr}")
        if isinstance(node, ast.Name):
            if node.id.startswith("_"):
                raise ExprError(f"表达式中不允许的名称：{node.id}")
            if names is not None and node.id not in names and node.id not in fnames:
                raise ExprError(f"表达式引用了未知字段：{node.id}")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, str, bool, type(None))):
            raise ExprError(f"表达式中不允许的常量：{expr}")
    return tree


def every_group(expr: str) -> str | None:
    """The group field of an ``every(分组字段, 条件)`` condition, else None."""
    try:
        body = check(expr).body
    except ExprError:
        return None
    if isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and body.func.id == "every" \
            and body.args and isinstance(body.args[0], ast.Name):
        return body.args[0].id
    return None


def referenced_names(expr: str) -> set[str]:
    tree = check(expr)
    fnames = set(functions(date.today()))
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id not in fnames}


def evaluate(expr: str, env: dict[str, Any], today: date | None = None) -> Any:
    """Evaluate ``expr`` with ``env`` as variables. A ``None`` operand in arithmetic or a
    comparison yields ``None`` (missing data), never an exception."""
    today = today or date.today()
    tree = check(expr, today=today)
    funcs = functions(today)

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            if node.id in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[node.id]
            raise ExprError(f"表达式引用了未知字段：{node.id}")
        if isinstance(node, (ast.List, ast.Tuple)):
            return [ev(e) for e in node.elts]
        if isinstance(node, ast.UnaryOp):
            v = ev(node.operand)
            if isinstance(node.op, ast.Not):
                return not v
            if v is None:
                return None
            return -v if isinstance(node.op, ast.USub) else +v
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            if a is None or b is None:
                return None
            try:
                return _BIN[type(node.op)](a, b)
            except ZeroDivisionError:
                return None
            except TypeError as exc:
                raise ExprError(f"表达式类型不匹配：{expr}", detail=str(exc)) from None
        if isinstance(node, ast.BoolOp):
            vals = [ev(v) for v in node.values]
            return all(vals) if isinstance(node.op, ast.And) else any(vals)
        if isinstance(node, ast.Compare):
            left = ev(node.left)
            for op, comp in zip(node.ops, node.comparators):
                right = ev(comp)
                if (left is None or right is None) and not isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                    return None
                try:
                    if not _CMP[type(op)](left, right):
                        return False
                except TypeError:
                    return None
                left = right
            return True
        if isinstance(node, ast.IfExp):
            return ev(node.body) if ev(node.test) else ev(node.orelse)
        if isinstance(node, ast.Call):
            return funcs[node.func.id](*[ev(a) for a in node.args])
        raise ExprError(f"表达式中不允许使用 {type(node).__name__}")

    return ev(tree)
