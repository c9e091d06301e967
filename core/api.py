"""HTTP API for other front ends (portals, 小程序): ``python -m core.api [--host H] [--port P]
[--workers N]`` (loopback by default).

The same ``core.services`` functions the pages and the CLI call, with the same principal rules:
every request carries ``Authorization: Bearer <token>`` (issued with ``users token NAME``,
revoked with ``users revoke-tokens NAME``; see core.security.api_tokens), the token resolves
to its user as the user is *now*, and every permission, isolation, masking and audit rule is
applied inside core, exactly as for the CLI. Response bodies are the CLI contract's JSON
shapes (shared/spec/cli.md). Errors are ``{"error": {"code", "message"}}`` with a Chinese
message and never a traceback.

Threads are private: checkpoint keys carry the user, so another user's thread id names an
empty thread, which the API answers with 404. App state and checkpoints live in the workspace
SQLite or on PostgreSQL (``ZHICE_DATABASE_URL``), so several API processes serve the same
threads.

Streaming (``…/stream``): Server-Sent Events, ``event: node`` after each agent node,
``event: token`` ``{"text"}`` pieces to append to the shown answer, ``event: replace``
``{"text"}`` to discard the shown answer and show ``text`` instead, ``event: confirm`` when a KG
thread waits for a confirmation, then ``event: done`` with the full result (the same body as the
non-streaming call), or ``event: error`` with the error body. An error before the first node is
an ordinary JSON error response with its HTTP status.

With an LLM, a policy answer (``ask/docs``, docs resume) streams live while the model writes it
(in whole clauses, PII masked), between the ``retrieve``/``grade`` and the ``generate`` node
events. That text is a draft: when the citation check sends it back, ``replace`` with ``""``
starts the next draft; when the checked answer differs from what was streamed (claims dropped,
citations renumbered, a refusal), ``replace`` carries the checked answer just before ``done``.
Whatever the mode, the shown text equals ``done.answer`` in the end. With nothing live (offline
rules mode, graph answers, task reports) the answer comes as one ``token`` event before ``done``
(see core.agents.live_answer).

Rate limit: ``ZHICE_API_RATE_PER_MIN`` requests per token per fixed minute, counted in the app
database (shared by every API process); over it → 429 with ``Retry-After``.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import json
import logging
import math
import sys
from typing import Any, Callable, Literal, Union

from fastapi import Depends, FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from core.agents.live_answer import LiveAnswer
from core.errors import (AppError, AuthError, BadInputError, BudgetExceeded, LLMError, NotFoundError,
                         PermissionDenied, SecurityViolation, StorageError)
from core.security.principals import Principal

log = logging.getLogger("zhice.api")

API_TITLE = "知策 ZhiCe HTTP API"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8600
MAX_TEXT_CHARS = 20_000  # a hard cap on request text; the services give the precise limits
THREAD_ID = r"^[A-Za-z0-9_-]{1,100}$"


# ---- errors -------------------------------------------------------------------------------
class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict | None = None):
        self.status, self.code, self.message, self.headers = status, code, message, headers or {}
        super().__init__(message)


def _classify(exc: BaseException) -> tuple[int, str, str, dict]:
    """(HTTP status, code, Chinese message, headers) for any exception; never internals."""
    if isinstance(exc, ApiError):
        return exc.status, exc.code, exc.message, exc.headers
    if isinstance(exc, AppError):
        msg = exc.user_message
        for cls, status, code in ((AuthError, 401, "unauthorized"), (PermissionDenied, 403, "permission_denied"),
                                  (NotFoundError, 404, "not_found"), (SecurityViolation, 400, "refused_input"),
                                  (BadInputError, 400, "bad_input"), (BudgetExceeded, 422, "budget_exceeded"),
                                  (LLMError, 503, "llm_unavailable"), (StorageError, 503, "storage_unavailable")):
            if isinstance(exc, cls):
                headers = {"WWW-Authenticate": "Bearer"} if status == 401 else {}
                return status, code, msg, headers
        return 500, "failed", msg, {}
    return 500, "internal", "服务内部错误，请稍后再试（详情已记录在服务端日志）", {}


def error_body(code: str, message: str) -> dict:
    return {"error": {"code": code, "message": message}}


def _error_response(exc: BaseException) -> JSONResponse:
    status, code, message, headers = _classify(exc)
    if status >= 500 and not isinstance(exc, (AppError, ApiError)):
        log.error("unhandled error in API request", exc_info=exc)
    elif isinstance(exc, AppError) and exc.detail:
        log.info("API error %s: %s", code, exc.detail)
    return JSONResponse(error_body(code, message), status_code=status, headers=headers)


class ErrorDetail(BaseModel):
    code: str = Field(description="机器可读的错误代码，如 unauthorized、not_found、bad_input")
    message: str = Field(description="可展示给用户的中文说明")


class ErrorBody(BaseModel):
    error: ErrorDetail


ERRORS = {401: {"model": ErrorBody, "description": "缺少令牌，或令牌无效、过期、已吊销"},
          403: {"model": ErrorBody, "description": "当前账号无权执行"},
          422: {"model": ErrorBody, "description": "请求格式不符合接口定义"},
          429: {"model": ErrorBody, "description": "请求过于频繁"}}
NOT_FOUND = {404: {"model": ErrorBody, "description": "会话不存在（或不属于当前用户）"}}


# ---- request models -----------------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AskDocsRequest(_Strict):
    question: str = Field(min_length=1, max_length=MAX_TEXT_CHARS, description="政策问题")
    thread_id: str | None = Field(None, pattern=THREAD_ID, description="会话编号；省略则新开会话")
    scenario: Literal["window", "research"] | None = Field(None, description="场景（须已授权）；省略用账号默认场景")


class AskKgRequest(_Strict):
    question: str = Field(min_length=1, max_length=MAX_TEXT_CHARS, description="业务问题，或在等待确认的会话中的答复")
    thread_id: str | None = Field(None, pattern=THREAD_ID)
    auto_confirm: bool = Field(False, description="自动确认槽位、计划和范围（同命令行 --auto）")


class TaskRequest(_Strict):
    request: str = Field(min_length=1, max_length=MAX_TEXT_CHARS, description="任务描述（对比/汇总/跟踪/是否有效）")
    max_steps: int | None = Field(None, ge=1, le=50)
    deadline_s: float | None = Field(None, gt=0, le=600)


class PlanStep(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: int | str
    tool: str = Field(max_length=100)
    params: dict[str, Any] = Field(default_factory=dict)
    depends: list[int | str] = Field(default_factory=list)


class PlanReply(_Strict):
    plan: list[PlanStep] = Field(max_length=20, description="修改后的查询计划（与图谱问答页面发送的一致）")


class ChoiceReply(_Strict):
    choice: str = Field(min_length=1, max_length=200, description="范围选择（如“返回全部”）")


class ResumeRequest(_Strict):
    kind: Literal["kg", "docs"] = Field("kg", description="会话类型：kg 图谱问答（确认/修改计划），docs 政策问答（追问/澄清）")
    reply: Union[str, PlanReply, ChoiceReply] = Field(
        description="答复：“确认”“修改：…”等文字，或 {\"plan\": [...]} 修改后的计划，或 {\"choice\": ...} 范围选择")
    auto_confirm: bool = False


class FeedbackRequest(_Strict):
    thread_id: str = Field(pattern=THREAD_ID)
    kind: Literal["docs", "kg", "task"]
    rating: Literal[1, -1]
    reason: str | None = Field(None, max_length=2000)


# ---- auth ---------------------------------------------------------------------------------
_bearer = HTTPBearer(auto_error=False, description="API 令牌：python -m core.cli users token NAME")


def current_principal(creds: HTTPAuthorizationCredentials | None = Depends(_bearer)) -> Principal:
    """The caller: a live token of an enabled user, within the token's rate limit."""
    from core.config import get_settings
    from core.security.api_tokens import ApiTokenStore

    if creds is None or not creds.credentials:
        raise ApiError(401, "unauthorized", "缺少 API 令牌：请在 Authorization 头中携带 Bearer 令牌",
                       {"WWW-Authenticate": "Bearer"})
    store = ApiTokenStore()
    found = store.resolve(creds.credentials)
    if found is None:
        raise ApiError(401, "unauthorized", "API 令牌无效、已过期或已被吊销，请联系管理员重新签发",
                       {"WWW-Authenticate": 'Bearer error="invalid_token"'})
    principal, token_id = found
    decision = store.hit(token_id, get_settings().api_rate_per_min)
    if not decision.allowed:
        raise ApiError(429, "rate_limited", decision.message,
                       {"Retry-After": str(max(1, math.ceil(decision.retry_after_s)))})
    return principal


