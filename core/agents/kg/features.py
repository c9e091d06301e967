"""The typed question model of the KG agent: what the rules understood of one question, built
once by the understand node and kept in the agent state (``state["features"]``) so later nodes
read it instead of parsing the question again."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from core.agents.kg import coverage


@dataclass(frozen=True)
class QuestionFeatures:
    question: str
    intent: str = ""
    projects: tuple[str, ...] = ()
    people: tuple[str, ...] = ()
    areas: tuple[str, ...] = ()
    time: dict | None = None                 # TimeRange.to_dict() of the asked period
    asked: tuple[str, ...] = ()              # the nouns asked for ("学历", "合同金额")
    operation: str = "list"                  # list | count | sum | avg | max | min | earliest | latest | ratio | growth
    operation_field: str | None = None
    conditions: tuple[str, ...] = ()         # condition expressions ("离职日期 == None")
    filters: dict = field(default_factory=dict)
    grouping: str | None = None              # the field one figure per group is computed by
    comparison: dict | None = None           # two periods compared (growth) or a ratio's compare
    followup: bool = False                   # refers back to the previous turn
    unknown: dict = field(default_factory=dict)  # {"fields": [...], "areas": [...]} the data lacks

    @classmethod
    def from_slots(cls, slots: dict) -> "QuestionFeatures":
        agg, ratio, growth = slots.get("agg") or {}, slots.get("ratio") or {}, slots.get("growth")
        op = "growth" if growth else "ratio" if ratio else (agg.get("op") or "list")
        q = slots.get("question") or ""
        return cls(
            question=q, intent=slots.get("intent") or "",
            projects=tuple(_texts(slots.get("projects"))), people=tuple(_texts(slots.get("people"))),
            areas=tuple(_texts(slots.get("areas"))), time=slots.get("time"),
            asked=tuple(coverage.asked_nouns(q)), operation=op, operation_field=agg.get("field"),
            conditions=tuple(c.get("expr", "") for c in slots.get("conditions") or [] if isinstance(c, dict)),
            filters=dict(slots.get("filters") or {}), grouping=agg.get("group_by") or ratio.get("group_by"),
            comparison=growth or ratio.get("compare"), followup=bool(slots.get("followup")),
            unknown=dict(slots.get("missing") or {}))

    def to_dict(self) -> dict:
        d = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}

    @classmethod
    def from_dict(cls, d: dict | None) -> "QuestionFeatures":
        d = dict(d or {})
        for k in ("projects", "people", "areas", "asked", "conditions"):
            d[k] = tuple(d.get(k) or ())
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in d.items() if k in known})


def _texts(items) -> list[str]:
    """Mention texts of a slot list (plain strings, or grounded dicts with a ``text``)."""
    return [i.get("text") or i.get("name") or "" if isinstance(i, dict) else str(i) for i in items or []]
