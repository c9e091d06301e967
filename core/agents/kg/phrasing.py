"""Small generic readers of question phrasing, driven by ``data/rules/kg_*.json``:

* :func:`rewrite` — colloquial forms into the wording the vocabulary knows (上了几天班 → 上班天数),
  a numeral after a comparison word into digits (满十年 → 满10年);
* :func:`negated_at` / :func:`employment` — a state word under a negation (没有离职 = 在职);
* :func:`intent_text` — the question with the values of intent-neutral fields masked, so a
  position value (采购专员) is not read as the data kind its name contains (采购);
* :func:`responsible_condition` — "华国栋负责多少台设备": the record's person field;
* :func:`group_field` — "按汇总业态统计": a grouping by any field the records hold."""

from __future__ import annotations

import re

from core.agents.kg import kgrules
from core.graph.schema import NODE_BY_LABEL
from core.text.numerals import cn_to_int

MASK = "□"


def rewrite(question: str) -> str:
    """``question`` with every rewrite row of ``kg_patterns.json`` applied in order."""
    rules = kgrules.rules_file("kg_patterns")["rewrites"]
    question = re.sub(rules["condition_numeral"], lambda m: m.group(1) + str(cn_to_int(m.group(2), 0)), question)
    for rx, row in zip(kgrules.patterns("rewrites"), rules["rows"]):
        question = rx.sub(row["replace"], question)
    return question


def negated_at(question: str, start: int) -> bool:
    """Is the word starting at ``start`` preceded by a negation (没有/未/尚未…)?"""
    head = question[:start]
    return any(head.endswith(w) for w in kgrules.words("negation_before"))


def employment(question: str) -> str | None:
    """"left" when the question asks about people who left (离职 not negated, 不在职), "employed"
    when it asks about people in service (在职, 没有离职), else None (also when it says both count:
    已离职的也算, 包括离职的)."""
    if re.search(kgrules.rules_file("kg_vocabulary")["employment_either"]["pattern"], question):
        return None
    leaving = [m for m in re.finditer(r"离职(?!率)|已离开", question)]
    if "不在职" in question or any(not negated_at(question, m.start()) for m in leaving):
        return "left"
    if leaving or re.search(r"在职(?!年限)|(?:现在|目前)?还在(?:干|做|上班)(?:的|着)", question):
        return "employed"
    return None


def intent_text(question: str, filters: dict) -> str:
    """The question with the grounded values of intent-neutral fields (岗位名称) and every quoted
    phrase (a value written out: “监控存储不足 30 天” names no 设备 question) masked."""
    question = re.sub(kgrules.rules_file("kg_vocabulary")["quoted_value"]["pattern"],
                      lambda m: MASK * len(m.group(0)), question)
    for field in kgrules.words("intent_neutral_value_fields"):
        for v in sorted(filters.get(field) or [], key=len, reverse=True):
            for form in (str(v), str(v).split("_")[0]):
                if len(form) >= 2:
                    question = question.replace(form, MASK * len(form))
    return question


def _person_field(intent: str) -> tuple[str | None, str]:
    """(person field of ``intent``'s records, the cue that points at it) from ``person_fields``."""
    spec = kgrules.rules_file("kg_vocabulary")["person_fields"]
    entry = spec["map"].get(intent or "")
    return (entry["field"], entry["cue"]) if isinstance(entry, dict) else (entry, spec["cue"])


def area_head_owns(question: str, intent: str) -> bool:
    """"青浦片区负责人名下的项目": the 片区 names its head, whose records of ``intent`` are asked."""
    spec = kgrules.rules_file("kg_vocabulary")["person_fields"]
    m = re.search(spec["area_head"]["pattern"], question)
    field, cue_rx = _person_field(intent)
    return bool(m and field and re.search(cue_rx, question[m.end():]))


def responsible_condition(question: str, intent: str, people: list[str], index,
                          areas: list[str] = ()) -> tuple[dict | None, bool]:
    """A condition on the records' person field when named people "负责/管/经办" them, or the head of
    a named 片区 ("青浦片区负责人名下的项目"); the flag says the people came from the areas."""
    spec = kgrules.rules_file("kg_vocabulary")["person_fields"]
    field, cue_rx = _person_field(intent)
    cue = re.search(cue_rx, question) if field else None
    if not cue or index is None:
        return None, False
    managed = kgrules.cue("managed_projects").match(question, cue.start())
    if managed and intent != "项目":
        return None, False  # "周建国负责的那几个项目的设备": the projects they head, not 设备责任人
    keys, via_area = [], False
    for p in people:
        cands = index.resolve("person", p, allow_embedding=False)
        keys += [cands[0].key] if cands else []
    if not people and areas and kgrules.mapping("intent_labels").get(intent) == "片区":
        return None, False  # "徐汇片区的负责人是谁": the named area itself, not its head's areas
    if not people and areas and re.search(spec["area_head"]["pattern"], question):
        for a in areas:
            cands = index.resolve("area", a, allow_embedding=False)
            head = index.area_by_code.get(cands[0].key, {}).get("片区负责人工号") if cands else None
            keys += [str(head)] if head else []
        via_area = bool(keys)
    if not keys:
        return None, False
    who = "、".join(people) if people else "、".join(a + "负责人" for a in areas)
    role = field[:-2] if field.endswith("工号") and len(field) > 2 else ""  # 检查人工号 → 检查人：周建国
    text = f"{role}：{who}" if role else f"{who}{cue.group(0)}"
    return {"field": field, "op": "in", "value": 0, "text": text, "derived": None,
            "expr": f"{field} in {keys!r}"}, via_area


