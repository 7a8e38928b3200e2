"""Plots of Grundy sequences of heap games, with the rare values of a sparse space marked.

Uses matplotlib's object API with the Agg canvas (no global backend switch, no display
needed). The top panel shows ``G(n)`` against ``n`` (common values as dots, rare values as
red crosses); the bottom panel the number of heaps with each value on a log scale, rare
values in red: the "sparse space" of Winning Ways ch. 4 at a glance.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import numpy as np

__all__ = ["plot_grundy_sequence", "plot_genus_sequence", "rare_mask"]


def rare_mask(values: np.ndarray, mask: int, cbit0: int = 1, cbit1: int = 1) -> np.ndarray:
    """Boolean array: ``True`` where ``G(n)`` is rare for the split ``(mask, cbit0, cbit1)``.

    A value ``v`` is common for heap ``n`` when ``popcount(v & mask) % 2 == cbit[n % 2]``
    (see :class:`cgtalg.rulesets.heaps.games.SparseSplit`). Position 0 is never rare.
    """
    v = np.asarray(values).astype(np.uint64)
    par = (np.bitwise_count(v & np.uint64(mask)) & 1).astype(np.int64)
    cb = np.where(np.arange(v.shape[0]) % 2 == 0, cbit0, cbit1)
    out = par != cb
    if out.shape[0]:
        out[0] = False
    return out


def plot_grundy_sequence(
    values: Sequence[int] | np.ndarray,
    path: str | Path,
    title: str | None = None,
    split: Any = None,
    dpi: int = 120,
) -> Path:
    """Write a PNG plot of a Grundy sequence.

    Parameters
    ----------
    values : array of int
        ``G(0), G(1), ...``.
    path : str or Path
        The PNG file to write.
    title : str, optional
        Plot title (e.g. the code).
    split : SparseSplit, optional
        The rare/common split (``.mask``, ``.cbit0``, ``.cbit1``); rare values are marked.
    dpi : int
        Resolution.

    Returns
    -------
    Path
        The file written.

    Examples
    --------
    >>> import tempfile, os
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> k = TakeAndBreak("0.77"); G = k.grundy_sequence(200)
    >>> p = plot_grundy_sequence(G, os.path.join(tempfile.mkdtemp(), "k.png"), "0.77", k.engine().split)
    >>> p.stat().st_size > 0
    True
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    G = np.asarray(values).astype(np.int64)
    n = np.arange(G.shape[0])
    rare = rare_mask(G, split.mask, split.cbit0, split.cbit1) if split is not None else np.zeros(G.shape[0], bool)
    fig = Figure(figsize=(10, 6.5), dpi=dpi)
    FigureCanvasAgg(fig)
    gs = fig.add_gridspec(2, 1, height_ratios=[3, 1.3], hspace=0.35)
    ax = fig.add_subplot(gs[0])
    big = G.shape[0] > 20000
    common = ~rare
    style = {"marker": ",", "linestyle": "none"} if big else {"marker": ".", "markersize": 2.5, "linestyle": "none"}
    ax.plot(n[common], G[common], color="#1f4e9c", rasterized=big, **style)
    if rare.any():
        ax.plot(n[rare], G[rare], "x", color="#d62728", markersize=5, mew=1.2,
                label=f"rare values ({int(rare.sum())} heaps)")
        ax.legend(loc="upper left", fontsize=9)
    ax.set_xlabel("heap size n")
    ax.set_ylabel("G(n)")
    head = title or "Grundy sequence"
    if split is not None:
        head += f"   (sparse space: {split.describe()})"
    ax.set_title(head, fontsize=10)
    ax.set_xlim(0, max(1, G.shape[0] - 1))
    ax.grid(alpha=0.25)

    hx = fig.add_subplot(gs[1])
    counts = np.bincount(G)
    vals = np.nonzero(counts)[0]
    if split is not None:
        par = np.array([bin(int(v) & split.mask).count("1") & 1 for v in vals])
        # a value is drawn red when it is rare for both heap parities
        is_rare = (par != split.cbit0) & (par != split.cbit1)
    else:
        is_rare = np.zeros(vals.shape[0], bool)
    hx.bar(vals[~is_rare], counts[vals[~is_rare]], width=0.8, color="#1f4e9c", label="common")
    if is_rare.any():
        hx.bar(vals[is_rare], counts[vals[is_rare]], width=0.8, color="#d62728", label="rare")
        hx.legend(fontsize=8, loc="upper right")
    hx.set_yscale("log")
    hx.set_xlabel("value")
    hx.set_ylabel("heaps")
    hx.grid(alpha=0.25, axis="y")
    path = Path(path)
    fig.savefig(path, bbox_inches="tight")
    return path


def plot_genus_sequence(genera: Sequence[Any], path: str | Path, title: str | None = None,
                        dpi: int = 120, classes: Sequence[str] | None = None) -> Path:
    """Write a plot of a genus sequence: the normal value ``g`` and the misère value ``γ0`` per
    heap (Winning Ways ch. 13), heaps coloured by their class (tame, restive, restless, wild).

    ``classes`` are the heaps' classes (Winning Ways' class of each game, from its phylum, as
    ``cgtalg misere`` tabulates them); without them the heaps are coloured by the *genus kind*
    of ``g^γ0`` alone (``Genus.genus_class``), and the legend says so.

    >>> import tempfile, os
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> p = plot_genus_sequence(TakeAndBreak("0.123").genus_sequence(21),
    ...                         os.path.join(tempfile.mkdtemp(), "g.png"), "0.123")
    >>> p.stat().st_size > 0
    True
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    colours = {"tame": "#1f4e9c", "restive": "#2ca02c", "restless": "#ff7f0e", "wild": "#d62728"}
    n = np.arange(len(genera))
    g = np.array([x.g for x in genera])
    m = np.array([x.misere_grundy for x in genera])
    cls = list(classes) if classes is not None else [x.genus_class for x in genera]
    word = "class" if classes is not None else "genus kind"
    fig = Figure(figsize=(10, 4.5), dpi=dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    ax.plot(n, g, "-", color="#999999", lw=0.8, label="normal value g")
    for name, colour in colours.items():
        sel = np.array([c == name for c in cls], bool)
        if sel.any():
            ax.plot(n[sel], m[sel], "o", color=colour, markersize=4, label=f"misère γ0 ({word} {name})")
    ax.set_xlabel("heap size n")
    ax.set_ylabel("value")
    ax.set_title(title or "genus sequence", fontsize=10)
    ax.grid(alpha=0.25)
    ax.legend(fontsize=8, loc="upper left")
    path = Path(path)
    fig.savefig(path, bbox_inches="tight")
    return path
