"""HTML views of forms for notebooks (``_repr_html_``)."""

from __future__ import annotations

import html

__all__ = ["game_html", "text_html"]


def game_html(g) -> str:
    """A small HTML card: literal form, birthday, Grundy values and outcomes."""
    from cgtalg.core.notation import format_game
    from cgtalg.misere.outcome import misere_grundy, misere_outcome
    from cgtalg.normal.grundy import grundy, normal_outcome

    rows = [
        ("form", format_game(g, max_chars=300)),
        ("birthday", g.birthday),
        ("Grundy value", f"{grundy(g)} ({normal_outcome(g)}-position in normal play)"),
        ("misère Grundy value", f"{misere_grundy(g)} ({misere_outcome(g)}-position in misère play)"),
    ]
    body = "".join(
        f"<tr><th style='text-align:left'>{html.escape(str(k))}</th><td><code>{html.escape(str(v))}</code></td></tr>"
        for k, v in rows
    )
    return f"<table>{body}</table>"


def text_html(obj) -> str:
    """Notebook view of a result whose ``str()`` is its readable report (proofs, strategies,
    certificates, roots): the text in a ``<pre>`` block, headed by the result's type."""
    title = html.escape(type(obj).__name__)
    body = html.escape(str(obj))
    return (
        f"<div><b>{title}</b><pre style='white-space:pre-wrap;margin:0.3em 0'>{body}</pre></div>"
    )
