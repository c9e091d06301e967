"""Where LadybugDB and Neo4j 5 Cypher truly differ, and nothing else.

Queries in :mod:`core.graph.queries` are written once in portable Cypher; three tokens are
rendered per backend:

- ``⟦label:n⟧`` — the (single) label of node variable ``n``: ladybug ``label(n)``, Neo4j ``labels(n)[0]``
- ``⟦type:e⟧`` — the type of relationship variable ``e``: ladybug ``label(e)``, Neo4j ``type(e)``
- ``⟦R:供应商⟧`` — a relationship type name: the physical rel table name (ladybug keeps node and
  rel tables in one catalog, so the rel type 供应商 is stored as 供应商关系 there)

:meth:`Dialect.render` is the one place where a Neo4j query is confined to one tenant's
current generation (see :func:`scope_cypher`), and :meth:`Dialect.typed` wraps a parameter expression in a cast where the backend needs the
column type spelled out (ladybug infers a STRING for a struct field that is null in every row
of a batch).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.graph.schema import LADYBUG_REL_RENAMES, NEO4J_SCOPE, STORAGE_TYPES, q

_TOKEN = re.compile(r"⟦(label|type|R):([^⟧]+)⟧")


@dataclass(frozen=True)
class Dialect:
    name: str
    label_fmt: str
    type_fmt: str
    rel_renames: dict = field(default_factory=dict)
    cast: bool = False
    #: True where tenants and generations share one database (Neo4j): every rendered query is
    #: constrained to the scope parameter by :func:`scope_cypher`. LadybugDB keeps each tenant's
    #: generation in its own database file, so it needs no scoping.
    scoped: bool = False

    def rel(self, rel_type: str) -> str:
        return self.rel_renames.get(rel_type, rel_type)

    def logical_rel(self, physical: str) -> str:
        for logical, phys in self.rel_renames.items():
            if phys == physical:
                return logical
        return physical

    def typed(self, expr: str, col_type: str) -> str:
        return f"CAST({expr} AS {STORAGE_TYPES[col_type]})" if self.cast else expr

    def render(self, cypher: str) -> str:
        def sub(m: re.Match) -> str:
            kind, arg = m.group(1), m.group(2)
            if kind == "label":
                return self.label_fmt.format(arg)
            if kind == "type":
                return self.type_fmt.format(arg)
            return q(self.rel(arg))

        text = _TOKEN.sub(sub, cypher)
        return scope_cypher(text) if self.scoped else text




# ---------------------------------------------------------------------------------------
# Tenant/generation scoping (Neo4j keeps every tenant and generation in one database)
# ---------------------------------------------------------------------------------------
#: The node property holding ``"<tenant>#<generation>"`` on Neo4j (composite keys: scope + key).
SCOPE_PROPERTY = NEO4J_SCOPE
#: The query parameter that carries the scope; set by the store, never by a caller.
SCOPE_PARAM = "__zhice_scope"

_PATTERN_CLAUSES = {"MATCH", "MERGE", "CREATE"}
_CLAUSE_WORDS = {"WHERE", "RETURN", "WITH", "SET", "ON", "ORDER", "LIMIT", "SKIP", "UNWIND", "UNION", "CALL",
                 "DELETE", "DETACH", "REMOVE", "FOREACH", "MATCH", "OPTIONAL", "MERGE", "CREATE", "YIELD", "FINISH"}
_SUBQUERY_WORDS = {"EXISTS", "COUNT", "COLLECT"}


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _literal_end(text: str, i: int) -> int | None:
    """End index (exclusive) of the string literal, quoted identifier or comment at ``i``."""
    ch = text[i]
    if ch in "'\"":
        j = i + 1
        while j < len(text):
            if text[j] == "\\":
                j += 2
                continue
            if text[j] == ch:
                return j + 1
            j += 1
        return len(text)
    if ch == "`":
        j = i + 1
        while j < len(text):
            if text[j] == "`":
                if text[j + 1:j + 2] == "`":
                    j += 2
                    continue
                return j + 1
            j += 1
        return len(text)
    if text.startswith("//", i):
        j = text.find("\n", i)
        return len(text) if j < 0 else j
    if text.startswith("/*", i):
        j = text.find("*/", i + 2)
        return len(text) if j < 0 else j + 2
    return None


def _closing(text: str, i: int) -> int:
    """Index of the bracket closing the one at ``i`` (strings, identifiers, comments skipped)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[text[i]]]
    j = i + 1
    while j < len(text):
        end = _literal_end(text, j)
        if end is not None:
            j = end
            continue
        ch = text[j]
        if ch in pairs:
            stack.append(pairs[ch])
        elif ch == stack[-1]:
            stack.pop()
            if not stack:
                return j
        j += 1
    raise ValueError("unbalanced brackets in Cypher")


def _top_level(text: str):
    """(index, char) of the characters of ``text`` outside literals and nested brackets."""
    depth = 0
    j = 0
    while j < len(text):
        end = _literal_end(text, j)
        if end is not None:
            if depth == 0:
                yield j, text[j]
            j = end
            continue
        ch = text[j]
        if depth == 0:
            yield j, ch
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        j += 1


