"""Plain HTML for notebook displays (``_repr_html_``) that needs nothing above the forms.

Every result object of the library draws itself in a notebook with these helpers: a card with a
title and ``(label, value)`` rows (:func:`card`), a folded part (:func:`details`, HTML's
``<details>``, so a long table or a proof is one click away and not on the page), a tree of
proof steps as nested ``<details>`` (:func:`tree_html`), and a short ``repr`` (:func:`short`).
Everything is escaped and self-contained: inline styles only, no external CSS or JavaScript.
"""

from __future__ import annotations

import html
from typing import Any, Callable, Iterable, Sequence

__all__ = ["text_html", "table_html", "esc", "short", "card", "details", "grid_html", "tree_html",
           "REPR_LIMIT"]

#: Longest ``repr`` a result object writes (longer texts are cut with ``...``).
REPR_LIMIT = 200

_BOX = "display:inline-block;border:1px solid #ccc;border-radius:4px;padding:0.3em 0.6em;margin:0.1em 0"
_TH = "text-align:left;padding:0 0.8em 0 0;vertical-align:top;font-weight:600;white-space:nowrap"


def esc(x: Any) -> str:
    """``str(x)`` escaped for HTML."""
    return html.escape(str(x))


def short(text: Any, limit: int = 80) -> str:
    """``str(text)`` cut to ``limit`` characters with ``...``."""
    s = str(text)
    return s if len(s) <= limit else s[: max(limit - 3, 0)] + "..."


def text_html(obj) -> str:
    """Notebook view of a result whose ``str()`` is its readable report (proofs, strategies,
    certificates, roots): the text in a ``<pre>`` block, headed by the result's type."""
    title = html.escape(type(obj).__name__)
    body = html.escape(str(obj))
    return (
        f"<div><b>{title}</b><pre style='white-space:pre-wrap;margin:0.3em 0'>{body}</pre></div>"
    )


def table_html(rows) -> str:
    """A two-column HTML table of ``(label, value)`` rows, values as code."""
    body = "".join(
        f"<tr><th style='text-align:left'>{html.escape(str(k))}</th><td><code>{html.escape(str(v))}</code></td></tr>"
        for k, v in rows
    )
    return f"<table>{body}</table>"


def details(summary: str, body: str, open: bool = False) -> str:
    """A folded part: ``summary`` (plain text, escaped) shown, ``body`` (HTML) one click away."""
    return (f"<details{' open' if open else ''}><summary style='cursor:pointer'>{esc(summary)}</summary>"
            f"<div style='margin-left:1em'>{body}</div></details>")


def card(title: str, rows: Iterable[tuple[str, Any]] = (), parts: Sequence[str] = (), kind: str = "") -> str:
    """A boxed card: a bold ``title`` (text), a table of ``(label, value)`` rows (values are
    text, escaped, except values given as ``Html``), then ``parts`` (HTML, e.g. :func:`details`)."""
    body = "".join(
        f"<tr><th style='{_TH}'>{esc(k)}</th><td>{v.html if isinstance(v, Html) else esc(v)}</td></tr>"
        for k, v in rows)
    table = f"<table style='border-collapse:collapse;margin:0.2em 0'>{body}</table>" if body else ""
    cls = f" class='cgtalg-{esc(kind)}'" if kind else ""
    return f"<div{cls} style='{_BOX}'><b>{esc(title)}</b>{table}{''.join(parts)}</div>"


class Html:
    """A value of a :func:`card` row that is already HTML (not escaped again)."""

    __slots__ = ("html",)

    def __init__(self, html_text: str) -> None:
        self.html = html_text


def grid_html(header: Sequence[Any], rows: Iterable[Sequence[Any]], max_rows: int = 200) -> str:
    """A table with a header row; cells are text (escaped) or :class:`Html`; at most
    ``max_rows`` rows, then a line saying how many were left out."""
    def cell(x: Any, tag: str) -> str:
        return f"<{tag}>{x.html if isinstance(x, Html) else esc(x)}</{tag}>"

    out = ["<table style='border-collapse:collapse' cellpadding='3'><tr>" + "".join(cell(h, "th") for h in header) + "</tr>"]
    n = 0
    for n, r in enumerate(rows, start=1):
        if n <= max_rows:
            out.append("<tr>" + "".join(cell(x, "td") for x in r) + "</tr>")
    out.append("</table>")
    if n > max_rows:
        out.append(f"<small>({n - max_rows} more rows not shown)</small>")
    return "".join(out)


def tree_html(root: Any, label: Callable[[Any], str], children: Callable[[Any], Sequence[tuple[str, Any]]],
              max_nodes: int = 150) -> str:
    """A proof DAG as an expandable tree: each node is a ``<details>`` whose summary is
    ``[k] label(node)`` and whose body lists ``children(node)`` (pairs ``(text, child)``; a
    child None is a leaf). A node met again refers to its number (``see [k]``) instead of being
    drawn twice; past ``max_nodes`` nodes the rest is left out and says so. The root is open."""
    number: dict[int, int] = {}
    left_out = [0]

    def draw(node: Any, depth: int) -> str:
        key = id(node)
        if key in number:
            return f"<i>see [{number[key]}]</i>"
        if len(number) >= max_nodes:
            left_out[0] += 1
            return "<i>(not drawn: past the node limit)</i>"
        number[key] = k = len(number) + 1
        items = []
        for text, child in children(node):
            sub = "" if child is None else " " + draw(child, depth + 1)
            items.append(f"<li>{esc(text)}{sub}</li>")
        body = f"<ul style='margin:0.1em 0;padding-left:1.2em'>{''.join(items)}</ul>" if items else ""
        if not body:
            return f"<span>[{k}] {esc(label(node))}</span>"
        return details(f"[{k}] {label(node)}", body, open=depth == 0)

    # iterative depth is bounded by max_nodes: the recursion never goes deeper than that
    out = draw(root, 0)
    if left_out[0]:
        out += f"<small>({left_out[0]} steps beyond the first {max_nodes} not drawn; to_json() has all)</small>"
    return out
