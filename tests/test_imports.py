"""Imports point one way: no circles, and no floor imports from a floor above it.

Walks every ``import`` and ``from ... import`` in ``midgardc/`` with ``ast``, including
imports inside functions (they run later, but they run) and those under
``if TYPE_CHECKING:``. The floors are the map in docs/design.md ("Package map"), written
once here: a module may import from its own floor and the floors below it, never from a
floor above. Circles are checked between modules: two modules of one floor may depend on
each other one way only. An import under ``if TYPE_CHECKING:`` names a type for an
annotation and never runs, so it must respect the floors but does not count towards a
circle (a helper may name the type of the object it is handed while that object's module
imports the helper).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "midgardc"

# The floors, lowest first (docs/design.md, "Package map"). An entry names a package or a
# module; a module belongs to the longest entry that is a prefix of its dotted name.
FLOORS: list[tuple[str, ...]] = [
    ("midgardc", "midgardc.errors", "midgardc.fileio", "midgardc.progress", "midgardc.spec.yamlpos"),
    ("midgardc.ir",),
    ("midgardc.board",),
    ("midgardc.conditions",),
    ("midgardc.spec",),
    ("midgardc.runtime", "midgardc.compiler"),
    ("midgardc.players",),
    ("midgardc.matches",),
    ("midgardc.render", "midgardc.research", "midgardc.web", "midgardc.batch", "midgardc.openspiel", "midgardc.pettingzoo", "midgardc.gymnasium"),
    ("midgardc.cli", "midgardc.cli_errors", "midgardc.cli_options"),
    ("midgardc.safety",),
]

# Known circles, each a sorted tuple of modules, that another branch removes; empty when
# there are none. The integrator deletes an entry once its fix is merged.
# (matches/record.py, runner.py and tally.py name each other's types, but only under
# TYPE_CHECKING: branch ranks moves the shared result type below them.)
KNOWN_CIRCLES: set[tuple[str, ...]] = set()


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _type_checking_lines(tree: ast.AST) -> set[int]:
    """Line numbers of statements inside ``if TYPE_CHECKING:`` blocks."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
            (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
            or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
        ):
            for stmt in node.body:
                for sub in ast.walk(stmt):
                    if hasattr(sub, "lineno"):
                        lines.add(sub.lineno)
    return lines


