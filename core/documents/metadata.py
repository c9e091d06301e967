"""Document metadata: 文号, title, issuing authorities, dates, level, repeals, status hints.

Works on the normalised blocks of a :class:`ParsedDocument` (红头 at the top, 落款 and 版记 at the
end). A document missing 文号, issuing authority or date gets ``review_state = "pending"``
(待审核) so the index keeps it out of retrieval until a person checks it.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Optional

from core.documents.doc_numbers import RE_DOC_NUMBER, find_doc_numbers
from core.documents.models import DocMeta, ParsedDocument
from core.documents.normalize import normalize_text
from core.documents.relations import extract_relations
from core.text.numerals import CN_NUMERAL_CHARS, cn_digits_to_int, cn_to_int

# ------------------------------------------------------------------ agencies

AGENCY_SUFFIX = (
    "人民政府办公厅|人民政府办公室|人民代表大会常务委员会|人民政府|办公厅|办公室|委员会|监督管理局|管理局|总局|"
    "商务局|财政局|商务厅|财政厅|局|厅|部|署|委|院|银行|协会|联合会|中心|集团|公司|军委"
)
RE_AGENCY_LINE = re.compile(f"^[\u4e00-\u9fff（）()]{{2,30}}?(?:{AGENCY_SUFFIX})$")
RE_AGENCY_IN_TEXT = re.compile(
    f"((?:[\u4e00-\u9fff]{{2,8}}?(?:省|市|自治区|区|县|州|盟|旗))?[\u4e00-\u9fff]{{1,14}}?"
    f"(?:人民政府办公厅|人民政府办公室|人民政府|办公厅|委员会|监督管理局|管理局|总局|局|厅|部|委))"
)
_AGENCY_BAD = re.compile(r"(各|有关|相关|部门|单位|以下|本|该|其|我|你|消费|补贴|活动|工作|结果|格局|布局|当局|大局|全局|"
                         r"格式|开局|结局|平台机构|第三方机构|参与|企业|服务|个人)")
_NATIONAL = re.compile(r"^(国务院|国家|中华人民共和国|全国|中共中央|中央|最高人民|财政部|商务部|教育部|科技部|工业和信息化部|公安部|"
                       r"民政部|司法部|人力资源和社会保障部|自然资源部|生态环境部|住房和城乡建设部|交通运输部|水利部|农业农村部|"
                       r"文化和旅游部|国家卫生健康委|应急管理部|审计署|海关总署|税务总局|市场监管总局|发展改革委|"
                       r"中国人民银行|国资委|证监会|银保监会|金融监管总局)")


def is_agency_name(line: str) -> bool:
    t = re.sub(r"\s+", "", line)
    if not RE_AGENCY_LINE.match(t) or len(t) < 3:
        return False
    if re.search(r"关于|转发|印发|发布|的|在|对|为|和改革委员会以外", t.replace("发展和改革委员会", "")):
        return False
    return not _AGENCY_BAD.search(t.replace("市场监督管理局", "").replace("发展和改革委员会", ""))


def level_of(authority: str) -> str:
    """国家 / 省 / 市 / 区县 from an issuing authority's name."""
    a = authority.replace("市场监督管理", "").replace("市场监管", "").replace("城市", "")
    if not a:
        return ""
    if _NATIONAL.match(a) or not re.search(r"省|自治区|市|区|县|州|旗|盟", a):
        return "国家"
    if re.search(r"[\u4e00-\u9fff]{1,8}?(区|县|旗)(人民政府|政府|委员会|[\u4e00-\u9fff]{0,12}(局|委|办))", a) and "自治区" not in a:
        return "区县"
    if re.search(r"市", a):
        return "市"
    if re.search(r"省|自治区", a):
        return "省"
    return ""


# ------------------------------------------------------------------ dates

RE_DATE = re.compile(r"((?:19|20)\d{2})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日")
RE_DATE_ISO = re.compile(r"((?:19|20)\d{2})[-/.](\d{1,2})[-/.](\d{1,2})")
RE_DATE_CN = re.compile(r"([〇零○一二三四五六七八九]{4})年([一二三四五六七八九十]{1,3})月([一二三四五六七八九十]{1,3})日")