# ---- service calls (plain functions, run in a worker thread) -----------------------------
NodeCallback = Callable[[str, dict], None]
Work = Callable[..., dict]  # work(on_node: NodeCallback | None, live: LiveAnswer | None) -> result


def _docs_work(req: AskDocsRequest, principal: Principal) -> Work:
    from core.services.ask_docs import ask_docs

    return lambda on_node, live=None: ask_docs(req.question, principal, thread_id=req.thread_id,
                                               scenario=req.scenario, on_node=on_node, live=live)


def _kg_work(question: str | dict, principal: Principal, thread_id: str | None, auto: bool) -> Work:
    from core.services.ask_kg import ask_kg

    return lambda on_node, live=None: ask_kg(question, principal=principal, thread_id=thread_id, auto=auto,
                                             on_node=on_node)


def _task_service() -> Callable[..., dict]:
    """``core.services.task.run_task`` once the task agent has landed; 501 until then."""
    try:
        module = importlib.import_module("core.services.task")
    except ModuleNotFoundError as exc:
        if (exc.name or "").startswith("core.services.task") or exc.name in ("core.services", "core"):
            module = None
        else:
            raise
    run_task = getattr(module, "run_task", None) if module is not None else None
    if run_task is None:
        raise ApiError(501, "not_implemented", "政策任务智能体尚未在此版本中提供")
    return run_task


