"""The house is layered (BRIEF.md, STYLE.md): core <- bots <- sim <- the faces <- cli, and
nothing imports upward. Read from the source itself, every import counted, those inside
functions too (a lazy import is still a dependency)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "lald"

#: Each top-level part of ``lald`` and its layer: a module may import only parts of a lower
#: layer, and its own part.
LAYERS: dict[str, int] = {
    "core": 0,                                   # the game: standard library only
    "i18n": 1, "record": 1, "bots": 1,           # catalogs, records, players: on the core
    "narrate": 2,                                # the game in words (catalogs and core)
    "args": 2,                                   # the command line's shared flags (bots' levels)
    "sim": 3,                                    # play loops, tournaments
    "store": 4,                                  # the database, under the web
    "tui": 5, "web": 5, "rl": 5,                 # the faces
    "cli": 6,                                    # the command: the top of the house
    "__main__": 7,                               # ``python -m lald`` runs the command
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path) -> set[str]:
    """Every ``lald`` module that ``name`` imports, relative imports resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)  # `from . import x`
    modules = _modules()
    return {m for m in found if m in modules and m != name}


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


MODULES = _modules()


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {_part(m) for m in MODULES} - {""}
    assert parts <= LAYERS.keys(), f"give {sorted(parts - LAYERS.keys())} a layer in LAYERS"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_only_go_down(module: str) -> None:
    part = _part(module)
    if not part:
        assert _imports(module, MODULES[module]) == set()  # lald/__init__.py: just the version
        return
    for target in sorted(_imports(module, MODULES[module])):
        other = _part(target)
        if other == part or not other:
            continue
        assert LAYERS[other] < LAYERS[part], f"{module} imports {target}, which is not below it"


def test_nothing_imports_the_command_line() -> None:
    importers = sorted(m for m in MODULES if "lald.cli" in _imports(m, MODULES[m]))
    assert importers == ["lald.__main__"]


def test_the_checker_sees_an_upward_import(tmp_path: Path) -> None:
    # The test above must be able to fail: an import of the command from the argument
    # helpers, written both ways, is found.
    probe = tmp_path / "lald" / "sim" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("def f():\n    from ..cli import main\n    import lald.tui.app\n")
    assert _imports("lald.sim.probe", probe) >= {"lald.cli", "lald.tui.app"}
