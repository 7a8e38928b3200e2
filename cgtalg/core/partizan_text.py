"""What the forms' layer knows of partizan text without reading values: whether game text is
partizan (:func:`looks_partizan`, which :func:`cgtalg.core.notation.parse` asks before handing the
text to the partizan reader) and whether a brace group has a bar at its own level
(:func:`braces_have_bar`, for ``±{a, b}`` against ``±{a | b}``).

Reading and writing the values themselves (``1/2^*``, ``^<2>``, ``Tiny(3/2)``, number
translation) needs normal-play theory (canonical forms, sums, mean, higher ups), so the partizan
notation is :mod:`cgtalg.normal.notation`, which the forms reach through the registration point
:data:`cgtalg.hooks.partizan_notation`.
"""

from __future__ import annotations

import re

__all__ = ["looks_partizan", "braces_have_bar"]

_FREE_V = re.compile(r"(?<![A-Za-z_])v+[0-9]*(?![A-Za-z_(])")


#: a ruleset position ``name(args)`` in game text (not CGSuite's ``Tiny(G)`` / ``Miny(G)``)
_RULESET_CALL = re.compile(r"\b(?!Tiny\(|Miny\()[A-Za-z_][A-Za-z0-9_]*\([^()]*\)")
#: a bare positive integer: a number, not the size of a nim-heap (``*12``)
_BARE_NUMBER = re.compile(r"(?<![*\d])[1-9]")
_NAME = re.compile(r"[A-Za-z_]{2,}")


def looks_partizan(text: str) -> bool:
    """Whether game text uses partizan notation (bars, ups/downs, ``±``, fractions, minus
    signs, tinies, a number such as ``2`` outside a nimber ``*2``): what :func:`cgtalg.parse`
    uses to choose the partizan reader. The arguments of a ruleset position ``name(a, b)`` do
    not count (``kayles(-1)`` is impartial text with a bad argument, reported as such).

    >>> looks_partizan("{0 | *}"), looks_partizan("{*2, *}"), looks_partizan("1/2"), looks_partizan("*[21]")
    (True, False, True, False)
    """
    text = _without_misere_notation(_RULESET_CALL.sub("", text))
    if any(c in text for c in "|^±↑↓⇑⇓/-"):
        return True
    if _BARE_NUMBER.search(text) and not _NAME.search(text.replace("Tiny", "").replace("Miny", "")):
        return True   # a number (with a name about, a ruleset call written wrong: "kayles 3")
    if "Tiny(" in text or "Miny(" in text:
        return True
    return "v" in text and _FREE_V.search(text) is not None


def _without_misere_notation(text: str) -> str:
    """``text`` with its misère canonical-form groups ``*[...]`` (digits there are heaps) cut."""
    out, i = [], 0
    while i < len(text):
        if text.startswith("*[", i):
            depth, i = 1, i + 2
            while i < len(text) and depth:
                depth += {"[": 1, "]": -1}.get(text[i], 0)
                i += 1
            out.append("*")
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def braces_have_bar(text: str, start: int) -> bool:
    """Whether the brace group opening at ``text[start]`` has a '|' at its own level (``±{a, b}``
    lists options; ``±{a | b}`` is a game)."""
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth == 0:
                return False
        elif ch == "|" and depth == 1:
            return True
    return False
