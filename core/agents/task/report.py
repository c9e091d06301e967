"""The task report: sections (comparison tables, timelines, lists, checklists) built from the
tool results, every cell / item carrying its ``[n]`` — or "未规定" when the document does not
regulate it — and the citation list in the shape ``ask-docs`` uses, so the same citation cards
and PDF highlights render it. Also the Markdown and Excel exports (cells through
core.security.export.safe_row)."""

from __future__ import annotations

import io
import re

from core.agents.task.plan_text import humanize, step_text
from core.agents.task.state import FUSE_LABELS
from core.documents.relations import relation_label

NOT_REGULATED = "未规定"
KIND_TITLES = {"compare": "对比表", "track": "时间线", "validity": "有效性核查", "checklist": "条件清单",
               "summary": "汇总"}


class Citer:
    """Numbers cited chunks in order of first citation; one citation per chunk, its quote the
    cited sentences joined."""

    def __init__(self, evidence: dict[str, dict]):
        self.evidence = evidence
        self.order: list[str] = []
        self.quotes: dict[str, list[str]] = {}

    def cite(self, chunk_id: str | None, quote: str = "") -> str:
        if not chunk_id or chunk_id not in self.evidence:
            return ""
        if chunk_id not in self.order:
            self.order.append(chunk_id)
        q = (quote or "").strip().rstrip("…")
        if q and q not in self.quotes.setdefault(chunk_id, []):
            self.quotes[chunk_id].append(q)
        return f"[{self.order.index(chunk_id) + 1}]"

    def citations(self) -> list[dict]:
        out = []
        for n, cid in enumerate(self.order, 1):
            d = self.evidence[cid]
            spans = d.get("spans") or []
            first = next((s for s in spans if s.get("bbox")), spans[0] if spans else None)
            out.append({"n": n, "chunk_id": cid, "doc_id": d.get("doc_id"), "file_name": d.get("file_name"),
                        "doc_number": d.get("doc_number") or "", "page": (first or {}).get("page") or d.get("page"),
                        "bbox": (first or {}).get("bbox"), "quote": "".join(self.quotes.get(cid) or []),
                        "title": d.get("title") or "", "authority": d.get("authority") or "", "date": d.get("date") or "",
                        "status": d.get("status") or "", "heading": d.get("heading") or "", "spans": spans,
                        "page_end": d.get("page_end"), "source_type": d.get("source_type") or "",
                        "para": (first or {}).get("para")})
        return out


def _doc_label(card: dict) -> str:
    num = f"（{card['doc_number']}）" if card.get("doc_number") else ""
    return f"《{card.get('title') or card.get('file_name')}》{num}"


def _clauses_cell(clauses: list[dict], citer: Citer) -> str:
    if not clauses:
        return NOT_REGULATED
    return "；".join(f"{c['text'].rstrip('。；;')}{citer.cite(c['chunk_id'], c['text'])}" for c in clauses)


def _compare_section(out: dict, citer: Citer, title: str) -> dict:
    dims = out["dimensions"]
    rows = []
    for card in out["documents"]:
        cells = out["cells"].get(card["doc_id"]) or {}
        rows.append([_doc_label(card), *[_clauses_cell(cells.get(d) or [], citer) for d in dims]])
    return {"kind": "table", "title": title, "columns": ["文件", *dims], "rows": rows}


def _timeline_section(out: dict, citer: Citer) -> dict:
    rows = []
    for e in out["events"]:
        rows.append([e["date"] or "日期不详", _doc_label(e), e["event"] + citer.cite(e.get("chunk_id"), e.get("text") or "")])
    return {"kind": "timeline", "title": f"时间线：{out['policy_name']}", "columns": ["日期", "文件", "事件"], "rows": rows}


