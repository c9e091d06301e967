"""The ``core`` package has no import cycles: two modules that import each other (directly or
round a longer loop) fail this test, listing the loop and the imports that close it. And the
command line stays in ``core.cli``: no other module of ``core`` imports it, defines a ``cli_*``
adapter, or (under ``core.services``) parses arguments.

Every ``import core.…`` / ``from core… import …`` counts, at module level or inside a function
(a function-level import still ties the two modules together); only imports under
``if TYPE_CHECKING:`` are left out, since they never run. The graph is read from the source
with :mod:`ast`, so nothing is imported to build it."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "core"

# Cycles known today, each to be broken and then removed from here (the test fails when one
# disappears, so the list only shrinks). Each entry is the sorted module names of one cycle.
ALLOWED_CYCLES: set[tuple[str, ...]] = set()


def module_files(root: Path, package: str = PACKAGE) -> dict[str, Path]:
    """``{"core.retrieval.index": path, "core.retrieval": …/__init__.py, …}``."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


class _Imports(ast.NodeVisitor):
    """Every imported module name of one file (absolute, relative ones resolved)."""

    def __init__(self, module: str, is_package: bool):
        self.here = module.split(".") if is_package else module.split(".")[:-1]
        self.names: list[tuple[str, int]] = []  # (module name, line)

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        self.names.extend((a.name, node.lineno) for a in node.names)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            pkg = self.here[:len(self.here) - (node.level - 1)]
            base = ".".join(pkg + ([base] if base else []))
        # ``from core.retrieval import index`` imports the module core.retrieval.index
        self.names.extend((f"{base}.{a.name}", node.lineno) for a in node.names)
        self.names.append((base, node.lineno))