def _owner(name: str) -> str | None:
    """The module of ours that importing ``name`` loads (a name inside a module: that module)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports() -> list[tuple[str, str, int, bool]]:
    """(importer, imported, line, type_only) for every import of one of our modules by another."""
    edges = []
    for mod, path in MODULES.items():
        tree = ast.parse(path.read_text(), str(path))
        is_package = path.name == "__init__.py"
        type_only = _type_checking_lines(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = mod.split(".") if is_package else mod.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    origin = ".".join(base + ([node.module] if node.module else []))
                else:
                    origin = node.module or ""
                # ``from pkg import sub`` loads the submodule; ``from mod import name``, the module
                names = [f"{origin}.{a.name}" if f"{origin}.{a.name}" in MODULES else origin for a in node.names]
            else:
                continue
            for name in names:
                target = _owner(name)
                if target is not None and target != mod:
                    edges.append((mod, target, node.lineno, node.lineno in type_only))
    return edges


def floor_of(module: str) -> int:
    best, floor = -1, None
    for i, entries in enumerate(FLOORS):
        for entry in entries:
            if (module == entry or module.startswith(entry + ".")) and len(entry) > best:
                best, floor = len(entry), i
    assert floor is not None, f"{module} is on no floor: add it to FLOORS and to docs/design.md"
    return floor


def circles(edges) -> list[tuple[str, ...]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for a, b, _, type_only in edges:
        if not type_only:
            graph[a].add(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

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
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(tuple(sorted(comp)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_walk_sees_imports_of_every_kind():
    edges = {(a, b): type_only for a, b, _, type_only in imports()}
    # module level, relative
    assert ("midgardc.spec.lower", "midgardc.conditions.parse") in edges
    # inside a function
    assert ("midgardc.runtime.game", "midgardc.spec.ircache") in edges
    # type-only, marked so
    assert edges[("midgardc.render.svg", "midgardc.runtime.game")] is True


def test_a_circle_and_an_upward_import_would_be_caught():
    fake = [("midgardc.errors", "midgardc.fileio", 1, False), ("midgardc.fileio", "midgardc.errors", 1, False)]
    assert ("midgardc.errors", "midgardc.fileio") in circles(fake)
    assert circles([(a, b, n, True) for a, b, n, _ in fake]) == []  # type-only: not a circle
    assert floor_of("midgardc.runtime.view") < floor_of("midgardc.render.svg")
    assert floor_of("midgardc.spec.yamlpos") < floor_of("midgardc.board.topology") < floor_of("midgardc.spec.lower")


def test_every_module_is_on_a_floor():
    for module in MODULES:
        floor_of(module)


def test_no_import_reaches_up_a_floor():
    upward = sorted({
        f"{path}:{line}: {a} imports {b} (floor {floor_of(a)} reaching up to floor {floor_of(b)})"
        for a, b, line, _ in imports()
        for path in [MODULES[a].relative_to(PACKAGE.parent)]
        if floor_of(b) > floor_of(a)
    })
    assert not upward, "imports must point down the package map (docs/design.md):\n" + "\n".join(upward)


def test_no_circles():
    edges = imports()
    unexpected = []
    for comp in circles(edges):
        if comp in KNOWN_CIRCLES:
            continue
        lines = sorted({f"  {MODULES[a].relative_to(PACKAGE.parent)}:{line} imports {b}" for a, b, line, t in edges if a in comp and b in comp and not t})
        unexpected.append(" <-> ".join(comp) + "\n" + "\n".join(lines))
    assert not unexpected, "import circles:\n" + "\n".join(unexpected)


@pytest.mark.parametrize("known", sorted(KNOWN_CIRCLES))
def test_known_circles_are_still_there(known):
    """An allow-list entry that no longer matches must be deleted (so the list cannot rot)."""
    assert known in circles(imports()), f"{known} is no longer a circle: remove it from KNOWN_CIRCLES"


def test_the_floors_are_the_ones_the_design_map_draws():
    """docs/design.md's package map names the packages in this order (so the two cannot drift)."""
    text = (PACKAGE.parent / "docs" / "design.md").read_text()
    start = text.index("## Package map")
    block = text[start : text.index("```", text.index("```", start) + 3)]
    order = [line.split()[0] for line in block.splitlines() if line[:1].isdigit()]
    drawn = [tuple(w.removesuffix(".py").rstrip("/") for w in line.split("|")[0].split()[1:]) for line in block.splitlines() if line[:1].isdigit()]
    assert [int(n) for n in order] == list(range(len(FLOORS)))
    expected = [tuple(sorted(e.removeprefix("midgardc.").replace(".", "/") or "midgardc" for e in entries)) for entries in FLOORS]
    assert [tuple(sorted(d)) for d in drawn] == expected


MAX_LINES = 800
# Modules allowed over MAX_LINES for now (none: cli.py became cli/, a module per concern).
LONG_FOR_NOW: set[str] = set()


def test_modules_are_small_enough_to_hold_in_your_head():
    """No module over 800 lines, unless its docstring says why it must be (it names the limit:
    "over 800 lines")."""
    long = []
    for module, path in MODULES.items():
        lines = path.read_text().count("\n")
        doc = ast.get_docstring(ast.parse(path.read_text())) or ""
        if lines > MAX_LINES and module not in LONG_FOR_NOW and "over 800 lines" not in doc:
            long.append(f"{path.relative_to(PACKAGE.parent)}: {lines} lines")
    assert not long, "split these by concern (or say in the docstring why one must be over 800 lines):\n" + "\n".join(long)


if __name__ == "__main__":  # python tests/test_imports.py: every circle, type-only ones too
    all_edges = imports()
    for label, edges in (("run-time", all_edges), ("counting type-only imports", [(a, b, n, False) for a, b, n, _ in all_edges])):
        found = circles(edges)
        print(f"circles ({label}): {len(found)}")
        for comp in found:
            print("  " + " <-> ".join(comp))
    for a, b, line, _ in sorted(set(all_edges)):
        if floor_of(b) > floor_of(a):
            print(f"upward: {a}:{line} -> {b}")
