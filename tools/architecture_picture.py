"""Draw cgtalg's packages and their layers from the code (docs/architecture.md, "The picture").

Reads the layers of the import-linter contract in ``pyproject.toml``, builds the import graph of
the installed tree with grimp (the library import-linter itself uses: every import, at module
level or inside a function), and draws one box per package -- its modules and lines of Python --
in its layer's row, with an arrow from each package to each package it imports, labelled with
the number of module-to-module imports. An arrow that runs up a layer is drawn red (the contract
forbids it, so there should be none).

Run:  python tools/architecture_picture.py [--svg docs/architecture.svg] [--markdown]

``--markdown`` prints the table of packages (layer, modules, lines, what it imports) that
docs/architecture.md shows beside the picture.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: packages drawn apart from their parent package (rooms inside a layer)
SUBPACKAGES = ("cgtalg.rulesets.heaps", "cgtalg.rulesets.partizan")


def layers() -> list[list[str]]:
    """The layers of the contract "cgtalg layers", top first, each a list of packages."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract["type"] == "layers":
            return [[p.strip() for p in layer.replace("|", ":").split(":")] for layer in contract["layers"]]
    raise SystemExit("no layers contract in pyproject.toml")


def package_of(module: str, packages: list[str]) -> str | None:
    """The most specific drawn package holding ``module``."""
    best = None
    for p in packages:
        if module == p or module.startswith(p + "."):
            if best is None or len(p) > len(best):
                best = p
    return best


def survey() -> tuple[list[list[str]], dict[str, tuple[int, int]], collections.Counter]:
    """(layers, package -> (modules, lines), (importer package, imported package) -> imports)."""
    import grimp

    if str(ROOT) not in sys.path:  # grimp finds the package on sys.path: this checkout's
        sys.path.insert(0, str(ROOT))
    rows = layers()
    for sub in SUBPACKAGES:
        for row in rows:
            if any(sub.startswith(p + ".") for p in row):
                row.append(sub)
    packages = [p for row in rows for p in row]
    sizes: dict[str, list[int]] = {p: [0, 0] for p in packages}
    for path in (ROOT / "cgtalg").rglob("*.py"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        p = package_of(module, packages)
        if p is not None:
            sizes[p][0] += 1
            sizes[p][1] += len(path.read_text(encoding="utf-8").splitlines())
    graph = grimp.build_graph("cgtalg", cache_dir=None)
    edges: collections.Counter = collections.Counter()
    for module in graph.modules:
        a = package_of(module, packages)
        if a is None:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            b = package_of(imported, packages)
            if b is not None and b != a and not (b.startswith(a + ".") or a.startswith(b + ".")):
                edges[(a, b)] += 1
    return rows, {p: (m, n) for p, (m, n) in sizes.items()}, edges


def level(rows: list[list[str]]) -> dict[str, int]:
    """package -> its layer's index (0 = top)."""
    return {p: i for i, row in enumerate(rows) for p in row}


def markdown(rows, sizes, edges) -> str:
    lv = level(rows)
    out = ["| layer | package | modules | lines | imports from |", "| --- | --- | ---: | ---: | --- |"]
    for i, row in enumerate(rows):
        for p in row:
            uses = sorted({b for (a, b) in edges if a == p}, key=lambda b: (lv[b], b))
            names = ", ".join(f"`{b.removeprefix('cgtalg.')}`" for b in uses) or "—"
            out.append(f"| {len(rows) - 1 - i} | `{p}` | {sizes[p][0]} | {sizes[p][1]:,} | {names} |")
    return "\n".join(out)


def draw(rows, sizes, edges, path: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "cgtalg"
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: a small, searchable file
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    lv = level(rows)
    width = max(len(r) for r in rows)
    fig, ax = plt.subplots(figsize=(2.3 * width + 1.5, 1.25 * len(rows) + 0.5))
    pos = {}
    for i, row in enumerate(rows):
        y = len(rows) - 1 - i
        for j, p in enumerate(row):
            x = (j - (len(row) - 1) / 2) * 2.3
            pos[p] = (x, y)
            ax.add_patch(FancyBboxPatch((x - 1.0, y - 0.3), 2.0, 0.6, boxstyle="round,pad=0.02",
                                        fc="#eef3fb" if p not in SUBPACKAGES else "#f6f0e6", ec="#3a5a8c"))
            ax.text(x, y + 0.08, p.removeprefix("cgtalg."), ha="center", va="center", fontsize=8.5, weight="bold")
            ax.text(x, y - 0.14, f"{sizes[p][0]} modules, {sizes[p][1]:,} lines", ha="center", va="center",
                    fontsize=6.5, color="#444")
        ax.text(-(width / 2) * 2.3 - 0.4, y, f"layer {y}", ha="right", va="center", fontsize=8, color="#666")
    for (a, b), n in sorted(edges.items()):
        (x1, y1), (x2, y2) = pos[a], pos[b]
        up = lv[b] < lv[a]
        if y1 == y2 or y2 == 0:
            # a package of the same layer, or the services at the bottom that every layer uses
            # (allowed; not drawn, to keep the picture legible: the table lists them)
            continue
        arrow = FancyArrowPatch((x1, y1 - 0.3 if y2 < y1 else y1 + 0.3), (x2, y2 + 0.3 if y2 < y1 else y2 - 0.3),
                                arrowstyle="-|>", mutation_scale=7, lw=0.35 + 0.12 * min(n, 20) ** 0.5,
                                color="#c0392b" if up else "#7f8c8d", alpha=0.55, connectionstyle="arc3,rad=0.06")
        ax.add_patch(arrow)
    ax.set_xlim(-(width / 2) * 2.3 - 1.6, (width / 2) * 2.3 + 0.2)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.axis("off")
    ax.set_title("cgtalg: packages by layer, from the code (arrows: imports; those into layer 0 left out)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--svg", type=pathlib.Path, default=None, help="write the picture here")
    ap.add_argument("--markdown", action="store_true", help="print the table of packages")
    args = ap.parse_args(argv)
    rows, sizes, edges = survey()
    up = [(a, b) for (a, b) in edges if level(rows)[b] < level(rows)[a]]
    if args.svg:
        draw(rows, sizes, edges, args.svg)
        print(f"wrote {args.svg}", file=sys.stderr)
    if args.markdown or not args.svg:
        print(markdown(rows, sizes, edges))
    if up:
        print(f"imports running up a layer: {up}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
