"""asobiba's modules import one another without a circle (docs/ARCHITECTURE.md, "Server").

What counts as an import: every ``import`` and ``from ... import`` in a module's source, at its top,
inside a function (a lazy import), or under ``if TYPE_CHECKING:``. Lazy and type-only imports only
hide a circle from the interpreter: the two modules still need each other to be read or changed.
An import names one module: ``from package import name`` is the submodule ``package.name`` where
there is one (a compiled extension too), else ``package`` itself; the parent packages whose
``__init__`` Python runs first are not counted, or every package that re-exports its own modules
would be a circle.
"""

from __future__ import annotations

import ast
import importlib.machinery
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).parents[1] / "asobiba"


def _modules() -> dict[str, Path | None]:
    """Every module of asobiba: its source, or None for a compiled extension (built, or
    known by its stub where this install has no compiler)."""
    found: dict[str, Path | None] = {}
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT.parent).parts
        if path.suffix == ".py":
            name = parts[:-1] if path.stem == "__init__" else (*parts[:-1], path.stem)
            found[".".join(name)] = path
        elif path.suffix == ".pyi":
            found.setdefault(".".join((*parts[:-1], path.stem)), None)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            if path.name.endswith(suffix):
                found.setdefault(".".join((*parts[:-1], path.name[: -len(suffix)])), None)
    return found


def _imports(module: str, path: Path, known: dict[str, Path | None]) -> set[str]:
    """The asobiba modules ``module`` imports anywhere in its source."""
    package = module if path.stem == "__init__" else module.rpartition(".")[0]
    named: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = parts[: len(parts) - node.level + 1] if node.level else []
            origin = ".".join([*base, *filter(None, [node.module])])
            for alias in node.names:
                submodule = f"{origin}.{alias.name}"
                named.add(submodule if submodule in known else origin)
    return {name for name in named if name in known and name != module}


def import_graph() -> dict[str, set[str]]:
    known = _modules()
    return {
        module: _imports(module, path, known) for module, path in known.items() if path is not None
    }


def test_the_graph_sees_lazy_type_only_and_compiled_imports() -> None:
    graph = import_graph()
    assert "asobiba.server.rooms.room" in graph["asobiba.server.rooms.hub"]
    assert "asobiba.games.mancala._kernel" in graph["asobiba.games.mancala.native"]  # lazy
    assert "asobiba.server.rooms.room" in graph["asobiba.server.cluster.switchboard"]  # typing


def test_no_module_imports_itself_through_others() -> None:
    try:
        TopologicalSorter(import_graph()).prepare()
    except CycleError as error:
        circle = " -> ".join(error.args[1])
        raise AssertionError(f"an import circle: {circle}") from None
