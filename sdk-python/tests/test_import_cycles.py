"""No import cycle among the SDK's modules.

Every import counts: module level, under TYPE_CHECKING and inside functions. A cycle that
only type checkers or a lazy import follow is still two modules that each need the other,
which is what kept Session reading the Extension's private fields (issue 14).
"""

from __future__ import annotations

import ast
from pathlib import Path

import octet_extension

PACKAGE = Path(octet_extension.__file__).parent


def module_graph(package: Path) -> dict[str, set[str]]:
    """Each module of ``package`` (dotted, relative to its parent) -> the modules it imports."""
    modules: dict[str, Path] = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here[: len(here) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    # "from . import _kw_apply" imports a module; "from ._x import f" its owner.
                    sub = f"{target}.{alias.name}"
                    if sub in modules:
                        deps.add(sub)
                    elif target in modules:
                        deps.add(target)
            elif isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names if alias.name in modules)
        deps.discard(name)
        graph[name] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def describe(graph: dict[str, set[str]], component: list[str]) -> str:
    members = set(component)
    edges = [f"{a} -> {b}" for a in component for b in sorted(graph[a] & members)]
    return f"{len(component)} modules: " + "; ".join(edges)


def test_sdk_has_no_import_cycle() -> None:
    graph = module_graph(PACKAGE)
    assert "octet_extension._session" in graph and "octet_extension._jsonschema._compile" in graph
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(describe(graph, c) for c in found)


def test_a_cycle_is_found_and_named(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from ._a import A\n")
    (pkg / "_a.py").write_text("from ._b import B\nA = 1\n")
    (pkg / "_b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sub import _c\nB = 2\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "_c.py").write_text("def f():\n    from .._a import A\n    return A\n")
    (pkg / "_leaf.py").write_text("import pkg._a\n")
    graph = module_graph(pkg)
    assert cycles(graph) == [["pkg._a", "pkg._b", "pkg.sub._c"]]
    assert describe(graph, cycles(graph)[0]) == (
        "3 modules: pkg._a -> pkg._b; pkg._b -> pkg.sub._c; pkg.sub._c -> pkg._a")