def _summary_section(out: dict, citer: Citer) -> dict:
    fmt = out["format"]
    rows = []
    for item in out["items"]:
        status = item.get("status_label") or ""
        if not item["points"]:
            rows.append([_doc_label(item), "—", NOT_REGULATED, status])
        for p in item["points"]:
            rows.append([_doc_label(item), p["label"], f"{p['text']}{citer.cite(p.get('chunk_id'), p.get('quote') or p['text'])}",
                         status])
    kind = "checklist" if fmt == "checklist" else "list"
    titles = {"validity": "有效期与状态", "checklist": "申报条件与材料清单", "brief": "要点摘要"}
    return {"kind": kind, "title": titles.get(fmt, "汇总"), "columns": ["文件", "项目", "内容", "状态"], "rows": rows}


def _detail_section(out: dict, citer: Citer, titles: dict[str, str]) -> dict:
    doc = out["document"]
    rows = [["文号", doc.get("doc_number") or "无"], ["发文机关", doc.get("authority") or "不详"],
            ["状态", doc.get("status_label") or ""]]
    for d in out.get("dates") or []:
        rows.append([d["label"], d["date"] + citer.cite(d.get("chunk_id"), d.get("text") or "")])
    for r in out.get("relations") or []:
        kind = relation_label(r["kind"])
        if r["from_doc"] == doc["doc_id"]:
            rows.append(["关系", f"本文件{kind}《{titles.get(r.get('to_doc') or '', r.get('target') or '')}》"])
        else:
            rows.append(["关系", f"已被《{titles.get(r['from_doc'], r['from_doc'])}》{kind}"])
    return {"kind": "list", "title": f"文件信息：{_doc_label(doc)}", "columns": ["项目", "内容"], "rows": rows}


def _found_section(documents: dict, results: list[dict], citer: Citer) -> dict:
    """What was collected when no later step could run: the documents found, each with its
    best passage."""
    best: dict[str, str] = {}
    for r in results:
        for e in ((r.get("output") or {}).get("evidence") or []):
            best.setdefault(e["doc_id"], e["chunk_id"])
    rows = []
    for doc_id, card in documents.items():
        cid = best.get(doc_id)
        quote = ""
        if cid and cid in citer.evidence:
            quote = re.sub(r"\s+", "", (citer.evidence[cid].get("body") or ""))[:80]
        rows.append([_doc_label(card), card.get("date") or "", card.get("status_label") or "", citer.cite(cid, quote) or ""])
    return {"kind": "list", "title": "已收集的文件", "columns": ["文件", "日期", "状态", "出处"], "rows": rows}