def import_graph(root: Path, package: str = PACKAGE) -> dict[str, dict[str, int]]:
    """``{module: {imported module of the package: line of the first such import}}``."""
    files = module_files(root, package)

    def resolve(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, int]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        visitor = _Imports(module, path.name == "__init__.py")
        visitor.visit(tree)
        edges: dict[str, int] = {}
        for name, line in visitor.names:
            target = resolve(name)
            if target and target != module and target.split(".")[0] == package:
                edges.setdefault(target, line)
        graph[module] = edges
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[tuple[str, ...]]:
    """Strongly connected components of more than one module (Tarjan, iterative), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp.append(member)
                    if member == node:
                        break
                if len(comp) > 1:
                    found.append(tuple(sorted(comp)))
    return sorted(found)


def describe(cycle: tuple[str, ...], graph: dict[str, dict[str, int]]) -> str:
    members = set(cycle)
    edges = [f"    {a} -> {b} (line {line})" for a in cycle for b, line in sorted(graph[a].items()) if b in members]
    return " <-> ".join(cycle) + "\n" + "\n".join(edges)


def test_core_has_no_import_cycles_beyond_the_allow_list():
    graph = import_graph(REPO)
    found = set(cycles(graph))
    new = sorted(found - ALLOWED_CYCLES)
    assert not new, "import cycles in core (move the shared pieces to the module they belong in):\n" + \
        "\n".join(describe(c, graph) for c in new)
    gone = sorted(ALLOWED_CYCLES - found)
    assert not gone, f"allow-listed cycles no longer exist; remove them from ALLOWED_CYCLES: {gone}"


def test_graph_sees_the_imports_that_matter():
    """The graph is not vacuous: it holds module-level, function-level and ``from package
    import module`` edges of the real code."""
    graph = import_graph(REPO)
    assert "core.retrieval.protocol" in graph["core.retrieval.index"]          # module level
    assert "core.retrieval.neo4j_index" in graph["core.retrieval.index"]       # inside get_index()
    assert "core.retrieval.index" in graph["core.services.ingest"]             # from core.retrieval import index
    assert "core.retrieval.index" not in graph["core.retrieval.neo4j_index"]


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_detects_a_cycle_closed_by_a_function_level_import(tmp_path):
    _write(tmp_path, "core/__init__.py", "")
    _write(tmp_path, "core/a.py", "from core.b import B\nA = 1\n")
    _write(tmp_path, "core/b.py", "B = 2\n\ndef f():\n    from core import a\n    return a.A\n")
    _write(tmp_path, "core/c.py", "from . import a\n")
    graph = import_graph(tmp_path)
    assert cycles(graph) == [("core.a", "core.b")]
    assert "core.b -> core.a (line 4)" in describe(("core.a", "core.b"), graph)


def test_finds_longer_loops_and_ignores_type_checking_imports(tmp_path):
    _write(tmp_path, "core/__init__.py", "")
    _write(tmp_path, "core/x/__init__.py", "")
    _write(tmp_path, "core/x/one.py", "import core.x.two\n")
    _write(tmp_path, "core/x/two.py", "from .three import T\n")
    _write(tmp_path, "core/x/three.py", "from core.x import one\nT = 3\n")
    _write(tmp_path, "core/y.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from core.z import Z\n")
    _write(tmp_path, "core/z.py", "from core.y import *\nZ = 1\n")
    assert cycles(import_graph(tmp_path)) == [("core.x.one", "core.x.three", "core.x.two")]


# ---- the command line lives in core.cli ----------------------------------------------------------
CLI = "core.cli"


def _in_cli(module: str) -> bool:
    return module == CLI or module.startswith(CLI + ".")


def cli_importers(graph: dict[str, dict[str, int]]) -> list[str]:
    """``"module -> core.cli… (line n)"`` for every module outside the CLI that imports it."""
    return [f"{m} -> {t} (line {line})" for m, edges in sorted(graph.items()) if not _in_cli(m)
            for t, line in sorted(edges.items()) if _in_cli(t)]


def cli_adapters_outside(root: Path, package: str = PACKAGE) -> list[str]:
    """``"module.cli_name (line n)"`` for every function named ``cli_*`` outside the CLI."""
    found = []
    for module, path in module_files(root, package).items():
        if _in_cli(module):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("cli_"):
                found.append(f"{module}.{node.name} (line {node.lineno})")
    return sorted(found)


def test_only_the_cli_imports_the_cli():
    graph = import_graph(REPO)
    assert any(_in_cli(m) for m in graph), "core.cli not found: the check would be vacuous"
    assert not cli_importers(graph), ("services return data and the CLI prints it; these modules import the CLI "
                                      "(move the printing into core/cli/):\n" + "\n".join(cli_importers(graph)))


def test_no_cli_adapter_outside_the_cli():
    found = cli_adapters_outside(REPO)
    assert not found, "CLI adapters belong in core/cli/ (one module per command group):\n" + "\n".join(found)


def test_services_parse_no_arguments():
    """Argument parsing (argparse, password prompts) is the CLI's; services take plain values."""
    found = []
    for module, path in module_files(REPO).items():
        if module.startswith("core.services."):
            visitor = _Imports(module, path.name == "__init__.py")
            visitor.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
            found += [f"{module} imports {name} (line {line})" for name, line in visitor.names
                      if name.split(".")[0] in ("argparse", "getpass")]
    assert not found, "\n".join(found)


def test_cli_checks_see_a_service_that_prints(tmp_path):
    _write(tmp_path, "core/__init__.py", "")
    _write(tmp_path, "core/cli/__init__.py", "def emit(r, as_json):\n    print(r)\n")
    _write(tmp_path, "core/cli/users.py", "from core.cli import emit\n\ndef cli_ok(args):\n    emit(1, True)\n")
    _write(tmp_path, "core/services/__init__.py", "")
    _write(tmp_path, "core/services/users.py", "def cli_users(args):\n    from core import cli\n    cli.emit(1, True)\n")
    assert cli_importers(import_graph(tmp_path)) == ["core.services.users -> core.cli (line 2)"]
    assert cli_adapters_outside(tmp_path) == ["core.services.users.cli_users (line 1)"]
