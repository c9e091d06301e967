"""The contract every business-graph backend implements (LadybugDB embedded, Neo4j 5).

Conventions shared by every backend (the contract suite in tests/contracts/graph_contract.py
checks them):

- Node rows are dicts keyed by the property names of :data:`core.graph.schema.NODE_TABLES`
  (the label's primary key included, provenance 来源模板/来源文件/行号 included). Missing
  properties are written as null.
- Edge rows are ``{"from": <key of the start node>, "to": <key of the end node>, **props}``;
  ``props`` are the rel table's properties plus provenance. An edge whose end node does not
  exist is not created (the builder checks references first and reports them).
- Upserts are idempotent ``UNWIND $rows … MERGE``; inside one call, rows with the same key
  (node: primary key; edge: from, to and the rel table's ``merge_on`` properties) are
  de-duplicated in Python and the LAST row wins on every backend.
- Writes are serialised by a process-wide lock (one write transaction at a time).
- :meth:`query` / :meth:`run_named` are the read-only path: the Cypher is checked with
  :func:`core.graph.queries.assert_read_only` first (raises core.errors.ReadOnlyViolation) and,
  where the backend allows it, run on a read-only connection/session.
- Results are lists of plain dicts keyed by the RETURN column names; date/ym values are ISO
  strings, numbers are int/float.

Tenancy and generations (core/graph/store/tenancy.py; the contract's TenancyContract checks them):

- Every store has ``tenant`` (None for a store opened on a bare file or scope, e.g. in tests)
  and ``generation`` (the committed build it reads; 0 = none). Callers may key caches on
  ``(tenant, generation)``.
- ``core.graph.store.get_graph_store(settings, tenant=T)`` is the read path of tenant T's
  CURRENT committed graph. It follows the tenant: after a build publishes a new generation (in
  any thread or process), the same store's next query — and its ``generation`` — is the new
  one. A tenant with no graph gets an empty store (no rows, zero counts). Its writes raise
  GraphStoreError.
- ``core.graph.store.graph_build(T, clear=…)`` yields the only writable store of a tenant's
  graph (a staging generation: a copy of the current one, or empty with ``clear``); readers see
  it only after the block exits normally, atomically. An exception or a killed process leaves
  the previous generation; leftovers are removed by the next build or start. One build per
  tenant at a time (GraphBuildBusy).
- No query on a tenant's store returns another tenant's data. LadybugDB keeps one database file
  per tenant and generation; Neo4j keeps all in one database and
  :meth:`core.graph.store.dialect.Dialect.render` confines every query to the store's scope.
"""

from __future__ import annotations

from typing import Any, Iterable, Protocol, runtime_checkable


@runtime_checkable
class GraphStore(Protocol):
    #: "ladybug" | "neo4j"
    backend: str
    #: the tenant whose graph this store reads or builds (None: a bare file or scope)
    tenant: str | None
    #: the committed generation reads go to (a staging store: the generation it builds; 0: none)
    generation: int

    def ensure_schema(self) -> None:
        """Create every node/rel table (ladybug DDL) or constraint/index (Neo4j) that is missing."""

    def clear(self) -> None:
        """Delete every node and relationship and recreate the schema (``--clear``)."""

    def upsert_nodes(self, label: str, rows: Iterable[dict[str, Any]], *, batch_size: int = 2000) -> int:
        """MERGE nodes by primary key and SET every property; returns rows written after de-dup."""

    def upsert_edges(self, rel_type: str, from_label: str, to_label: str, rows: Iterable[dict[str, Any]], *,
                     batch_size: int = 2000) -> int:
        """MATCH both ends by primary key, MERGE the edge (on ``merge_on`` props), SET its props."""

    def delete_edges(self, rel_type: str, from_label: str, to_label: str, rows: Iterable[dict[str, Any]]) -> int:
        """Delete edges identified by ``{"from", "to", **merge_on props}`` (stale derived 服务于 runs)."""

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a read-only query (portable Cypher; dialect tokens rendered). Writes are refused."""

    def run_named(self, name: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a named query from :mod:`core.graph.queries` with its defaults filled in."""

    def counts(self) -> dict[str, dict[str, int]]:
        """``{"nodes": {label: n}, "edges": {type: n}}`` for every label/type in the schema."""

    def close(self) -> None:
        """Release files/connections."""