def _task_work(req: TaskRequest, principal: Principal) -> Work:
    run_task = _task_service()
    try:
        params = inspect.signature(run_task).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins / C callables
        params = {}
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    wanted = {"max_steps": req.max_steps, "deadline_s": req.deadline_s}

    def work(on_node, live=None):
        kwargs = {k: v for k, v in {**wanted, "on_node": on_node}.items()
                  if v is not None and (takes_any or k in params)}
        return run_task(req.request, principal, **kwargs)

    return work


def _resume_work(thread_id: str, req: ResumeRequest, principal: Principal) -> Work:
    """Check that the thread is the caller's and waits for a reply (404 otherwise), then
    continue it with the reply."""
    if req.kind == "kg":
        from core.services.ask_kg import pending_confirm

        if pending_confirm(principal, thread_id) is None:
            raise ApiError(404, "not_found", f"未找到等待确认的会话 {thread_id}（只能继续自己的会话）")
        reply = req.reply if isinstance(req.reply, str) else req.reply.model_dump(mode="json")
        return _kg_work(reply, principal, thread_id, req.auto_confirm)
    from core.services.ask_docs import ask_docs, thread_exists

    if not isinstance(req.reply, str):
        raise ApiError(400, "bad_input", "政策问答的会话只接受文字答复（追问或澄清）")
    if not thread_exists(principal, thread_id):
        raise ApiError(404, "not_found", f"未找到会话 {thread_id}（只能继续自己的会话）")
    return lambda on_node, live=None: ask_docs(req.reply, principal, thread_id=thread_id, on_node=on_node, live=live)


# ---- streaming ----------------------------------------------------------------------------
def _sse(event: str, data: Any) -> bytes:
    payload = json.dumps(data, ensure_ascii=False, default=str)
    return f"event: {event}\ndata: {payload}\n\n".encode("utf-8")


def _answer_of(result: dict) -> str:
    return str(result.get("answer") or result.get("report") or "")