def _word_end(text: str, i: int) -> int:
    """End index (exclusive) of the identifier, keyword or ``$parameter`` starting at ``i``."""
    j = i + 1
    while j < len(text) and _is_word_char(text[j]):
        j += 1
    return j


def _opens_pattern_comprehension(text: str, i: int) -> bool:
    """Whether the ``[`` at ``i`` opens a pattern comprehension: ``[(a)-->(b) WHERE … | expr]``."""
    k = i + 1
    while k < len(text) and text[k].isspace():
        k += 1
    return k < len(text) and text[k] == "("


def _scope_node(inner: str, clause: str, entry: str) -> str:
    """One node pattern's inside (between its parentheses) with the scope entry added."""
    brace = where = None
    label = False
    for j, ch in _top_level(inner):
        if ch == ":" and brace is None and where is None:
            label = True
        elif ch == "{" and brace is None and where is None:
            brace = j
        elif ch in "Ww" and where is None and inner[j:j + 5].upper() == "WHERE" \
                and (j == 0 or not _is_word_char(inner[j - 1])) and not _is_word_char(inner[j + 5:j + 6] or " "):
            where = j
    if clause != "MATCH" and not label:
        return inner  # a variable bound earlier, referenced in MERGE/CREATE: already scoped
    if brace is not None:
        rest = inner[brace + 1:]
        return inner[:brace + 1] + entry + (", " if rest.strip()[:1] != "}" else "") + rest
    cut = where if where is not None else len(inner.rstrip())
    return inner[:cut].rstrip() + " {" + entry + "}" + (" " + inner[cut:] if where is not None else inner[cut:])


def scope_cypher(cypher: str, prop: str = SCOPE_PROPERTY, param: str = SCOPE_PARAM) -> str:
    """``cypher`` with ``{prop: $param}`` added to every node pattern it matches or creates.

    Node patterns of MATCH / OPTIONAL MATCH clauses, of EXISTS/COUNT/COLLECT subqueries and
    of pattern comprehensions are all constrained; in MERGE / CREATE the patterns that create
    a node (those with a label) get the property. Relationships need no scope: the builder only
    connects nodes of one scope, so every edge reachable from a scoped node is in that scope.
    """
    entry = f"{prop}: ${param}"
    out: list[str] = []
    mode: str | None = None       # MATCH / MERGE / CREATE while inside a clause's pattern part
    stack: list[str | None] = []  # modes saved at "{" (subqueries, maps) and "[" (comprehensions)
    closers: list[str] = []
    last_word = ""                # the previous identifier/keyword (function call vs node pattern)
    prev = ""                     # the previous significant character
    i, n = 0, len(cypher)
    while i < n:
        end = _literal_end(cypher, i)
        if end is not None:
            out.append(cypher[i:end])
            if cypher[i] == "`":
                last_word, prev = cypher[i:end], "w"
            i = end
            continue
        ch = cypher[i]
        if _is_word_char(ch) or ch == "$":
            j = _word_end(cypher, i)
            word = cypher[i:j]
            up = word.upper()
            if up in _PATTERN_CLAUSES and prev != ".":
                mode = "MATCH" if up == "MATCH" else up
            elif up in _CLAUSE_WORDS and prev != ".":
                mode = None
            out.append(word)
            last_word, prev = up, "w"
            i = j
            continue
        if ch.isspace():
            out.append(ch)
            i += 1
            continue
        if ch == "(" and mode is not None and not (prev == "w" and last_word not in _CLAUSE_WORDS):
            close = _closing(cypher, i)
            out.append("(" + _scope_node(cypher[i + 1:close], mode, entry) + ")")
            prev = ")"
            i = close + 1
            continue
        if ch == "[" and mode is None and _opens_pattern_comprehension(cypher, i):
            stack.append(mode)
            closers.append("]")
            mode = "MATCH"
            out.append(ch)
            prev = ch
            i += 1
            continue
        if ch == "[" and mode is not None:  # a relationship's details: copied as they are
            close = _closing(cypher, i)
            out.append(cypher[i:close + 1])
            prev = "]"
            i = close + 1
            continue
        if ch == "|" and closers and closers[-1] == "]" and mode is not None:
            mode = None
        if ch in "{[(":
            stack.append(mode)
            closers.append({"{": "}", "[": "]", "(": ")"}[ch])
            mode = "MATCH" if ch == "{" and last_word in _SUBQUERY_WORDS and prev == "w" else (
                mode if ch == "(" else None)
        elif closers and ch == closers[-1]:
            closers.pop()
            mode = stack.pop()
        out.append(ch)
        prev = ch
        i += 1
    return "".join(out)


LADYBUG = Dialect("ladybug", "label({})", "label({})", dict(LADYBUG_REL_RENAMES), cast=True)
NEO4J = Dialect("neo4j", "labels({})[0]", "type({})", {}, cast=False, scoped=True)