def build_report(state: dict, prose: str = "") -> dict:
    """{"report", "sections", "citations", "missing", "evidence"} of the run so far; ``prose``
    (the LLM's checked 综述, core.agents.task.prose) goes before the tables."""
    results = state.get("results") or []
    plan = state.get("plan") or []
    parsed = state.get("parsed") or {}
    evidence: dict[str, dict] = {}
    titles: dict[str, str] = {}
    for r in results:
        out = r.get("output") or {}
        for e in out.get("evidence") or []:
            evidence.setdefault(e["chunk_id"], e)
    for doc_id, card in (state.get("documents") or {}).items():
        titles[doc_id] = card.get("title") or doc_id
    citer = Citer(evidence)
    sections = []
    kind = parsed.get("kind") or "summary"
    for r in results:
        if not r.get("ok"):
            continue
        out = r.get("output") or {}
        if r["tool"] == "compare_documents":
            title = KIND_TITLES.get(kind, "对比表") + "：" + "、".join(out["dimensions"])
            sections.append(_compare_section(out, citer, title))
        elif r["tool"] == "track_changes" and out.get("events"):
            sections.append(_timeline_section(out, citer))
        elif r["tool"] == "generate_summary":
            sections.append(_summary_section(out, citer))
        elif r["tool"] == "get_document_detail":
            sections.append(_detail_section(out, citer, titles))
    if not sections and state.get("documents"):
        sections.append(_found_section(state["documents"], results, citer))
    missing = []
    done = {r["step"] for r in results}
    for i, s in enumerate(plan, 1):
        failed = next((r for r in results if r["step"] == i and not r.get("ok")), None)
        if failed is not None:
            missing.append(f"第 {i} 步 {step_text(s)} 未成功：{humanize(failed.get('error') or '')}")
        elif i not in done:
            missing.append(f"第 {i} 步 {step_text(s)} 未执行")
    lines = [f"## 任务报告：{state.get('request') or ''}"]
    if parsed:
        meta = [f"类型：{parsed.get('label')}"]
        if parsed.get("dimensions"):
            meta.append("维度：" + "、".join(parsed["dimensions"]))
        lines.append("；".join(meta))
    stopped = state.get("stopped_by")
    if stopped:
        lines.append(f"\n> ⚠️ 任务因{FUSE_LABELS.get(stopped, stopped)}熔断而停止（已执行 {len(results)}/{len(plan)} 步，"
                     f"上限：步数 {state.get('max_steps')}、Token {state.get('max_tokens')}、"
                     f"时间 {state.get('deadline_s'):g} 秒）。以下为已收集到的部分结果。")
    elif state.get("cancelled"):
        lines.append("\n> 任务已取消，未执行计划。")
    if prose:
        lines.append("\n### 综述\n\n" + prose)
    for sec in sections:
        lines.append(f"\n### {sec['title']}\n")
        lines.append(markdown_table(sec["columns"], sec["rows"]))
    if not sections:
        lines.append("\n未检索到可用的相关文件，无法完成该任务。" if not stopped else "\n尚未收集到任何结果。")
    if state.get("documents"):
        lines.append("\n**已收集的文件**：" + "；".join(_doc_label(c) for c in state["documents"].values()))
    issues = [f"第 {c['step']} 步：{humanize(i)}" for c in state.get("checks") or [] for i in c.get("issues") or []
              if (c.get("step") or 0) not in {r["step"] for r in results if not r.get("ok")}]
    if issues:
        lines.append("\n**核查提示**：\n" + "\n".join(f"- {i}" for i in issues))
    if missing:
        lines.append("\n**尚缺**：\n" + "\n".join(f"- {m}" for m in missing))
    return {"report": "\n".join(lines).strip(), "sections": sections, "citations": citer.citations(), "missing": missing,
            "evidence": evidence}


def _md_cell(text) -> str:
    return str(text if text is not None else "").replace("|", "｜").replace("\n", " ")


def markdown_table(columns: list[str], rows: list[list]) -> str:
    head = "| " + " | ".join(_md_cell(c) for c in columns) + " |"
    sep = "|" + "|".join("---" for _ in columns) + "|"
    body = ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows]
    return "\n".join([head, sep, *body])


# ---- exports ---------------------------------------------------------------------------------
def to_markdown(result: dict) -> str:
    """The report with its numbered sources, as a Markdown document."""
    lines = [result.get("report") or "", "\n### 出处\n"]
    for c in result.get("citations") or []:
        where = "，".join(x for x in (c.get("doc_number"), f"第{c['page']}页" if c.get("page") else "", c.get("heading")) if x)
        lines.append(f"[{c['n']}] 《{c.get('title') or c.get('file_name')}》（{where}）：{c.get('quote') or ''}")
    return "\n".join(lines).strip() + "\n"


def to_excel(result: dict) -> bytes:
    """One sheet per section plus 出处; every cell through safe_row (no formula injection)."""
    from openpyxl import Workbook

    from core.security.export import safe_row

    wb = Workbook()
    wb.remove(wb.active)
    used: set[str] = set()
    for i, sec in enumerate(result.get("sections") or [], 1):
        name = re.sub(r"[\\/*?:\[\]：]", "", sec.get("title") or f"结果{i}")[:28] or f"结果{i}"
        while name in used:
            name = f"{name[:25]}_{i}"
        used.add(name)
        ws = wb.create_sheet(name)
        ws.append(safe_row(sec["columns"]))
        for row in sec["rows"]:
            ws.append(safe_row(row))
    ws = wb.create_sheet("出处")
    ws.append(safe_row(["编号", "文件", "文号", "页码", "章节", "原文摘录"]))
    for c in result.get("citations") or []:
        ws.append(safe_row([c["n"], c.get("title") or c.get("file_name"), c.get("doc_number"), c.get("page"),
                            c.get("heading"), c.get("quote")]))
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()