async def _stream(work: Work):
    """Run ``work`` in a worker thread; SSE events as its nodes finish (see module doc)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()

    def put(item: tuple) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, item)

    def on_node(node: str, summary: dict) -> None:
        put(("node", {"node": node, "detail": {k: v for k, v in (summary or {}).items() if k != "node"}}))

    live = LiveAnswer(lambda event, data: put((event, data)))

    def run() -> None:
        try:
            put(("result", work(on_node, live)))
        except BaseException as exc:  # noqa: BLE001 - reported to the client as an error event
            put(("error", exc))

    loop.run_in_executor(None, run)
    first = await queue.get()
    if first[0] == "error":
        return _error_response(first[1])

    async def events():
        item = first
        while True:
            kind, data = item
            if kind in ("node", "token", "replace"):
                yield _sse(kind, data)
            elif kind == "error":
                status, code, message, _h = _classify(data)
                if status >= 500 and not isinstance(data, (AppError, ApiError)):
                    log.error("unhandled error in API stream", exc_info=data)
                yield _sse("error", {**error_body(code, message), "status": status})
                return
            else:
                if data.get("need_confirm"):
                    yield _sse("confirm", {**data["need_confirm"], "thread": data.get("thread")})
                for event, text in live.settle(_answer_of(data)):
                    yield _sse(event, text)
                yield _sse("done", data)
                return
            item = await queue.get()

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


# ---- the app ------------------------------------------------------------------------------
def _add_error_handlers(app: FastAPI) -> None:
    """Every error as ``{"error": {"code", "message"}}`` with a Chinese message, never a traceback."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError):
        return _error_response(exc)

    @app.exception_handler(AppError)
    async def _app_error(_request: Request, exc: AppError):
        return _error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError):
        problems = []
        for err in exc.errors()[:5]:
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "请求体"
            problems.append(f"{where}（{err.get('type', 'invalid')}）")
        return JSONResponse(error_body("invalid_request", "请求格式不符合接口定义：" + "；".join(problems)),
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException):
        messages = {404: ("not_found", "接口不存在"), 405: ("method_not_allowed", "不支持该请求方法")}
        code, message = messages.get(exc.status_code, ("http_error", "请求无法处理"))
        return JSONResponse(error_body(code, message), status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception):
        return _error_response(exc)


def _add_health_route(app: FastAPI) -> None:
    @app.get("/v1/health", tags=["system"], summary="存活检查（无需令牌）")
    def health() -> dict:
        from core.storage.db import get_db

        try:
            get_db().one("SELECT 1 AS ok")
        except AppError:
            return JSONResponse({"status": "degraded", "db": False}, status_code=503)
        return {"status": "ok", "db": True}


def _add_ask_routes(app: FastAPI, me: Any) -> None:
    """Policy Q&A, KG Q&A and the task agent, each as one call and as an SSE stream."""

    @app.post("/v1/ask/docs", tags=["ask"], summary="政策问答", responses=ERRORS)
    def ask_docs_(req: AskDocsRequest, principal: Principal = me) -> dict:
        return _docs_work(req, principal)(None)

    @app.post("/v1/ask/docs/stream", tags=["stream"], summary="政策问答（SSE 流）", responses=ERRORS)
    async def ask_docs_stream(req: AskDocsRequest, principal: Principal = me):
        return await _stream(_docs_work(req, principal))

    @app.post("/v1/ask/kg", tags=["ask"], summary="业务图谱问答", responses=ERRORS)
    def ask_kg_(req: AskKgRequest, principal: Principal = me) -> dict:
        return _kg_work(req.question, principal, req.thread_id, req.auto_confirm)(None)

    @app.post("/v1/ask/kg/stream", tags=["stream"], summary="业务图谱问答（SSE 流）", responses=ERRORS)
    async def ask_kg_stream(req: AskKgRequest, principal: Principal = me):
        return await _stream(_kg_work(req.question, principal, req.thread_id, req.auto_confirm))

    task_errors = {**ERRORS, 501: {"model": ErrorBody, "description": "任务智能体尚未提供"}}

    @app.post("/v1/task", tags=["ask"], summary="政策任务智能体", responses=task_errors)
    def task_(req: TaskRequest, principal: Principal = me) -> dict:
        return _task_work(req, principal)(None)

    @app.post("/v1/task/stream", tags=["stream"], summary="政策任务智能体（SSE 流）", responses=task_errors)
    async def task_stream(req: TaskRequest, principal: Principal = me):
        work = await asyncio.get_running_loop().run_in_executor(None, _task_work, req, principal)
        return await _stream(work)


