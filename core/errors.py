"""One error tree for the whole product.

Every error a user can see derives from :class:`AppError`. ``user_message`` is safe to show
in the UI or print on the CLI (Chinese, no internals); ``detail`` is for logs only.
"""

from __future__ import annotations

from enum import Enum
from typing import Iterable


class AppError(Exception):
    """Root of every error the product raises on purpose."""

    #: CLI exit code: 1 = the command failed, 2 = bad input.
    exit_code = 1
    default_message = "操作失败"

    def __init__(self, user_message: str | None = None, *, detail: str | None = None):
        self.user_message = user_message or self.default_message
        self.detail = detail
        super().__init__(self.user_message)


class ConfigError(AppError):
    default_message = "配置有误"


class BadInputError(AppError):
    """The caller gave something we cannot use (file, value, question)."""

    exit_code = 2
    default_message = "输入有误"


class UnsupportedFileError(BadInputError):
    default_message = "不支持的文件类型"


class ValidationError(BadInputError):
    default_message = "数据校验未通过"


class NotFoundError(AppError):
    exit_code = 2
    default_message = "未找到"


class AuthError(AppError):
    exit_code = 2
    default_message = "用户名或密码错误"


class AccountLocked(AuthError):
    """Too many failed sign-ins: the message says how long to wait."""

    def __init__(self, user_message: str | None = None, *, retry_after_s: float = 0.0, detail: str | None = None):
        self.retry_after_s = retry_after_s
        super().__init__(user_message or "登录失败次数过多，请稍后再试", detail=detail)


class PermissionDenied(AppError):
    exit_code = 2
    default_message = "当前账号无权执行该操作"


class SecurityViolation(BadInputError):
    """Prompt injection, sensitive words, unsafe generated query."""

    default_message = "请求包含不允许的内容"


class StorageError(AppError):
    default_message = "存储服务出错"


class GraphStoreError(StorageError):
    default_message = "图数据库出错"


class GraphBuildBusy(GraphStoreError):
    """Another build of the same tenant's graph is running (this process or another one)."""

    default_message = "该租户的业务图谱正在由另一个任务构建，请等它完成后再试"


class OutdatedGraphLayout(GraphStoreError):
    """The tenant's graph was built by an older version with another layout: rebuild it (the
    spreadsheets it was built from are kept with it, see core.services.build.rebuild_from_sources)."""

    default_message = ("业务图谱是由旧版本按旧结构构建的，请管理员在“数据导入与建图”页按已保存的原始表格重新构建"
                       "（命令行：build-graph --rebuild），原始表格不受影响")


class ReadOnlyViolation(GraphStoreError):
    exit_code = 2
    default_message = "只读查询中不允许写操作"


class IndexError_(StorageError):
    default_message = "检索索引出错"


class LLMError(AppError):
    default_message = "大模型服务不可用"


class LLMTimeout(LLMError):
    default_message = "大模型服务超时"


class LLMBadResponse(LLMError):
    default_message = "大模型返回了无法解析的内容"


class BudgetExceeded(AppError):
    """An agent ran past one of its budgets; ``kind`` is steps | tokens | time."""

    default_message = "已超出执行预算"

    def __init__(self, kind: str, user_message: str | None = None, *, detail: str | None = None):
        self.kind = kind
        names = {"steps": "步数", "tokens": "Token", "time": "时间"}
        super().__init__(user_message or f"已超出{names.get(kind, kind)}预算，已停止执行", detail=detail)


def enum_error(field: str, value: object, valid: Iterable[object]) -> BadInputError:
    """A bad enum value, with the list of valid values in the message."""
    options = "、".join(str(v.value if isinstance(v, Enum) else v) for v in valid)
    return BadInputError(f"{field} 的取值“{value}”无效，可选值：{options}")
