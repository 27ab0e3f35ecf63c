"""The house is layered (docs/architecture.md#the-code): the core, the players on it, the capabilities
(one package for each person served), the faces, and the command on top. A module may import
only what lies in a lower layer, or its own part: nothing upward, nothing sideways (no face
imports another face, no capability another capability). A face with sub-packages layers
them the same way (``SUB_LAYERS``: in ``lald.web``, the base, then the live table, the people,
the site of several servers, and the server's HTTP face on top). Read from the source itself,
every import counted, those inside functions too (a lazy import is still a dependency)."""

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
    "stats": 1,                                  # intervals and tests: standard library only
    "clock": 1,                                  # the clock code waits on: standard library only
    "messages": 1,                               # the websocket messages: standard library only
    "narrate": 2,                                # the game in words (catalogs and core)
    "play": 3,                                   # the turn loop, bot specs, batches of deals
    "tournament": 4, "lab": 4, "coach": 4,       # the capabilities, one per person served
    "store": 4,                                  # the database (the web's, on nothing of lald)
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
    probe = tmp_path / "lald" / "play" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("def f():\n    from ..cli import main\n    import lald.tui.fullscreen.app\n")
    assert _imports("lald.play.probe", probe) >= {"lald.cli", "lald.tui.fullscreen.app"}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected parts of two or more modules
    (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _module_graph() -> dict[str, set[str]]:
    """Who imports whom among the modules that are not a package's ``__init__``: a package
    may name its members (and make the plug-in levels on first use) without that counting
    as a circle, but no two modules may need each other."""
    plain = {m for m, path in MODULES.items() if path.name != "__init__.py"}
    return {m: _imports(m, MODULES[m]) & plain for m in plain}


def test_no_two_modules_import_each_other() -> None:
    assert _cycles(_module_graph()) == []


def test_the_circle_finder_sees_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


TESTS = SRC.parent / "tests"
#: Top-level test files that check the house as a whole, not one module of it.
WHOLE = {"test_docs", "test_layers", "test_suite", "test_window_faces"}


def test_the_test_tree_mirrors_the_source_tree() -> None:
    # tests/PART/ holds the tests of the package lald.PART; tests/test_NAME.py those of the
    # module lald.NAME (or of the whole house); so the tests of any change are in one place.
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and any(p.glob("test_*.py"))}
    assert folders <= packages, f"{sorted(folders - packages)} name no package of lald"
    files = {p.stem.removeprefix("test_") for p in TESTS.glob("test_*.py")}
    assert files - {w.removeprefix("test_") for w in WHOLE} <= modules, "a test file names no module"


#: The parts of the faces that have sub-packages, and their layers (docs/architecture.md#the-code):
#: as between the parts of ``lald``, a module may import only a lower part or its own,
#: never upward nor sideways.
SUB_LAYERS: dict[str, dict[str, int]] = {
    # lald.rl: a deal as one-seat decisions at the bottom; the vectorized environment on it
    # (its pure tables are deals); the library adapters and the training on those, neither
    # on the other; the environments' version and fingerprint on top. The observation
    # encoding and the levels that play what was learned are players: lald.bots.learned.
    "rl": {
        "deal": 0,                               # a deal as decisions, the claim window, rewards
        "vector": 1,                             # N tables in one call (C, with its pure twin)
        "adapters": 2, "training": 2,            # PettingZoo, Gymnasium, OpenSpiel; self-play
        "benchmark": 3,                          # the environments' version and fingerprint
    },
    # lald.tui: the table's driver and words, shared; on them the full-screen Textual table
    # and the tables as lines of text (--plain, --online), neither on the other.
    "tui": {
        "": 0,                                   # its own modules: the session, lesson, hint
                                                 # key, words, saves
        "fullscreen": 1,                         # the Textual app, its screens and widgets
        "text": 1,                               # --plain and --online
    },
    # lald.web: its base (settings, ops, wire, endpoint) under everything; the live table and
    # the readings laboratory on it, neither on the other; where strangers meet (the hub,
    # the lobby, accounts, names, ratings) on the table; a site of several servers on the
    # people; and the one server's HTTP face, which wires them all, on top.
    "web": {
        "": 0,                                   # its own modules: the base
        "table": 1, "readings": 1,               # the live table; the laboratory
        "people": 2,                             # where strangers meet
        "site": 3,                               # several servers: cluster, events, proxy
        "server": 4,                             # the app, its endpoints, the websocket
    },
}


