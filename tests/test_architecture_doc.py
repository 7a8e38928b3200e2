"""docs/architecture.md says what the code is: each statement that can drift is read from the page
and checked against the code (issue 33: "docs/architecture.md redrawn from the code, ... every
statement true").

- the layers table and the picture's table name exactly the packages of the import-linter
  contract, in its order, with the two rooms of the rulesets; the module counts are the code's;
- no folder holds more than 25 modules, no file of the library more than 800 lines;
- the registration points listed are exactly ``cgtalg.hooks.hooks``, each filled by what the
  page says;
- the C kernels named are exactly those the build hook compiles, and one loader serves them;
- the worked example of an octal-like ruleset runs as printed, and its Grundy values and misère
  outcomes agree with brute force from its rules and with the hexadecimal code ``0x0.F`` it is.
"""

from __future__ import annotations

import functools
import importlib
import pathlib
import re
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
ROOMS = ("cgtalg.rulesets.heaps", "cgtalg.rulesets.partizan")


def contract_layers() -> list[list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (layers,) = [c["layers"] for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    return [[p.strip() for p in re.split(r"[:|]", layer)] for layer in layers]


def section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.find("\n## ", start + len(title))
    return DOC[start:] if end < 0 else DOC[start:end]


def table_rows(text: str) -> list[list[str]]:
    rows = [[c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))] for line in text.splitlines()
            if line.startswith("|") and not line.startswith("| ---")]
    return rows[1:]  # without the header


def modules_of(package: str) -> list[pathlib.Path]:
    """The modules drawn in the box of ``package`` (its own folder; the rooms apart)."""
    path = ROOT / pathlib.Path(*package.split("."))
    if path.is_dir():
        return sorted(p for p in path.glob("*.py"))
    return [path.with_suffix(".py")]


def test_the_layers_table_is_the_contract():
    rows = table_rows(section("## The layers").split("\n### ")[0])
    layers = contract_layers()
    assert len(rows) == len(layers)
    for (number, packages, _what), layer in zip(rows, layers):
        named = re.findall(r"`(cgtalg\.[a-z_.]+)`", packages)
        assert [p for p in named if p not in ROOMS] == layer, (number, packages)
    rooms = re.findall(r"`(cgtalg\.rulesets\.[a-z]+)`", section("## The layers"))
    assert set(ROOMS) <= set(rooms)


def test_the_picture_table_is_the_code():
    rows = table_rows(section("## The picture"))
    layers = contract_layers()
    expected = []
    for i, layer in enumerate(layers):
        level = len(layers) - 1 - i
        for p in layer:
            expected.append((str(level), p))
            expected += [(str(level), r) for r in ROOMS if r.startswith(p + ".")]
    assert [(r[0], r[1].strip("`")) for r in rows] == expected
    for row in rows:
        package = row[1].strip("`")
        assert int(row[2]) == len(modules_of(package)), f"{package}: regenerate with tools/architecture_picture.py"
    assert (ROOT / "docs" / "architecture.svg").exists()


def test_no_crowded_folder_and_no_long_file():
    for folder in (ROOT / "cgtalg").rglob("*"):
        if folder.is_dir() and folder.name != "__pycache__":
            assert len(list(folder.glob("*.py"))) <= 25, folder
    for path in (ROOT / "cgtalg").rglob("*.py"):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 800, path


def test_the_registration_points_are_the_hooks():
    from cgtalg import hooks

    rows = table_rows(section("### Registration points"))
    named = {r[0].strip("`"): r[2] for r in rows}
    assert set(named) == set(hooks.hooks) and len(hooks.hooks) == 4
    assert "There are four" in section("### Registration points")
    import cgtalg  # noqa: F401  (the package root fills the hooks)

    for name, filled_by in named.items():
        ref = re.search(r"`([a-z_.]+(?::[a-z_]+)?)`", filled_by).group(1)
        assert hooks.hooks[name]._ref == ref or hooks.hooks[name]._impl is not None, (name, ref)
        module, _, attr = ref.partition(":")
        target = importlib.import_module(module)
        assert hooks.hooks[name].resolve() is (getattr(target, attr) if attr else target)


