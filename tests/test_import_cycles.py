"""No module-level import cycle in cgtalg (issue 33): the imports that run when a module is
imported form an acyclic graph.

Each module's source is read with :mod:`ast` (nothing is imported). The imports that run at
import time are the top-level statements, including those inside top-level ``if``, ``try``,
``with``, loops and class bodies, but not inside a function (a function-level import runs when
the function is called) nor under ``if TYPE_CHECKING:``. Each is resolved to the cgtalg modules
it executes: ``import a.b.c`` runs the packages ``a``, ``a.b`` and the module ``a.b.c``;
``from a.b import c`` runs ``a.b`` and, when ``c`` is a submodule, ``a.b.c``. A package that
encloses the importing module is not an edge when it is only passed through (it was imported
before its submodule), but it is when a name is taken from it (``from cgtalg.core import parse``
inside ``cgtalg.core`` needs the package's ``__init__`` to have run).

The cycle finder is checked on small graphs, and on the package with the nimber cycle the
file-size split made (``cgtalg.nimbers.nimber`` re-exporting ``cgtalg.nimbers.nimber_ops``,
which imports the class from it) put back into ``nimber.py``'s source.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cgtalg"


# -- reading the package ------------------------------------------------------------------------
def module_files(package: pathlib.Path = PACKAGE) -> dict[str, pathlib.Path]:
    """Dotted module name -> source file, for every ``.py`` file of the package."""
    out: dict[str, pathlib.Path] = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if "__pycache__" in parts:
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def extension_modules(package: pathlib.Path = PACKAGE) -> set[str]:
    """Dotted names of the compiled modules (``_nimc``, ``_pgc``, ...): modules without edges."""
    out = set()
    for path in package.rglob("*.so"):
        parts = path.relative_to(package.parent).parts
        out.add(".".join(parts[:-1] + (path.name.split(".")[0],)))
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_time_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of ``tree`` that run when the module is imported."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.stmt] = list(reversed(tree.body))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue  # runs when called
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(reversed(node.orelse))  # only the else branch runs
            continue
        children: list[ast.stmt] = []
        for field in ("body", "handlers", "orelse", "finalbody", "cases"):
            for child in getattr(node, field, ()) or ():
                if isinstance(child, (ast.ExceptHandler, ast.match_case)):
                    children.extend(child.body)
                elif isinstance(child, ast.stmt):
                    children.append(child)
        todo.extend(reversed(children))
    return found


def _is_package(name: str, modules: dict[str, pathlib.Path]) -> bool:
    return name in modules and modules[name].name == "__init__.py"


def resolve(module: str, stmt: ast.Import | ast.ImportFrom, modules: dict[str, pathlib.Path],
            extensions: frozenset[str] | set[str] = frozenset()) -> set[str]:
    """The cgtalg modules that ``stmt``, run inside ``module``, imports (edges of the graph)."""
    known = set(modules) | set(extensions)
    ancestors = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)}
    if _is_package(module, modules):
        ancestors.add(module)  # a package's own __init__ is running: importing it is no edge

    def passed(dotted: str) -> set[str]:
        # the packages on the way to ``dotted`` and ``dotted`` itself, less the enclosing ones
        parts = dotted.split(".")
        chain = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
        return {m for m in chain if m in known and m not in ancestors}

    out: set[str] = set()
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            out |= passed(alias.name)
        return out
    if stmt.level:
        base = module.split(".") if _is_package(module, modules) else module.split(".")[:-1]
        base = base[: len(base) - (stmt.level - 1)]
        source = ".".join(base + ([stmt.module] if stmt.module else []))
    else:
        source = stmt.module or ""
    if not (source == "cgtalg" or source.startswith("cgtalg.")):
        return out
    out |= passed(source)
    took_a_name = False
    for alias in stmt.names:
        sub = f"{source}.{alias.name}"
        if sub in known:
            if sub != module:
                out.add(sub)
        else:
            took_a_name = True  # an attribute of ``source``: its __init__ must have run
    if took_a_name and source in known and source != module:
        out.add(source)
    return out


def import_graph(package: pathlib.Path = PACKAGE,
                 replace: dict[str, str] | None = None) -> dict[str, set[str]]:
    """module -> the cgtalg modules its import-time statements import. ``replace`` gives the
    source text to read for some modules instead of their files."""
    modules = module_files(package)
    extensions = extension_modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        text = (replace or {}).get(name)
        tree = ast.parse(path.read_text() if text is None else text, filename=str(path))
        edges: set[str] = set()
        for stmt in import_time_imports(tree):
            edges |= resolve(name, stmt, modules, extensions)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as ``[a, b, ..., a]`` (each step an edge), or None when it has none.
    Iterative depth-first search (white / grey / black), nodes and edges in sorted order."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    for root in sorted(graph):
        if state.get(root):
            continue
        path: list[str] = [root]
        iters = [iter(sorted(graph.get(root, ())))]
        state[root] = 1
        while iters:
            nxt = next(iters[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                iters.pop()
                continue
            seen = state.get(nxt)
            if seen == 1:
                return path[path.index(nxt):] + [nxt]
            if seen is None:
                state[nxt] = 1
                path.append(nxt)
                iters.append(iter(sorted(graph.get(nxt, ()))))
    return None


# -- the cycle finder --------------------------------------------------------------------------
def _is_cycle_of(cycle: list[str], graph: dict[str, set[str]]) -> bool:
    return (len(cycle) >= 2 and cycle[0] == cycle[-1]
            and all(b in graph.get(a, ()) for a, b in zip(cycle, cycle[1:])))


def _has_cycle_brute(graph: dict[str, set[str]]) -> bool:
    """A cycle exists iff some node reaches itself (reachability by repeated expansion)."""
    for start in graph:
        reached: set[str] = set()
        frontier = set(graph[start])
        while frontier:
            if start in frontier:
                return True
            reached |= frontier
            frontier = {b for a in frontier for b in graph.get(a, ())} - reached
    return False


def test_find_cycle_on_small_graphs():
    assert find_cycle({}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b", "c"}, "b": {"d"}, "c": {"d"}, "d": set()}) is None  # a diamond
    assert find_cycle({"a": {"a"}}) == ["a", "a"]
    ring = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    cycle = find_cycle(ring)
    assert cycle is not None and _is_cycle_of(cycle, ring) and set(cycle) == {"a", "b", "c"}


def test_find_cycle_agrees_with_reachability():
    import random

    rng = random.Random(33)
    for _ in range(300):
        n = rng.randint(1, 7)
        nodes = [f"m{i}" for i in range(n)]
        graph = {a: {b for b in nodes if rng.random() < 0.25} for a in nodes}
        cycle = find_cycle(graph)
        assert (cycle is not None) == _has_cycle_brute(graph), graph
        if cycle is not None:
            assert _is_cycle_of(cycle, graph), (graph, cycle)


# -- reading imports ---------------------------------------------------------------------------
_SAMPLE = '''
from __future__ import annotations
import os
from typing import TYPE_CHECKING
from cgtalg.errors import ArgumentError
from cgtalg.core import game
from . import sibling
from .sibling import name
import cgtalg.normal.partizan as P
try:
    from cgtalg.nimbers import nimber
except ImportError:
    from cgtalg.data import tables
if TYPE_CHECKING:
    from cgtalg.store import Store
else:
    from cgtalg.caches import register_cache
class Holder:
    from cgtalg.hooks import position_game
    def method(self):
        from cgtalg.viz import html
def later():
    import cgtalg.cli.main
'''


def test_import_time_statements_and_their_modules():
    modules = {m: pathlib.Path(f"{m.replace('.', '/')}.py") for m in (
        "cgtalg.errors", "cgtalg.core.game", "cgtalg.core.sibling", "cgtalg.core.here",
        "cgtalg.normal.partizan", "cgtalg.nimbers.nimber", "cgtalg.data", "cgtalg.store",
        "cgtalg.caches", "cgtalg.hooks", "cgtalg.viz.html", "cgtalg.cli.main")}
    for pkg in ("cgtalg", "cgtalg.core", "cgtalg.normal", "cgtalg.nimbers", "cgtalg.viz", "cgtalg.cli"):
        modules[pkg] = pathlib.Path(f"{pkg.replace('.', '/')}/__init__.py")
    stmts = import_time_imports(ast.parse(_SAMPLE))
    edges = set().union(*(resolve("cgtalg.core.here", s, modules) for s in stmts))
    # the enclosing packages cgtalg and cgtalg.core are passed through, not edges; the store
    # (TYPE_CHECKING), the drawing (a method) and the CLI (a function) are not imported
    assert edges == {"cgtalg.errors", "cgtalg.core.game", "cgtalg.core.sibling", "cgtalg.normal",
                     "cgtalg.normal.partizan", "cgtalg.nimbers", "cgtalg.nimbers.nimber",
                     "cgtalg.data", "cgtalg.caches", "cgtalg.hooks"}
    # a name taken from an enclosing package needs its __init__: an edge
    taken = ast.parse("from cgtalg.core import parse").body[0]
    assert resolve("cgtalg.core.here", taken, modules) == {"cgtalg.core"}


# -- the package -------------------------------------------------------------------------------
def test_the_package_has_no_module_level_import_cycle():
    graph = import_graph()
    assert "cgtalg.core.game" in graph and "cgtalg.nimbers.nimber" in graph
    assert sum(map(len, graph.values())) > 200  # the reader found the package's imports
    cycle = find_cycle(graph)
    assert cycle is None, "module-level import cycle: " + " -> ".join(cycle)


def test_the_old_nimber_cycle_would_be_found():
    """Put back the re-export ``nimber.py`` had at its end: the cycle nimber -> nimber_ops ->
    nimber is found."""
    path = PACKAGE / "nimbers" / "nimber.py"
    old = path.read_text() + "\nfrom cgtalg.nimbers.nimber_ops import nim_add, nim_mul  # noqa: E402\n"
    graph = import_graph(replace={"cgtalg.nimbers.nimber": old})
    assert "cgtalg.nimbers.nimber" in graph["cgtalg.nimbers.nimber_ops"]
    cycle = find_cycle(graph)
    assert cycle is not None and _is_cycle_of(cycle, graph)
    assert {"cgtalg.nimbers.nimber", "cgtalg.nimbers.nimber_ops"} <= set(cycle)