def _sub_part(module: str) -> tuple[str, str] | None:
    """The face and the part a module belongs to, for the faces of :data:`SUB_LAYERS`: a
    part named there, else ``""``, the face's own modules."""
    parts = module.split(".")
    if len(parts) < 3 or parts[1] not in SUB_LAYERS:
        return None
    return parts[1], parts[2] if parts[2] in SUB_LAYERS[parts[1]] else ""


@pytest.mark.parametrize("face", sorted(SUB_LAYERS))
def test_every_part_of_a_face_has_a_layer(face: str) -> None:
    parts = {p[1] for m in MODULES if (p := _sub_part(m)) is not None and p[0] == face}
    assert parts == SUB_LAYERS[face].keys(), f"give {sorted(parts ^ SUB_LAYERS[face].keys())} a layer"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _sub_part(m)))
def test_the_parts_of_a_face_import_only_down(module: str) -> None:
    here = _sub_part(module)
    assert here is not None
    layers = SUB_LAYERS[here[0]]
    for target in sorted(_imports(module, MODULES[module])):
        there = _sub_part(target)
        if there is None or there[0] != here[0] or there[1] == here[1]:
            continue
        assert layers[there[1]] < layers[here[1]], f"{module} imports {target}, which is not below it"


@pytest.mark.parametrize("face", ["rl", "tui"])
def test_the_tests_of_a_face_mirror_its_parts(face: str) -> None:
    # tests/rl/vector/ holds the tests of lald.rl.vector, and so on: a folder of tests in a
    # face's folder names one of its sub-packages.
    folders = {p.parent.relative_to(TESTS / face) for p in (TESTS / face).rglob("test_*.py")} - {Path()}
    for folder in sorted(folders):
        assert (PACKAGE / face / folder / "__init__.py").exists(), f"tests/{face}/{folder} names no package"


def test_the_parts_checker_sees_a_sideways_import(tmp_path: Path) -> None:
    # The test above must be able to fail: the text table importing the full-screen one.
    probe = tmp_path / "lald" / "tui" / "text" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from ..fullscreen import app\n")
    target = _sub_part(sorted(_imports("lald.tui.text.probe", probe))[-1])
    assert target == ("tui", "fullscreen")
    assert not SUB_LAYERS["tui"][target[1]] < SUB_LAYERS["tui"]["text"]


def test_the_parts_checker_sees_the_web_import_upward(tmp_path: Path) -> None:
    # The live table may not reach for the people above it, nor (even lazily) for the server:
    # the imports that broke the web's layers before it had sub-packages are found.
    probe = tmp_path / "lald" / "web" / "table" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from ..people.hub import Hub\n\ndef f():\n    from ..server.http import page\n")
    found = {_sub_part(m) for m in _imports("lald.web.table.probe", probe)}
    assert found == {("web", "people"), ("web", "server")}
    assert all(not SUB_LAYERS["web"][part] < SUB_LAYERS["web"]["table"] for _, part in found)