def test_the_c_kernels_are_those_the_build_compiles():
    sys.path.insert(0, str(ROOT))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(ROOT))
    built = {str(src.parent).replace("\\", "/") + "/" + src.stem for src, _macro in hatch_build.KERNELS}
    text = section("## Start-up, kernels and packaging")
    named = set(re.findall(r"`(cgtalg/[a-z/]+/_[a-z]+)\*\.c`", text))
    assert named == built
    assert "The C kernels are four" in text and len(built) == 4
    from cgtalg.ckernel import CompiledKernel

    for module in ("cgtalg.nimbers.compiled", "cgtalg.quotients.kernel", "cgtalg.normal.partizan_kernel",
                   "cgtalg.rulesets.heaps.heap_kernel"):
        wrapper = importlib.import_module(module)
        assert isinstance(wrapper.KERNEL, CompiledKernel)
        assert wrapper.status() == wrapper.KERNEL.status()


def test_the_budget_word():
    from cgtalg.cli import common

    text = section("### Shared services at the bottom")
    for name in ("time_option", "time_parts_option", "add_time_arguments"):
        assert f"cli.common.{name}" in text and hasattr(common, name)


# -- the worked example -------------------------------------------------------------------------

def example_source() -> str:
    text = section("### Adding an octal-like ruleset")
    return re.search(r"```python\n(.*?)```", text, re.S).group(1)


@functools.lru_cache(maxsize=None)
def brute_options(n: int) -> tuple[tuple[int, ...], ...]:
    """Take one token, leave the rest as one, two or three nonempty heaps (written out again)."""
    if n < 1:
        return ()
    rest = n - 1
    if rest == 0:
        return ((),)
    out = set()
    for a in range(1, rest + 1):
        if a == rest:
            out.add((a,))
        for b in range(a, rest - a + 1):
            if a + b == rest:
                out.add((a, b))
            c = rest - a - b
            if c >= b:
                out.add((a, b, c))
    return tuple(sorted(out))


@functools.lru_cache(maxsize=None)
def brute_grundy(n: int) -> int:
    values = set()
    for parts in brute_options(n):
        x = 0
        for p in parts:
            x ^= brute_grundy(p)
        values.add(x)
    g = 0
    while g in values:
        g += 1
    return g


@functools.lru_cache(maxsize=None)
def brute_misere_wins(heaps: tuple[int, ...]) -> bool:
    """Whether the player to move wins the sum of heaps in misère play, by plain recursion."""
    moves = []
    for i, h in enumerate(heaps):
        for parts in brute_options(h):
            moves.append(tuple(sorted(heaps[:i] + heaps[i + 1:] + parts)))
    if not moves:
        return True  # no move: the player to move has won in misère play
    return any(not brute_misere_wins(m) for m in moves)


def test_the_worked_example_runs_and_is_right(monkeypatch):
    import cgtalg as cg
    from cgtalg.rulesets import registry
    from cgtalg.rulesets.registry import register_ruleset

    registry.available_rulesets()  # the built-ins registered first; the example's name is undone after
    monkeypatch.setattr(registry, "_NAMED", dict(registry._NAMED))

    namespace: dict = {}
    exec(compile(example_source(), "docs/architecture.md", "exec"), namespace)
    ThreeSplit = namespace["ThreeSplit"]
    register_ruleset("threesplit", ThreeSplit, "take one, split in up to three", replace=True)
    rs = ThreeSplit()
    for n in range(14):
        assert tuple(sorted(tuple(sorted(o)) for o in rs.heap_options(n))) == brute_options(n)
        assert cg.grundy(cg.position("threesplit", (n,))) == brute_grundy(n)
    hexcode = cg.TakeAndBreak("0x0.F")
    assert [cg.grundy(cg.position("0x0.F", (n,))) for n in range(14)] == [brute_grundy(n) for n in range(14)]
    assert rs.facts == hexcode.facts
    for heaps in [(3,), (4,), (2, 2), (5, 1), (3, 3, 1), (6, 4)]:
        expected = "N" if brute_misere_wins(tuple(sorted(heaps))) else "P"
        assert cg.outcome(cg.position("threesplit", heaps), misere=True) == expected, heaps