def _add_thread_routes(app: FastAPI, me: Any) -> None:
    """Continuing, reading and rating one of the caller's own threads."""
    thread_path = Path(pattern=THREAD_ID, description="会话编号")

    @app.post("/v1/threads/{thread_id}/resume", tags=["threads"], summary="继续会话（确认、修改计划、追问）",
              responses={**ERRORS, **NOT_FOUND})
    def resume(req: ResumeRequest, thread_id: str = thread_path, principal: Principal = me) -> dict:
        return _resume_work(thread_id, req, principal)(None)

    @app.post("/v1/threads/{thread_id}/resume/stream", tags=["stream"], summary="继续会话（SSE 流）",
              responses={**ERRORS, **NOT_FOUND})
    async def resume_stream(req: ResumeRequest, thread_id: str = thread_path, principal: Principal = me):
        work = await asyncio.get_running_loop().run_in_executor(None, _resume_work, thread_id, req, principal)
        return await _stream(work)

    @app.get("/v1/threads/{thread_id}/history", tags=["threads"], summary="会话记录",
             responses={**ERRORS, **NOT_FOUND})
    def history(thread_id: str = thread_path, kind: Literal["docs", "kg"] = Query(description="会话类型"),
                principal: Principal = me) -> dict:
        if kind == "kg":
            from core.services.ask_kg import pending_confirm, thread_history

            turns, waiting = thread_history(principal, thread_id), pending_confirm(principal, thread_id)
            exists = bool(turns) or waiting is not None
        else:
            from core.services.ask_docs import thread_exists, thread_history

            turns, waiting = thread_history(principal, thread_id), None
            exists = bool(turns) or thread_exists(principal, thread_id)
        if not exists:
            raise ApiError(404, "not_found", f"未找到会话 {thread_id}（只能查看自己的会话）")
        return {"thread_id": thread_id, "kind": kind, "turns": turns, "need_confirm": waiting}

    @app.post("/v1/feedback", tags=["threads"], summary="对自己会话的最后一个回答打分（👍/👎）",
              responses={**ERRORS, **NOT_FOUND})
    def feedback(req: FeedbackRequest, principal: Principal = me) -> dict:
        from core.services.review import feedback_on_thread

        return feedback_on_thread(principal, req.kind, req.thread_id, req.rating, req.reason)


def create_app() -> FastAPI:
    app = FastAPI(title=API_TITLE, version="1.0.0",
                  description="政策问答、业务图谱问答与政策任务的 HTTP 接口。返回体与命令行契约（spec/cli.md）一致；"
                              "每个请求须携带 Bearer 令牌（python -m core.cli users token NAME）。")
    _add_error_handlers(app)
    me = Depends(current_principal)
    _add_health_route(app)
    _add_ask_routes(app, me)
    _add_thread_routes(app, me)
    return app


app = create_app()


# ---- python -m core.api -------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m core.api", description="知策 ZhiCe HTTP API（FastAPI + uvicorn）")
    p.add_argument("--host", default=DEFAULT_HOST, help=f"监听地址（默认 {DEFAULT_HOST}，仅本机）")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"端口（默认 {DEFAULT_PORT}）")
    p.add_argument("--workers", type=int, default=1, help="工作进程数（默认 1）")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    return p


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    args = build_parser().parse_args(argv)
    if args.workers < 1:
        print("错误：--workers 至少为 1", file=sys.stderr)
        return 2
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"[ZhiCe] 注意：API 监听 {args.host}，请在前面用反向代理终止 TLS，勿以明文暴露令牌", file=sys.stderr)
    uvicorn.run("core.api:app", host=args.host, port=args.port, workers=args.workers, log_level=args.log_level,
                proxy_headers=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
