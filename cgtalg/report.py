"""Reports on a position: every basic property of a form, memoised in the store.

:func:`describe` gathers what a researcher asks of a form first — outcome in normal and
misère play, Grundy and misère Grundy values, the misère canonical form and the winning
moves — and, given a store, answers each property from the store when it was computed
before (by this or any other process sharing the store), computing and storing it
otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from cgtalg.core.game import Game
from cgtalg.core.notation import format_game, parse
from cgtalg.errors import ArgumentError, ArgumentTypeError, shorten

__all__ = ["GameReport", "describe", "PROPERTIES", "EquivalenceReport", "prove_equivalence"]


from cgtalg.ops.properties import CANONICAL_TEXT_LIMIT, MOVE_TEXT_LIMIT, PROPERTIES, property_computers


def _number_text(n: int) -> str:
    """Digits of an int of any size (heap sizes and values past Python's 4300-digit str limit)."""
    from cgtalg.core.notation import int_to_digits

    return int_to_digits(n) if n >= 0 else "-" + int_to_digits(-n)


@dataclass(repr=False)
class GameReport:
    """The basic properties of a form (see :data:`PROPERTIES`), and which came from the store."""

    game: Game
    values: dict[str, Any]
    from_store: set[str] = field(default_factory=set)

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    @property
    def canonical_cut(self) -> bool:
        """True when the misère canonical text was cut (past :data:`CANONICAL_TEXT_LIMIT`)."""
        text = self.values.get("misere_canonical")
        return isinstance(text, str) and text.endswith("...")

    def canonical_length(self) -> int:
        """The full length of the misère canonical text (computed over the DAG, not written)."""
        from cgtalg.misere.notation import misere_text_length

        return misere_text_length(self.game)

    def to_json(self) -> dict:
        """JSON types; a cut misère canonical text becomes ``{"text", "truncated": true,
        "length", "dag"}`` with the canonical form's DAG (:func:`cgtalg.core.notation.game_to_json`),
        which reads back with ``game_from_json``."""
        values = dict(self.values)
        if self.canonical_cut:
            from cgtalg.core.notation import game_to_json
            from cgtalg.misere.canonical import misere_canonical_game

            dag = game_to_json(misere_canonical_game(self.game), max_text=0)
            values["misere_canonical"] = {
                "text": values["misere_canonical"],
                "truncated": True,
                "length": self.canonical_length(),
                "dag": dag["dag"] if isinstance(dag, dict) else dag,
            }
        return {
            "game": format_game(self.game),
            **values,
            "from_store": sorted(self.from_store),
        }

    def __str__(self) -> str:
        v = {k: (_number_text(x) if isinstance(x, int) and not isinstance(x, bool) else x)
             for k, x in self.values.items()}
        # a report of some properties only (describe(g, properties=...)) prints those
        born = f"  (birthday {v['birthday']})" if "birthday" in v else ""
        lines = [f"game            {format_game(self.game, max_chars=200)}{born}"]
        for play, outcome, value, moves in (("normal play     ", "normal_outcome", "Grundy value",
                                             "normal_winning_moves"),
                                            ("misère play     ", "misere_outcome",
                                             "misère Grundy value", "misere_winning_moves")):
            key = "grundy" if play.startswith("normal") else "misere_grundy"
            parts = ([f"{v[outcome]}-position"] if outcome in v else []) + (
                [f"{value} {v[key]}"] if key in v else [])
            if parts:
                lines.append(play + ", ".join(parts))
            if v.get(moves):
                lines.append("                winning moves: " + ", ".join(v[moves]))
        if "genus" in v:
            lines.append(f"genus           {v['genus']}")
        if "misere_canonical" in v:
            lines.append(f"misère canonical form  {v['misere_canonical']}")
        if self.canonical_cut:
            lines.append(f"                       (text cut at {CANONICAL_TEXT_LIMIT:,} of "
                         f"{self.canonical_length():,} characters; --json gives the form's DAG)")
        if self.from_store:
            lines.append(f"(answered from the store: {', '.join(sorted(self.from_store))})")
        return "\n".join(lines)

    def __repr__(self) -> str:
        from cgtalg.core.display import short

        return f"GameReport({short(format_game(self.game, max_chars=80), 80)!r}, {len(self.values)} properties)"

    def _repr_html_(self) -> str:
        """Notebook view: the game (cut) and its properties, each as text (long ones cut)."""
        from cgtalg.core.display import card, short

        rows = [("game", format_game(self.game, max_chars=300))]
        rows += [(k, short(v, 300)) for k, v in self.values.items()]
        if self.from_store:
            rows.append(("from the store", ", ".join(sorted(self.from_store))))
        return card("game report", rows, kind="report")


def _check_store(store: Any, methods: tuple[str, ...]) -> None:
    """Refuse a ``store`` argument that is not a store (duck-typed: it has ``methods``)."""
    if store is not None and not all(callable(getattr(store, m, None)) for m in methods):
        raise ArgumentTypeError(f"store must be a cgtalg store (cgtalg.open_store()), got "
                                f"{type(store).__name__}: {shorten(store)}")


def describe(g: Game | str, store=None, properties: tuple[str, ...] | None = None) -> GameReport:
    """Outcomes, Grundy values, misère canonical form and winning moves of ``g``.

    Parameters
    ----------
    g : Game or str
        A form, or game text for :func:`cgtalg.parse`.
    store : cgtalg.store.Store, optional
        When given, each property is read from the store if present, else computed and
        written (one transaction per property; concurrent writers are safe).
    properties : tuple of str, optional
        A subset of :data:`PROPERTIES` (default: all).
    """
    if isinstance(g, str):
        g = parse(g)
    if not isinstance(g, Game):  # {*|*} is reported as the impartial game it is
        from cgtalg.core.partizan import PartizanGame, to_impartial

        if not isinstance(g, PartizanGame):
            from cgtalg.errors import GameKindError

            raise GameKindError(f"describe needs a form or game text, got {type(g).__name__}")
        g = to_impartial(g, "describe (the impartial report: Grundy values, genus, misère "
                            "canonical form; cgtalg value and cgtalg.canonical_form report on "
                            "partizan games)")
    computers = property_computers()
    if properties is not None and (isinstance(properties, (str, bytes))
                                   or not hasattr(properties, "__iter__")):
        raise ArgumentTypeError(f"properties must be a tuple of property names, got "
                                f"{type(properties).__name__}: {shorten(properties)}")
    wanted = tuple(properties) if properties else tuple(computers)
    unknown = [name for name in wanted if not isinstance(name, str) or name not in computers]
    if unknown:
        raise ArgumentError(f"unknown propert{'y' if len(unknown) == 1 else 'ies'} "
                            f"{', '.join(shorten(n) for n in unknown[:5])}; known: {', '.join(computers)}")
    _check_store(store, ("get", "put"))
    values: dict[str, Any] = {}
    from_store: set[str] = set()
    for name in wanted:
        compute = computers[name]
        if store is None:
            values[name] = compute(g)
            continue
        cached = store.get(g, name)
        if cached is not None:
            values[name] = cached
            from_store.add(name)
        else:
            value = compute(g)
            store.put(g, name, value)
            values[name] = value
    return GameReport(g, values, from_store)


@dataclass(repr=False)
class EquivalenceReport:
    """An equivalence verdict with its proof, re-checked by direct play, possibly from the store."""

    g: Game
    h: Game
    misere: bool
    holds: bool
    explanation: str
    certificate: dict
    proof_checked: bool
    problems: list[str]
    from_store: bool

    def to_json(self) -> dict:
        return {
            "g": format_game(self.g),
            "h": format_game(self.h),
            "misere": self.misere,
            "holds": self.holds,
            "proof_checked": self.proof_checked,
            "problems": self.problems,
            "from_store": self.from_store,
            "certificate": self.certificate,
            "explanation": self.explanation,
        }

    def __str__(self) -> str:
        if self.from_store:
            tail = "(answered from the store; the proof was re-checked by direct play when it was stored)"
        elif self.proof_checked:
            tail = "proof re-checked by direct play: OK"
        else:
            tail = "PROOF CHECK FAILED: " + "; ".join(self.problems)
        return f"{self.explanation}\n\n{tail}"

    def __repr__(self) -> str:
        rel = "≡" if self.holds else "≢"
        return (f"EquivalenceReport({format_game(self.g, max_chars=60)} {rel} {format_game(self.h, max_chars=60)}, "
                f"{'misère' if self.misere else 'normal'} play, proof_checked={self.proof_checked})")

    def _repr_html_(self) -> str:
        """Notebook view: the verdict, the re-check, and the readable proof folded."""
        from cgtalg.core.display import card, details, esc, short

        rel = "≡" if self.holds else "≢"
        rows = [("G", format_game(self.g, max_chars=200)), ("H", format_game(self.h, max_chars=200)),
                ("verdict", f"G {rel} H in {'misère' if self.misere else 'normal'} play"),
                ("proof re-checked by play", "OK" if self.proof_checked else "FAILED: " + "; ".join(self.problems)),
                ("from the store", "yes" if self.from_store else "no")]
        body = f"<pre style='white-space:pre-wrap;margin:0'>{esc(short(self.explanation, 20_000))}</pre>"
        return card("equivalence report", rows, [details("proof", body)], kind="report")


def prove_equivalence(g: Game | str, h: Game | str, misere: bool = True, store=None) -> EquivalenceReport:
    """Decide ``g ≡ h`` (misère or normal play, impartial universe) with a checked proof.

    The verdict comes from :func:`cgtalg.misere.equivalence.equivalent` (Spindler's
    Theorem 1 = Siegel CGT V.3.5-3.6) and its certificate is re-verified by
    :func:`cgtalg.misere.proof.check_proof`, which shares no code with the search. With a
    store, a verdict stored before is returned without recomputation, and a new verdict is
    stored only once its proof has been checked.
    """
    from cgtalg.misere.equivalence import equivalent
    from cgtalg.misere.proof import check_proof

    g = parse(g) if isinstance(g, str) else g
    h = parse(h) if isinstance(h, str) else h
    relation = "misere_equivalent" if misere else "normal_equivalent"
    _check_store(store, ("get_relation", "put_relation"))
    if store is not None:
        cached = store.get_relation(g, h, relation)
        if cached is not None:
            return EquivalenceReport(g, h, misere, cached["holds"], cached["explanation"],
                                     cached["certificate"], True, [], True)
    result = equivalent(g, h, misere=misere)
    ok, problems = check_proof(result, explain=True)
    report = EquivalenceReport(g, h, misere, result.holds, result.explain(), result.to_json(), ok,
                               [] if ok else list(problems), False)
    if store is not None and ok:
        store.put_relation(g, h, relation, {"holds": result.holds, "certificate": report.certificate,
                                            "explanation": report.explanation})
    return report
