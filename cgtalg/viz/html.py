"""HTML views of forms for notebooks (``_repr_html_``).

:func:`game_html` fills the :data:`cgtalg.hooks.form_html` registration point, through which a
:class:`cgtalg.Game` or a :class:`cgtalg.PartizanGame` draws itself in a notebook; the plain
helpers live in :mod:`cgtalg.core.display`."""

from __future__ import annotations

from cgtalg.core.display import table_html, text_html
from cgtalg.core.partizan import PartizanGame

__all__ = ["game_html", "text_html"]


def game_html(g) -> str:
    """A small HTML card: for an impartial form its literal form, birthday, Grundy values and
    outcomes; for a partizan form its text, birthday, options and canonical form."""
    if isinstance(g, PartizanGame):
        return _partizan_html(g)
    from cgtalg.core.notation import format_game
    from cgtalg.misere.outcome import misere_grundy, misere_outcome
    from cgtalg.normal.grundy import grundy, normal_outcome

    return table_html([
        ("form", format_game(g, max_chars=300)),
        ("birthday", g.birthday),
        ("Grundy value", f"{grundy(g)} ({normal_outcome(g)}-position in normal play)"),
        ("misère Grundy value", f"{misere_grundy(g)} ({misere_outcome(g)}-position in misère play)"),
    ])


def _partizan_html(g: PartizanGame) -> str:
    import html

    from cgtalg.normal.partizan import canonical_form

    rows = [f"<b>{html.escape(str(g))}</b>",
            f"birthday {g.birthday}, {len(g.left)} Left and {len(g.right)} Right options"]
    c = canonical_form(g)
    if c is not g:
        rows.append(f"canonical form {html.escape(str(c))}")
    return "<div>" + "<br>".join(rows) + "</div>"