def test_the_levels_plugged_in_are_players_but_ismcts() -> None:
    # learned, guided and policy are players: their entry points name lald.bots, so no
    # face is needed to play them; ismcts is OpenSpiel's search and needs a face's library.
    import tomllib

    project = tomllib.loads((SRC.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    levels = project["entry-points"]["lald.levels"]
    assert {name for name, target in levels.items() if not target.startswith("lald.bots.")} == {"ismcts"}


#: The sub-layers inside ``lald.core``, lowest first: a module of the core imports only from its
#: own sub-layer or a lower one, so the engine never leans on the fast path that is checked
#: against it, and the kernel's loader leans on nothing. ``lald/core/__init__.py`` names the
#: public API from all of them; nothing inside the core imports it.
CORE_LAYERS: dict[str, int] = {
    "compiled": 0,  # the C kernel (``_kernel``), its loader and self-checks: nothing else of lald
    "": 1,          # the vocabulary: cards, rules, actions, codes, scoring, rng (its shuffle asks the kernel)
    "engine": 2,    # the checked engine: state, checks, moves, view, window, session
    "fast": 3,      # the fast path on per-rank counts and its play-outs; it connects the kernel to them
}
#: Compiled extensions of the core, by the sub-layer they belong to.
CORE_EXTENSIONS = {"lald.core._kernel": "compiled"}
CORE = PACKAGE / "core"


def _core_part(module: str) -> str:
    """The sub-layer of a module of ``lald.core``: its sub-package, or "" for a plain module."""
    if module in CORE_EXTENSIONS:
        return CORE_EXTENSIONS[module]
    name = module.split(".")[2]
    return name if (CORE / name).is_dir() else ""


def _core_imports(name: str, path: Path) -> set[str]:
    """What ``name`` imports of ``lald.core``: as :func:`_imports`, but ``from pkg import mod``
    counts ``mod`` alone, and the compiled extensions count."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{target}.{alias.name}"
                found.add(full if full in MODULES or full in CORE_EXTENSIONS else target)
    return {m for m in found if (m in MODULES or m in CORE_EXTENSIONS) and m.startswith("lald.core")} - {name}


CORE_MODULES = sorted(m for m in MODULES if m.startswith("lald.core."))


def test_every_sub_package_of_the_core_has_a_sub_layer() -> None:
    parts = {_core_part(m) for m in CORE_MODULES}
    assert parts <= CORE_LAYERS.keys(), f"give {sorted(parts - CORE_LAYERS.keys())} a sub-layer"


@pytest.mark.parametrize("module", CORE_MODULES)
def test_the_core_imports_only_its_own_sub_layer_or_lower(module: str) -> None:
    """A module of ``lald.core`` imports only from its own sub-layer or a lower one
    (:data:`CORE_LAYERS`: the kernel's loader, the vocabulary, the checked engine, the fast
    path), and never the public names of ``lald/core/__init__.py``."""
    mine = CORE_LAYERS[_core_part(module)]
    for target in sorted(_core_imports(module, MODULES[module])):
        assert target != "lald.core", f"{module} imports lald.core's public names: import their module"
        assert CORE_LAYERS[_core_part(target)] <= mine, f"{module} imports {target}, a higher sub-layer"


def test_the_sub_layer_checker_sees_an_upward_import(tmp_path: Path) -> None:
    # The kernel's loader importing the engine, or the public names, is found; the
    # extension beside it is counted as its own.
    probe = tmp_path / "probe.py"
    probe.write_text("from ..engine.state import State\nfrom .. import _kernel, Rules\n")
    found = _core_imports("lald.core.compiled.probe", probe)
    assert found == {"lald.core.engine.state", "lald.core._kernel", "lald.core"}
    engine, loader = _core_part("lald.core.engine.state"), _core_part("lald.core.compiled.loader")
    assert CORE_LAYERS[engine] > CORE_LAYERS[loader]


#: Every part is held to issue 32's floors: no package of more than 12 modules (``__init__``
#: included), no module of more than 600 lines; a part that outgrows them is split by concept.
SMALL_PARTS = tuple(sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()))


@pytest.mark.parametrize("part", SMALL_PARTS)
def test_packages_and_modules_stay_small(part: str) -> None:
    paths = sorted((PACKAGE / part).rglob("*.py"))
    for folder in sorted({p.parent for p in paths}):
        count = len(list(folder.glob("*.py")))
        assert count <= 12, f"{folder.relative_to(SRC)} has {count} modules: split it into sub-packages"
    for path in paths:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= 600, f"{path.relative_to(SRC)} has {lines} lines: split it by concept"