def _iso(y: int, m: int, d: int) -> str:
    try:
        return _dt.date(y, m, d).isoformat()
    except ValueError:
        return ""


def parse_date(text: str) -> str:
    """First date in ``text`` as YYYY-MM-DD ('' if none). Accepts 2025年1月20日, 2025-01-21,
    二〇二五年一月二十日."""
    t = re.sub(r"\s+", "", text)
    m = RE_DATE.search(t)
    if m:
        return _iso(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = RE_DATE_CN.search(t)
    if m:
        month, day = cn_to_int(m.group(2)), cn_to_int(m.group(3))
        return _iso(cn_digits_to_int(m.group(1)), month, day) if month and day else ""
    m = RE_DATE_ISO.search(t)
    if m:
        return _iso(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    return ""


def _is_date_line(line: str) -> bool:
    t = re.sub(r"\s+", "", line)
    return bool(re.fullmatch(r"((?:19|20)\d{2}年\d{1,2}月\d{1,2}日|[〇零○一二三四五六七八九]{4}年[一二三四五六七八九十]{1,3}月[一二三四五六七八九十]{1,3}日)", t))


# ------------------------------------------------------------------ titles

DOC_TYPES = ("通知|公告|通告|意见|办法|细则|方案|决定|规定|报告|批复|函|条例|规划|通报|纪要|指引|指南|措施|规则|"
             "决议|命令|公报|解释|章程|答复|请示")
RE_TITLE_END = re.compile(f"({DOC_TYPES})(（[^）]{{1,12}}）)?$")
RE_YINFA = re.compile(r"关于(?:印发|转发|发布|公布)《(.+?)》的(?:通知|公告|决定)")


def _lines(doc: ParsedDocument, kinds=("text", "ocr")) -> list[str]:
    out = []
    for b in doc.blocks:
        if b.kind in kinds:
            out.extend(ln.strip() for ln in b.text.split("\n") if ln.strip())
    return out


def _clean_title(t: str) -> str:
    t = re.sub(r"\s+", "", t)
    return t.strip("“”\"'：:，,。")


def extract_title(doc: ParsedDocument, lines: Optional[list[str]] = None) -> str:
    lines = lines if lines is not None else _lines(doc)
    head = lines[:40]
    joined = "".join(head)
    m = RE_YINFA.search(joined[:1500])
    if m and len(m.group(1)) <= 80:
        return _clean_title(m.group(1))
    title_parts: list[str] = []
    prev_agency = ""
    for line in head[:25]:
        t = re.sub(r"\s+", "", line)
        if not title_parts:
            if t in ("文件", "文 件") or t.endswith("文件") and is_agency_name(t[:-2]):
                prev_agency = ""
                continue
            if is_agency_name(t):
                prev_agency = t
                continue
            if RE_DOC_NUMBER.fullmatch(t) or find_doc_numbers(t) and len(t) <= 24:
                prev_agency = ""
                continue
            if _is_date_line(t) or len(t) < 4:
                continue
            if re.match(r"^(各|附件|抄送|主送)", t):
                break
        else:
            if re.match(r"^(各|附件|抄送|主送|一、|（一）|第一)", t) or len(t) > 40:
                break
        title_parts.append(t)
        if RE_TITLE_END.search(t) or len(title_parts) >= 4:
            break
    if title_parts:
        title = "".join(title_parts)
        if not RE_TITLE_END.search(title):
            title = title_parts[0]
        if prev_agency and re.match(r"^((19|20)\d{2}年|关于)", title):
            title = prev_agency + title
        return _clean_title(title)
    return ""


def _title_from_filename(name: str) -> str:
    stem = re.sub(r"\.[A-Za-z0-9]+$", "", name)
    stem = re.sub(r"[（(]\d+[)）]$", "", stem).strip()
    m = RE_YINFA.search(stem)
    return m.group(1) if m else stem


# ------------------------------------------------------------------ main entry

_EFFECTIVE_ON_ISSUE = re.compile(r"自(?:印发|发布|公布|签发)之日起(?:施行|实施|执行|生效)")
_EFFECTIVE_DATE = re.compile(r"自\s*((?:19|20)\d{2}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日)\s*起(?:施行|实施|执行|生效)")
_EXPIRY = re.compile(r"有效期(?:至|到|截至)\s*((?:19|20)\d{2}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日)")
# the end of a campaign's own period ("活动时间：自2025年5月1日至2025年6月30日", "消费券发放时间2025年7月19日至
# 2025年11月15日", "补贴申报时间：2025年5月12日10时至2025年7月15日24时"): a date range right after a
# campaign cue; a statistics period ("统计期限自2023年1月1日起至…") is not one
_CAMPAIGN_RANGE = re.compile(
    r"(?:活动时间|活动期间|活动期限|购车时间|发放时间|申报时间|申领时间|修改时间|使用时间|使用期限|领取时间|兑付时间|"
    r"核销时间|报名时间)[^。；]{0,12}?((?:19|20)\d{2})年\d{1,2}月\d{1,2}日(?:\d{1,2}[时点])?(?:起)?(?:至|到|—|-|~)"
    r"(?:((?:19|20)\d{2})年)?(\d{1,2})月(\d{1,2})日")


def campaign_end(compact_text: str) -> str:
    """The last day of the periods a campaign notice gives for itself (活动/发放/申报/修改时间),
    as YYYY-MM-DD, or "" when the text gives none."""
    ends = []
    for m in _CAMPAIGN_RANGE.finditer(compact_text or ""):
        year = int(m.group(2) or m.group(1))
        end = _iso(year, int(m.group(3)), int(m.group(4)))
        if end:
            ends.append(end)
    return max(ends) if ends else ""


def today() -> _dt.date:
    """Today, or the day the ``today`` setting (``ZHICE_TODAY``, YYYY-MM-DD) names — validity
    (已到期 / 即将施行) is judged on it (tests, demos of past campaigns)."""
    from core.config import get_settings

    return get_settings().today_date()


_EXPIRY_YEARS = re.compile(r"有效期(?:为)?\s*([一二三四五12345])\s*年")
_PUBLISH = re.compile(r"(?:发布日期|发布时间|发文日期)[：:]\s*(\S{8,12})")
_INTERPRET = re.compile(
    r"(?:解释权[：:]?\s*归|由)\s*([\u4e00-\u9fff]{2,20}?(?:局|厅|委员会|政府|办公室|部))\s*(?:所有|负责解释)"
    r"|([\u4e00-\u9fff]{2,20}?(?:局|厅|委员会|政府|办公室|部))(?:对本活动)?保留(?:最终)?解释权"
)
_N_DEPTS = re.compile(r"([\u4e00-\u9fff]{2,20}?(?:厅|局|部|委|委员会|政府))等\s*(\d+|[二三四五六七八九十]+)\s*(?:个)?部门")
_ADOPTED = re.compile(r"((?:19|20)\d{2}年\d{1,2}月\d{1,2}日)\s*(?:第[^\n]{1,8}届)?((?:[\u4e00-\u9fff]{2,12})?人民代表大会(?:常务委员会)?)"
                      r"第[^\n]{1,8}次会议(?:审议)?通过")


def extract_metadata(doc: ParsedDocument, *, today_: _dt.date | None = None) -> DocMeta:
    """文号, title, issuing authorities and level, dates, repeals and other relations, status of
    one parsed document; ``review_state`` is "pending" when 文号, authority or date is missing."""
    lines = _lines(doc)
    meta = DocMeta(doc_id=doc.doc_id, file_name=doc.file_name, pages=doc.pages, source_type=doc.source_type)
    full_text = "\n".join(lines)
    meta.doc_number = _doc_number(lines[:30])
    title, meta.title = _titles(doc, lines)
    meta.authorities, sign_date = _authorities(lines, title, meta.title, full_text)
    meta.level = level_of(meta.authorities[0]) if meta.authorities else ""
    _set_dates(meta, lines, full_text, sign_date)
    # repeals, and the other relations (代替 / 修订 / 补充 / 延期)
    meta.repeals = extract_repeals(full_text)
    meta.relations = extract_relations(full_text, meta.title)
    _set_status(meta, "".join(lines[:15]), doc.file_name, today_)
    meta.review_state = "approved" if (meta.doc_number and meta.authorities and
                                       (meta.sign_date or meta.publish_date)) else "pending"
    return meta


def _doc_number(head_lines: list[str]) -> str:
    """A standalone 文号 line in the 红头 wins; else the first 文号 in the head that is not a
    citation inside （…） or 《…》."""
    for ln in head_lines:
        t = re.sub(r"\s+", "", ln)
        if len(t) <= 30:
            nums = find_doc_numbers(t)
            if nums and len(t) - len(nums[0]) <= 4:
                return nums[0]
    head = re.sub(r"\s+", "", "".join(head_lines[:12]))
    for m in RE_DOC_NUMBER.finditer(head):
        before = head[: m.start()]
        if before.count("（") > before.count("）") or before.count("(") > before.count(")"):
            continue
        if before.count("《") > before.count("》"):
            continue
        return find_doc_numbers(m.group(0))[0]
    return ""


def _titles(doc: ParsedDocument, lines: list[str]) -> tuple[str, str]:
    """(the title the text gives, "" when none; the title to record: that one, else the file
    name's). A title line OCR cut short (a screenshot) is taken whole from the file name."""
    title = extract_title(doc, lines)
    from_name = _title_from_filename(doc.file_name)
    if title and from_name != title and len(from_name) > len(title) and from_name[:6] == title[:6] \
            and title[-4:] == from_name[-4:]:
        title = from_name
    return title, title or from_name


def _authorities(lines: list[str], title: str, recorded_title: str, full_text: str) -> tuple[list[str], str]:
    """(issuing authorities, 落款 date): the 落款's names first, then those of the 红头 and the
    title (:func:`_head_agencies`), the agency holding the 解释权; for a law, the congress that
    adopted it when no other is found, and its adoption date when the 落款 gives none."""
    authorities, sign_date = _signature(lines)
    for name in _head_agencies(lines[:12], title, recorded_title):
        _add_agency(authorities, name)
    for m in _INTERPRET.finditer(full_text):
        name = m.group(1) or m.group(2)
        if name and is_agency_name(name) and not name.startswith(("市", "省", "区", "县")):
            _add_agency(authorities, name)
    # laws: "2020年5月28日第十三届全国人民代表大会第三次会议通过" / "2021年1月1日施行"
    adopted = _ADOPTED.search("\n".join(lines[:12]))
    if adopted:
        _add_agency(authorities, adopted.group(2)) if not authorities else None
        sign_date = sign_date or parse_date(adopted.group(1))
    return authorities, sign_date


def _signature(lines: list[str]) -> tuple[list[str], str]:
    """The 落款: the agency names right above the first date line (or 此件公开发布 note) that has
    any — the document's own — and that line's date."""
    authorities: list[str] = []
    for i, ln in enumerate(lines):
        is_date = _is_date_line(ln)
        if is_date or re.fullmatch(r"[（(]此件(?:公开发布|依申请公开|不予公开)[)）]", re.sub(r"\s+", "", ln)):
            names = []
            j = i - 1
            while j >= 0 and i - j <= 12 and (is_agency_name(lines[j]) or _is_seal_noise(lines[j])):
                if is_agency_name(lines[j]):
                    names.insert(0, re.sub(r"\s+", "", lines[j]))
                j -= 1
            if names:
                for name in names:
                    _add_agency(authorities, name)
                return authorities, parse_date(ln) if is_date else ""
    return authorities, ""


def _head_agencies(head_lines: list[str], title: str, recorded_title: str):
    """Agency names of the 红头 (the issuer lines above the 文号 / title), the "X等N部门" of the
    title and the head, the issuers a title starts with ("A、B关于…", "X局2025年…")."""
    for ln in head_lines:
        t = re.sub(r"\s+", "", ln)
        if t.endswith("文件") and len(t) > 4:
            t = t[:-2]
        if is_agency_name(t):
            yield t
        elif find_doc_numbers(t) or RE_YINFA.search(t) or RE_TITLE_END.search(t):
            break
    head_region = []
    for ln in head_lines:
        if ln.rstrip().endswith(("：", ":")):
            break  # the salutation ("各市商务主管部门…：") ends the 红头
        head_region.append(ln)
    for ln in [recorded_title, *head_region]:
        ln = re.sub(r"《[^》]*》", "", re.sub(r"\s+", "", ln))
        for m in _N_DEPTS.finditer(ln):
            name = re.split(r"通知公告|通知|公告|首页|关于|印发|号", m.group(1))[-1]
            if is_agency_name(name):
                yield name
    m = re.match(r"^(.{2,40}?)(?:关于|转发|印发)", title or "")
    if m:
        yield from (name for name in re.split(r"[、，,]", m.group(1)) if is_agency_name(name))
    m = re.match(r"^(.+?(?:人民政府办公厅|人民政府办公室|人民政府|局|厅|委员会))(?:19|20)\d{2}年", recorded_title)
    if m and is_agency_name(m.group(1)):
        yield m.group(1)


def _set_dates(meta: DocMeta, lines: list[str], full_text: str, sign_date: str) -> None:
    """成文 (the 落款's, else the last date line near the end), 发布, 施行 and 到期 dates."""
    if not sign_date:
        sign_date = next((parse_date(ln) for ln in lines[::-1][:30] if _is_date_line(ln)), "")
    meta.sign_date = sign_date
    meta.publish_date = _publish_date(lines, full_text)
    compact_text = re.sub(r"\s+", "", full_text)
    meta.effective_date = _effective_date(compact_text, lines, meta.sign_date or meta.publish_date)
    meta.expiry_date = _expiry_date(compact_text, meta.effective_date or meta.sign_date)


def _publish_date(lines: list[str], full_text: str) -> str:
    """The 版记's "…年…月…日印发" (the last one), else a 发布日期 field."""
    publish = ""
    for ln in lines[-12:]:
        t = re.sub(r"\s+", "", ln)
        m = re.search(r"((?:19|20)\d{2}年\d{1,2}月\d{1,2}日)印发$", t)
        if m:
            publish = parse_date(m.group(1))
    if not publish:
        m = _PUBLISH.search(full_text)
        if m:
            publish = parse_date(m.group(1))
    return publish


def _effective_date(compact_text: str, lines: list[str], issued: str) -> str:
    """"自…起施行", else a standalone "…起施行" line in the head, else ``issued`` when the text
    takes effect on issue ("自印发之日起施行")."""
    m = _EFFECTIVE_DATE.search(compact_text)
    standalone = next((ln for ln in lines[:12] if re.fullmatch(r"(?:19|20)\d{2}年\d{1,2}月\d{1,2}日起?施行", re.sub(r"\s+", "", ln))), "")
    if m:
        return parse_date(m.group(1))
    if standalone:
        return parse_date(standalone)
    if _EFFECTIVE_ON_ISSUE.search(compact_text):
        return issued
    return ""


def _expiry_date(compact_text: str, start: str) -> str:
    """"有效期至…", else ``start`` plus "有效期N年", else the end of a campaign's own periods."""
    m = _EXPIRY.search(compact_text)
    expiry = ""
    if m:
        expiry = parse_date(m.group(1))
    else:
        m = _EXPIRY_YEARS.search(compact_text)
        if m and start:
            years = cn_to_int(m.group(1))
            y, mo, d = (int(x) for x in start.split("-"))
            expiry = _iso(y + years, mo, d) or _iso(y + years, mo, d - 1)
    return expiry or campaign_end(compact_text)  # a campaign ends when its own periods do


def _set_status(meta: DocMeta, head_text: str, file_name: str, today_: _dt.date | None) -> None:
    """draft (征求意见稿), upcoming (takes effect after ``today_``, else :func:`today`) or expired;
    else the status stays."""
    if "征求意见稿" in head_text or "征求意见稿" in meta.title or "征求意见稿" in file_name:
        meta.status = "draft"
    elif meta.effective_date and meta.effective_date > (today_ or today()).isoformat():
        meta.status = "upcoming"
    elif meta.expiry_date and meta.expiry_date < (today_ or today()).isoformat():
        meta.status = "expired"


def missing_fields(meta: DocMeta) -> list[str]:
    """Chinese names of the key fields a pending document lacks (for the review queue)."""
    out = []
    if not meta.doc_number:
        out.append("文号")
    if not meta.authorities:
        out.append("发文机关")
    if not (meta.sign_date or meta.publish_date):
        out.append("成文/发布日期")
    return out


def _is_seal_noise(line: str) -> bool:
    """OCR of a red seal over the 落款 yields fragments ("东", "督管")."""
    t = re.sub(r"\s+", "", line)
    return len(t) <= 3


def _split_agencies(name: str) -> list[str]:
    """"国务院办公厅中央军委办公厅" (two 落款 names whose separating spaces were lost) -> both."""
    for i in range(3, len(name) - 2):
        left, right = name[:i], name[i:]
        if right.startswith(("办公", "委员会", "人民政府", "局", "厅")) or re.fullmatch(f"(?:{AGENCY_SUFFIX})", right):
            continue  # "国家发展改革委" + "办公厅" is one name
        if is_agency_name(left) and is_agency_name(right):
            return [left, right]
    return [name]


def _add_agency(names: list[str], name: str) -> None:
    name = re.sub(r"\s+", "", name)
    parts = _split_agencies(name) if len(name) >= 6 else [name]
    if len(parts) > 1:
        for p in parts:
            _add_agency(names, p)
        return
    for i, n in enumerate(names):
        if name == n or name in n:
            return
        if n in name:
            names[i] = name
            return
    names.append(name)


_REPEAL_SENT = re.compile(r"[^。；\n]*废止[^。；\n]*")


def extract_repeals(text: str) -> list[str]:
    """文号s and 《titles》 named in 废止 clauses ("…同时废止", "原《…》（…号）废止")."""
    out: list[str] = []
    for m in _REPEAL_SENT.finditer(re.sub(r"[ \t]+", "", text)):
        sent = m.group(0)
        if not re.search(r"(同时|予以|即行|一并|自行)?废止", sent) or "废止件数" in sent:
            continue
        for t in re.findall(r"《([^》]{2,80})》", sent):
            if t not in out:
                out.append(f"《{t}》")
        for dn in find_doc_numbers(sent):
            if dn not in out:
                out.append(dn)
    return out


# ------------------------------------------------------------------ query entities

RE_ARTICLE_REF = re.compile(f"第[{CN_NUMERAL_CHARS}\\d]+条(?:之[一二三四五六七八九十]+)?(?:第[一二三四五六七八九十\\d]+款)?(?:第[一二三四五六七八九十\\d]+项)?")
_QUERY_NOISE = re.compile(r"^(请问|请|我想|想|查询|查一下|关于|根据|按照|依据|问一下|咨询|了解|知道|看看|在|的|了|和|与|及)+")


def extract_query_entities(text: str) -> dict:
    """Entities for the title retrieval path: 《titles》, 文号s, agency names, 第X条 references
    (with the law/document they belong to when written like 民法典第五十四条)."""
    t = normalize_text(text or "")
    compact_t = re.sub(r"\s+", "", t)
    titles = []
    for x in re.findall(r"《([^》]{1,80})》", compact_t):
        if x not in titles:
            titles.append(x)
    doc_numbers = find_doc_numbers(compact_t)
    agencies: list[str] = []
    scrubbed = re.sub(r"《[^》]*》", "", compact_t)
    for m in RE_AGENCY_IN_TEXT.finditer(scrubbed):
        name = _QUERY_NOISE.sub("", m.group(1))
        if len(name) >= 3 and not _AGENCY_BAD.search(name.replace("市场监督管理局", "").replace("发展和改革委员会", "")):
            _add_agency(agencies, name)
    articles = []
    for m in RE_ARTICLE_REF.finditer(compact_t):
        ref = m.group(0)
        law = ""
        before = compact_t[: m.start()]
        lm = re.search(r"《([^》]{1,60})》$", before) or re.search(r"([\u4e00-\u9fff]{1,30}?(?:法典|法|条例|规定|办法|细则|解释))$", before)
        if lm:
            law = _QUERY_NOISE.sub("", lm.group(1))
        articles.append({"ref": ref, "law": law})
    return {"titles": titles, "doc_numbers": doc_numbers, "agencies": agencies, "articles": articles}