def group_field(question: str, intent: str) -> str | None:
    """The field of ``intent``'s records that a "按X统计" / "各X分别" phrase groups by."""
    label = kgrules.mapping("intent_labels").get(intent or "")
    node = NODE_BY_LABEL.get(label or "")
    if node is None:
        return None
    props = set(node.property_names)
    for rx in kgrules.patterns("group_by_field"):
        for m in rx.finditer(question):
            word = m.group(1)
            hit = next((p for p in sorted(props, key=len, reverse=True) if word.endswith(p) or word == p), None)
            if hit and hit != node.pk:
                return hit
    return None


def named_date_field(question: str) -> tuple[str, str] | None:
    """(field, intent) of a date field the question names by its own schema name ("出厂日期最早的
    设备"), the longest one first."""
    labels = kgrules.mapping("intent_labels")
    for field, label in sorted(((p, label) for label in NODE_BY_LABEL for p in label_dates(label)),
                               key=lambda x: -len(x[0])):
        if field in question:
            intent = next((i for i, lb in labels.items() if lb == label), None)
            if intent:
                return field, intent
    return None


def label_dates(label: str) -> list[str]:
    """The date fields of a node label's records (出厂日期, 启用日期 … of 设备), in schema order."""
    node = NODE_BY_LABEL.get(label)
    return [p for p in node.property_names if p.endswith("日期") and len(p) > 2] if node else []


def phrased_date_field(question: str, intent: str) -> str | None:
    """The date field of ``intent``'s records the question's wording names (中标 → 中标日期), from
    the ``date_fields`` phrasings."""
    return next((f for rx, f, fi in kgrules.date_fields() if fi == intent and rx.search(question)), None)


def named_date_column(question: str, label: str) -> str | None:
    """The date column of ``label``'s records the question names in full (整改完成日期), the longest."""
    node = NODE_BY_LABEL.get(label)
    cols = [c for c, typ in node.properties if typ == "date" and c in question] if node else []
    return max(cols, key=len) if cols else None


def intent_of_filters(intent: str, filters: dict) -> str:
    """A grounded value whose field only one kind of record holds names that data when the
    generic intent's records lack the field ("SB-0118-003 是哪年出厂的", "康明斯的柴油发电机放在哪些
    项目": 设备编号 / 制造厂商 are 设备 columns, not 人员 / 项目 ones)."""
    if intent not in ("人员", "项目", ""):
        return intent
    labels = kgrules.mapping("intent_labels")
    own = NODE_BY_LABEL.get(labels.get(intent, ""))
    for field in filters or {}:
        if own is not None and field in own.property_names:
            continue
        holders = {lb for lb in labels.values() if lb in NODE_BY_LABEL and field in NODE_BY_LABEL[lb].property_names}
        if len(holders) == 1:
            label = holders.pop()
            return next(i for i, lb in labels.items() if lb == label)
    return intent


def owner_of_which(question: str, intent: str, people: list) -> str:
    """"李晓峰是哪个片区的负责人": a named person asked about the records whose person field holds
    them — the records' intent (片区), filtered by ``responsible_condition``."""
    spec = kgrules.rules_file("kg_vocabulary")["person_fields"]
    if not people or intent not in ("人员", ""):
        return intent
    m = re.search(spec["owner_of_which"]["pattern"], question)
    kind = next((g for g in (m.groups() if m else ()) if g), None)
    if kind and kind in kgrules.mapping("intent_labels") and kind in spec["map"]:
        return kind
    return intent


def drop_qualifiers(question: str, intent: str, filters: dict) -> dict:
    """"人民医院的保洁耗材供应商": a value (保洁 → 岗位名称 保洁员) written right before another
    grounded value of the asked records (耗材 → 记录类型 耗材采购) qualifies that noun; when the asked
    records hold no field for it, it is part of the noun, not a condition to refuse by name."""
    node = NODE_BY_LABEL.get(kgrules.mapping("intent_labels").get(intent or "", ""))
    if node is None:
        return filters
    props = set(node.property_names)
    own = [str(v)[:2] for f, vals in filters.items() if f in props for v in vals or [] if len(str(v)) >= 2]
    out = dict(filters)
    for field, vals in filters.items():
        if field in props:
            continue
        for v in vals or []:
            for form in {str(v), str(v).split("_")[0], str(v)[:2]}:
                i = question.find(form) if len(form) >= 2 else -1
                if i >= 0 and any(question[i + len(form):].startswith(o) for o in own):
                    out.pop(field, None)
    return out


def project_join(intent: str, filters: dict, index) -> tuple[dict, list[dict]]:
    """(filters, conditions): a value of a project column (服务状态, 细分业态, 市区 …) on records that
    hold only the project's code ("服务中项目的电梯有几台") applies through the project: the records
    whose 项目编号 is one of the projects holding that value."""
    node = NODE_BY_LABEL.get(kgrules.mapping("intent_labels").get(intent or "", ""))
    project = NODE_BY_LABEL.get("项目")
    if node is None or project is None or index is None or "项目编号" not in node.property_names \
            or node.label == project.label:
        return filters, []
    out, conds = dict(filters), []
    for field, vals in filters.items():
        if field in node.property_names or field not in project.property_names or not vals:
            continue
        wanted = {str(v) for v in vals}
        codes = sorted(str(p["项目编号"]) for p in index.projects if str(p.get(field) or "") in wanted)
        out.pop(field)
        conds.append({"field": "项目编号", "op": "in", "value": 0, "text": f"{field}：{'、'.join(map(str, vals))}",
                      "derived": None, "expr": f"项目编号 in {codes!r}"})
    return out, conds
