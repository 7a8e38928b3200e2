"""Plain HTML for notebook displays (``_repr_html_``) that needs nothing above the forms."""

from __future__ import annotations

import html

__all__ = ["text_html", "table_html"]


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
