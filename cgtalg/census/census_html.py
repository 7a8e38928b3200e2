"""Notebook views (``repr`` and ``_repr_html_``) of census tables and their rows."""

from __future__ import annotations

from typing import Any

from cgtalg.core.display import card, details, esc, grid_html, short

__all__ = ["row_repr", "row_html", "census_repr", "census_html"]


def row_repr(row: Any) -> str:
    """One line: the code, its class, its status and the main figures."""
    extra = "".join(f", {k}={getattr(row, k)!r}" for k in ("period", "preperiod", "quotient")
                    if getattr(row, k, None) is not None)
    text = f"{type(row).__name__}({row.code!r}, standard_form={row.standard_form!r}, status={row.status!r}{extra})"
    return text if len(text) <= 200 else text[:196] + "...)"


def row_html(row: Any) -> str:
    """The row's columns (its JSON data) as a card."""
    data = row.to_json() if hasattr(row, "to_json") else vars(row)
    rows = [(k, short(" ".join(map(str, v)) if isinstance(v, (list, tuple)) else v, 300))
            for k, v in data.items() if v not in (None, "", [], ()) and k != "certificate"]
    return card(f"census row {row.code}", rows, kind="census-row")


def census_repr(result: Any) -> str:
    """The counts in one line."""
    shown = ", ".join(f"{k}={v}" for k, v in result.counts().items() if isinstance(v, int))
    return f"{type(result).__name__}({shown})"


def census_html(result: Any) -> str:
    """The summary, the counts, the table (the CSV columns; at most 200 rows) and the run's
    notes, folded."""
    def cell(v: Any) -> str:
        text = " ".join(map(str, v)) if isinstance(v, (list, tuple)) else ("" if v is None else str(v))
        return short(text, 120)

    def count(v: Any) -> str:
        if isinstance(v, dict):
            return ", ".join(f"{k} {count(x)}" for k, x in v.items() if x not in (None, {}))
        return str(v)

    cols = list(result.columns)
    table = grid_html(cols, ([cell(getattr(r, c, None)) for c in cols] for r in result.rows))
    counts = [(k, count(v)) for k, v in result.counts().items()]
    parts = [table]
    notes = result.notes()
    if notes:
        parts.append(details(f"notes ({len(notes)})", "<br>".join(esc(n) for n in notes)))
    return card(result.summary(), counts, parts, kind="census")
