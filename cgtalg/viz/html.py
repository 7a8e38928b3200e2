"""HTML views of forms for notebooks (``_repr_html_``).

:func:`game_html` fills the :data:`cgtalg.hooks.form_html` registration point, through which a
:class:`cgtalg.Game`, a :class:`cgtalg.PartizanGame` or a :class:`cgtalg.LoopyGame` draws
itself in a notebook; the plain helpers live in :mod:`cgtalg.core.display` (cards, folded parts,
proof trees) and :mod:`cgtalg.core.svg` (thermographs, sparklines), where the result objects of
every layer reach them."""

from __future__ import annotations

from cgtalg.core.display import Html, card, details, esc, table_html, text_html
from cgtalg.core.loopy import LoopyGame
from cgtalg.core.partizan import PartizanGame

__all__ = ["game_html", "text_html"]

#: most characters of a form's text shown on its card (the rest is folded, up to FOLD_CHARS)
SHOW_CHARS, FOLD_CHARS = 300, 20_000


def _form_text(text_of, limit: int = SHOW_CHARS) -> Html:
    """A form's text as code, cut at ``limit`` with a folded longer text when it is longer."""
    shown = text_of(limit)
    if not shown.endswith("...") or len(shown) <= 3:
        return Html(f"<code>{esc(shown)}</code>")
    longer = text_of(FOLD_CHARS)
    return Html(f"<code>{esc(shown)}</code>"
                + details(f"whole text ({'more than ' if longer.endswith('...') else ''}{len(longer):,} characters)",
                          f"<code style='word-break:break-all'>{esc(longer)}</code>"))


def game_html(g) -> str:
    """A small HTML card: for an impartial form its literal form, birthday, Grundy values and
    outcomes; for a partizan form its text, birthday, options, canonical form and outcome; for a
    loopy game its text, outcome and whether it is a stopper."""
    if isinstance(g, PartizanGame):
        return _partizan_html(g)
    if isinstance(g, LoopyGame):
        return _loopy_html(g)
    from cgtalg.core.notation import format_game
    from cgtalg.misere.outcome import misere_grundy, misere_outcome
    from cgtalg.normal.grundy import grundy, normal_outcome

    return card("impartial form", [
        ("form", _form_text(lambda n: format_game(g, max_chars=n))),
        ("birthday", g.birthday),
        ("Grundy value", f"{grundy(g)} ({normal_outcome(g)}-position in normal play)"),
        ("misère Grundy value", f"{misere_grundy(g)} ({misere_outcome(g)}-position in misère play)"),
    ], kind="game")


def _partizan_html(g: PartizanGame) -> str:
    from cgtalg.normal.notation import format_partizan
    from cgtalg.normal.partizan import canonical_form, outcome

    rows = [("form", _form_text(lambda n: format_partizan(g, max_chars=n))),
            ("birthday", g.birthday),
            ("options", f"{len(g.left)} Left, {len(g.right)} Right")]
    c = canonical_form(g)
    if c is not g:
        rows.append(("canonical form", _form_text(lambda n: format_partizan(c, max_chars=n))))
    rows.append(("outcome (normal play)", outcome(c)))
    return card("partizan form", rows, kind="game")


def _loopy_html(g: LoopyGame) -> str:
    from cgtalg.core.loopy_notation import format_loopy
    from cgtalg.normal.loopy import is_stopper, loopy_outcome

    rows = [("game", _form_text(lambda n: format_loopy(g, max_chars=n))),
            ("outcome (normal play)", str(loopy_outcome(g))),
            ("stopper", "yes" if is_stopper(g) else "no")]
    return card("loopy game", rows, kind="game")


__all__ += ["table_html"]
