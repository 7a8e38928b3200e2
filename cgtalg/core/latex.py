"""LaTeX for notebook displays (``_repr_latex_``): the printed notations in the literature's symbols.

Each kind of value keeps one text printer (CGSuite's notation: :func:`~cgtalg.core.notation.format_game`,
:func:`~cgtalg.normal.notation.format_partizan`, :func:`~cgtalg.core.loopy_notation.format_loopy`,
:func:`cgtalg.misere.notation.format_misere`, :meth:`cgtalg.Genus.to_str`, ``str`` of a
:class:`cgtalg.Nimber`); the writers here read that text, token by token, and write the same
value as Winning Ways and Siegel's *Combinatorial Game Theory* typeset it, so the LaTeX never
disagrees with the text:

==================  ===========================  =====================================
text                LaTeX                        meaning
==================  ===========================  =====================================
``^``, ``v``        ``\\uparrow``, ``\\downarrow``  up, down
``^^``, ``vv``      ``\\Uparrow``, ``\\Downarrow``  double up, double down
``^3``              ``3\\cdot\\uparrow``          three ups
``^<2>``            ``\\uparrow^{2}``             Conway's up-second ``{0|v*}``
``^[3]``            ``\\uparrow^{\\rightarrow 3}``  ``↑ + ↑² + ↑³``
``^^*``             ``\\Uparrow\\!*``              a star after an arrow, drawn close
``±1``              ``\\pm 1``                    ``{1|-1}``
``{2||1|0}``        ``\\{2\\|1\\mid 0\\}``           bars: ``\\mid``, ``\\|``, ``\\|\\mid``, ...
``1/2``, ``-3/4``   ``\\frac{1}{2}``, ``-\\frac{3}{4}``
``Tiny(2)``         ``{+_{2}}``                   tiny-two, ``{0||0|-2}`` (Miny: ``{-_{2}}``)
``on``, ``over``    ``\\mathrm{on}``, ...          named loopy games
``*[2#1]``          ``*[2_{\\#}1]``                misère forms: ``#`` and ``[k]`` as subscripts
``1^431``           ``1^{431}``                   a genus symbol
``*(ω^2·3+1)``      ``*(\\omega^{2}\\cdot 3+1)``    an ordinal nimber
==================  ===========================  =====================================

Each function returns the formula without dollars; :func:`math` wraps it for ``_repr_latex_``,
which returns None (no LaTeX display) for a text longer than :data:`LATEX_LIMIT` or a cut one.
"""

from __future__ import annotations

import re

__all__ = ["LATEX_LIMIT", "form_latex", "misere_latex", "genus_latex", "ordinal_latex", "math"]

#: Longest printed text given a LaTeX display (a longer one is left to the HTML card).
LATEX_LIMIT = 2000

_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")



def _closing(text: str, i: int) -> int:
    """The index of the parenthesis that closes the one at ``text[i]`` (``len(text)`` if none)."""
    depth, j = 0, i
    while j < len(text):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        if depth == 0:
            break
        j += 1
    return j

def math(body: str | None) -> str | None:
    """``$body$`` for ``_repr_latex_``, or None when there is no formula."""
    return None if body is None else f"${body}$"


