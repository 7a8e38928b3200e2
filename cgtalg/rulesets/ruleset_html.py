"""The notebook card of a ruleset (``_repr_html_`` of every ruleset object): its name, kind, the
rules (the first paragraph of its class's docstring), and an example position with its value.

The example is the ruleset's :attr:`~cgtalg.rulesets.protocol._RulesetBase.example` (a position
text its ``parse_position`` reads, or a position), or for a heap game a heap of 7 tokens; its
value is the Grundy value (impartial) or the canonical form (partizan), computed when the
example is small and shown with the text. A ruleset without an example shows none.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from cgtalg.core.display import Html, card, details, esc, short

__all__ = ["ruleset_html", "rules_text"]


def rules_text(ruleset: Any) -> str:
    """The rules in words: the first paragraph of the ruleset class's docstring."""
    doc = inspect.getdoc(type(ruleset)) or ""
    text = " ".join(doc.split("\n\n")[0].split())
    text = re.sub(r":\w+:`~?([^`]+)`", r"\1", text)  # Sphinx roles: :data:`octal` -> octal
    return text.replace("``", "")


def _example(ruleset: Any) -> tuple[str, Any] | None:
    from cgtalg.rulesets.heaps.base import HeapRuleset

    ex = getattr(ruleset, "example", None)
    if ex is None and isinstance(ruleset, HeapRuleset):
        return "a heap of 7", (7,)
    if ex is None:
        return None
    if isinstance(ex, str):
        try:
            return ex, ruleset.parse_position(ex)
        except Exception:  # noqa: BLE001 - an example the ruleset cannot read is not shown
            return None
    return ruleset.format_position(ex), ex


def _value(ruleset: Any, position: Any) -> str:
    try:
        if ruleset.partizan and not ruleset.has_end_rule:
            from cgtalg.rulesets.partizan.forms import partizan_form

            return f"canonical form {short(partizan_form(ruleset, position, max_seconds=2), 120)}"
        from cgtalg.rulesets.solver import solve

        s = solve(ruleset, position, max_seconds=2)
        return (f"outcome {s.outcome} ({s.outcome_text})"
                + (f", Grundy value {s.value}" if s.value is not None else ""))
    except Exception as exc:  # noqa: BLE001 - the card says why no value is shown
        return f"(not computed here: {short(exc, 100)})"


def ruleset_html(ruleset: Any) -> str:
    """The card: name, kind, rules, example position and its value."""
    kind = "partizan" if ruleset.partizan else "impartial"
    rows: list[tuple[str, Any]] = [("name", ruleset.name), ("kind", f"{kind} ruleset ({type(ruleset).__name__})")]
    if getattr(ruleset, "code_text", None):
        rows.append(("code", ruleset.code_text))
    rules = rules_text(ruleset)
    if rules:
        rows.append(("rules", Html(esc(rules) if len(rules) <= 400 else
                                   esc(short(rules, 400)) + details("more", esc(rules)))))
    ex = _example(ruleset)
    if ex is not None:
        text, position = ex
        rows.append(("example position", Html(f"<code>{esc(short(text, 200))}</code>")))
        rows.append(("its value", _value(ruleset, position)))
    return card(f"ruleset {ruleset.name}", rows, kind="ruleset")
