"""The product's code stays readable in pieces a newcomer can hold in mind: no function or method
of ``core``, ``pages``, ``components`` or ``app.py`` is longer than 80 lines, and no module longer
than 600 (issue 15). A function's length runs from its ``def`` line to its last line, docstring
and nested functions included; a nested function counts on its own as well.

A piece that grows past a limit fails this test with its name and length: split it by what its
parts do (a table of small functions, a helper per step) rather than raising the limit. The
source is read with :mod:`ast`; nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROOTS = ("core", "pages", "components", "app.py")
MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 600


def python_files(root: Path) -> list[Path]:
    out: list[Path] = []
    for name in ROOTS:
        path = root / name
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.exists() else []
    return out


def long_functions(path: Path, limit: int = MAX_FUNCTION_LINES) -> list[tuple[str, int]]:
    """``[("Class.method", lines), …]`` for every function of ``path`` longer than ``limit``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                lines = child.end_lineno - child.lineno + 1
                if lines > limit:
                    found.append((name, lines))
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def module_lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def oversized(root: Path) -> tuple[list[str], list[str]]:
    """(functions over the limit, modules over the limit), each ``"path:name (n lines)"``."""
    functions, modules = [], []
    for path in python_files(root):
        rel = path.relative_to(root).as_posix()
        functions += [f"{rel}:{name} ({n} lines)" for name, n in long_functions(path)]
        n = module_lines(path)
        if n > MAX_MODULE_LINES:
            modules.append(f"{rel} ({n} lines)")
    return functions, modules


def test_no_function_is_longer_than_the_limit():
    functions, _ = oversized(REPO)
    assert not functions, (f"functions over {MAX_FUNCTION_LINES} lines (split them by what their parts do):\n"
                           + "\n".join(functions))


def test_no_module_is_longer_than_the_limit():
    _, modules = oversized(REPO)
    assert not modules, (f"modules over {MAX_MODULE_LINES} lines (move a coherent part into a module of its "
                         "own):\n" + "\n".join(modules))


def test_the_checks_read_the_real_code():
    files = python_files(REPO)
    assert REPO / "app.py" in files and any(p.parts[-2] == "pages" for p in files)
    assert len(files) > 100, "the product's modules were not found: the checks would be vacuous"


def test_finds_long_methods_and_nested_functions(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(85))
    inner = "\n".join(f"        y{i} = {i}" for i in range(85))
    (tmp_path / "m.py").write_text(
        f"class K:\n    def method(self):\n    {body.replace(chr(10), chr(10) + '    ')}\n\n"
        f"def short():\n    return 1\n\n"
        f"def outer():\n    def inner():\n{inner}\n    return inner\n",
        encoding="utf-8")
    found = dict(long_functions(tmp_path / "m.py"))
    assert set(found) == {"K.method", "outer", "outer.inner"}
    assert found["K.method"] == 86 and found["outer.inner"] == 86