def _bars(n: int) -> str:
    """``|`` -> ``\\mid``, ``||`` -> ``\\|``, ``|||`` -> ``\\|\\mid``, ..."""
    return "\\|" * (n // 2) + ("\\mid " if n % 2 else "")


def _number(text: str) -> str:
    if "/" in text:
        a, b = text.split("/")
        return f"\\frac{{{a}}}{{{b}}}"
    return text


def ordinal_latex(text: str) -> str:
    """An ordinal as printed by :class:`cgtalg.Nimber` (``ω^2·3+1``, ``ω^(ω+1)``) in LaTeX:
    ``\\omega^{2}\\cdot 3+1``.

    >>> ordinal_latex("ω^2·3+1")
    '\\\\omega^{2}\\\\cdot 3+1'
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "ωw" and (i + 1 >= n or not text[i + 1].isalpha()):
            out.append("\\omega")
            i += 1
        elif c == "^":
            i += 1
            if i < n and text[i] == "(":
                j = _closing(text, i)
                out.append("^{" + ordinal_latex(text[i + 1:j]) + "}")
                i = j + 1
            else:
                m = re.match(r"\d+|[ωw]", text[i:])
                tok = m.group(0) if m else ""
                out.append("^{" + ordinal_latex(tok) + "}")
                i += len(tok)
        elif c == "·":
            out.append("\\cdot ")
            i += 1
        elif c == " ":
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def form_latex(text: str) -> str | None:
    """The LaTeX of a form's printed text (impartial literal forms, partizan and loopy
    notation), or None for a text cut with ``...`` or longer than :data:`LATEX_LIMIT`.

    Examples
    --------
    >>> [form_latex(t) for t in ("^", "^^*", "±1", "{2||1|0}", "1/2", "*2")]
    ['\\\\uparrow', '\\\\Uparrow\\\\!*', '\\\\pm 1', '\\\\{2\\\\|1\\\\mid 0\\\\}', '\\\\frac{1}{2}', '*2']
    """
    if len(text) > LATEX_LIMIT or text.endswith("..."):
        return None
    out: list[str] = []
    i, n = 0, len(text)
    arrow = False  # the previous token was an arrow (a star after it is drawn close)
    while i < n:
        c = text[i]
        was_arrow, arrow = arrow, False
        if c == " ":
            i += 1
            arrow = was_arrow
            continue
        if c in "^↑↓⇑⇓" or (c == "v" and re.fullmatch(r"vv?\d*", _WORDS.match(text, i).group(0))):
            up = c in "^↑⇑"
            m = re.match(r"(\^\^|vv|[\^v↑↓⇑⇓])(<\d+>|\[\d+\]|\d+)?", text[i:])
            sym, arg = m.group(1), m.group(2)
            i += m.end()
            double = sym in ("^^", "vv", "⇑", "⇓")
            base = ("\\Uparrow" if up else "\\Downarrow") if double else ("\\uparrow" if up else "\\downarrow")
            if arg is None:
                out.append(base)
            elif arg.startswith("<"):
                out.append(f"{base}^{{{arg[1:-1]}}}")
            elif arg.startswith("["):
                out.append(f"{base}^{{\\rightarrow {arg[1:-1]}}}")
            else:
                out.append(f"{int(arg) * (2 if double else 1)}\\cdot{base}")
            arrow = True
            continue
        if c == "*":
            out.append("\\!*" if was_arrow else "*")
            i += 1
            if i < n and text[i] == "(":  # an ordinal nimber *(ω+1)
                j = _closing(text, i)
                out.append("(" + ordinal_latex(text[i + 1:j]) + ")")
                i = j + 1
            else:
                m = re.match(r"\d+|[ωw](\^\d+)?", text[i:])
                if m:
                    out.append(ordinal_latex(m.group(0)) if m.group(0)[0] in "ωw" else m.group(0))
                    i += m.end()
            continue
        if c.isdigit():
            m = re.match(r"\d+(/\d+)?", text[i:])
            out.append(_number(m.group(0)))
            i += m.end()
            continue
        if c == "|":
            j = i
            while j < n and text[j] == "|":
                j += 1
            out.append(_bars(j - i))
            i = j
            continue
        if c in "{}":
            out.append("\\" + c)
            i += 1
            continue
        if c == "±" or text.startswith("+-", i):
            out.append("\\pm ")
            i += 1 if c == "±" else 2
            continue
        m = _WORDS.match(text, i)
        if m:
            word = m.group(0)
            i = m.end()
            if word in ("Tiny", "Miny") and i < n and text[i] == "(":
                j = _closing(text, i)
                sub = form_latex(text[i + 1:j])
                out.append(f"{{{'+' if word == 'Tiny' else '-'}_{{{sub}}}}}")
                i = j + 1
            elif len(word) == 1:
                out.append(word)
            else:
                out.append(f"\\mathrm{{{word}}}")
            continue
        out.append({"#": "\\#", "%": "\\%", "&": "\\&", "~": "\\sim ", "\\": "\\backslash "}.get(c, c))
        i += 1
    return "".join(out)


def misere_latex(text: str) -> str | None:
    """The LaTeX of a misère canonical form as :func:`cgtalg.misere.notation.format_misere`
    prints it: in ``*[...]`` a ``#`` suffix and a subscript ``[...]`` are typeset as one
    subscript, as CGSuite and Siegel (CGT ch. V) draw them (``*[2[2]]`` is ``2₂``); texts in the
    literal notation go to :func:`form_latex`. None for a cut or too long text.

    >>> misere_latex("*[2#1]"), misere_latex("*[2#[2]#]")
    ('*[2_{\\\\#}1]', '*[2_{\\\\#2\\\\#}]')
    """
    if len(text) > LATEX_LIMIT or text.endswith("..."):
        return None
    if "*[" not in text:
        return form_latex(text)
    out: list[str] = []
    sub: list[str] = []
    after_item = False  # the last thing written ends an item (a "[" now opens a subscript)
    i, n = 0, len(text)

    def flush() -> None:
        if sub:
            out.append("_{" + "".join(sub) + "}")
            sub.clear()

    while i < n:
        c = text[i]
        if c == "#":
            sub.append("\\#")
            i += 1
            after_item = True
        elif c == "[" and after_item:
            j = text.index("]", i)
            sub.append(text[i + 1:j].replace("#", "\\#"))
            i = j + 1
        else:
            flush()
            if c == "*" and text.startswith("*[", i):
                out.append("*[")
                i += 2
                after_item = False
                continue
            if c in "[(,+":
                out.append(c)
                after_item = False
            elif c in "])":
                out.append(c)
                after_item = True
            elif c.isdigit():
                out.append(c)
                after_item = True
            elif c == " ":
                pass
            else:
                out.append(c)
                after_item = False
            i += 1
    flush()
    return "".join(out)


def genus_latex(text: str) -> str:
    """A genus symbol (``2^1420``, ``6^(8,10)``, ``0``) with its superscript: ``2^{1420}``.

    >>> genus_latex("1^431"), genus_latex("6^(8,10)"), genus_latex("0")
    ('1^{431}', '6^{8,10}', '0')
    """
    g, sep, sup = text.partition("^")
    if not sep:
        return g
    if sup.startswith("(") and sup.endswith(")"):
        sup = sup[1:-1]
    return f"{g}^{{{sup}}}"
