"""The certificates of :func:`cgtalg.misere.equivalence.equivalent` and the result that holds
them: :class:`EquivalenceProof` (Spindler's Theorem 1 witnesses), :class:`GrundyProof` (normal
play), :class:`Distinction` (a distinguishing game), :class:`EquivalenceResult`, their JSON layout
(read back by :func:`cgtalg.misere.proof.check_proof`) and their readable explanation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cgtalg.core.fold import distinct_preorder
from cgtalg.core.game import Game, walk_size
from cgtalg.core.notation import format_game, game_to_json
from cgtalg.normal.grundy import grundy

__all__ = [
    "EquivalenceResult",
    "EquivalenceProof",
    "Witness",
    "GrundyProof",
    "Distinction",
    "THEOREM",
    "NORMAL_THEOREM",
]

THEOREM = "Theorem 1 of Spindler (2016) (= Siegel, CGT Theorems V.3.5 + V.3.6)"
NORMAL_THEOREM = "Sprague-Grundy theorem (Siegel, CGT IV.1)"


# ---------------------------------------------------------------------------------------
# certificate objects
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class EquivalenceProof:
    """A certificate that ``g ≡ h`` in the impartial misère universe (Spindler Theorem 1).

    Attributes
    ----------
    g, h : Game
        The two forms (this node's own orientation: condition (i) is about the options of
        ``h``, condition (ii) about the options of ``g``).
    identical : bool
        ``g is h`` (reflexivity; then the condition lists are empty).
    condition_i : tuple[Witness, ...]
        One witness per option ``H'`` of ``h``, kind ``"H''"`` (an option of ``H'``
        equivalent to ``g``) or ``"G'"`` (an option of ``g`` equivalent to ``H'``).
    condition_ii : tuple[Witness, ...]
        One witness per option ``G'`` of ``g``, kind ``"G''"`` or ``"H'"``.
    winning_move : Game or None
        For condition (iii) when exactly one of ``g``, ``h`` is ``0``: a move of the other
        one to a misère P-position (so that one is an N-position).
    """

    g: Game
    h: Game
    identical: bool = False
    condition_i: tuple["Witness", ...] = ()
    condition_ii: tuple["Witness", ...] = ()
    winning_move: Game | None = None

    def swapped(self) -> "EquivalenceProof":
        """The same proof read as ``h ≡ g`` (conditions (i) and (ii) exchange roles)."""
        if self.identical:
            return self
        return EquivalenceProof(
            g=self.h,
            h=self.g,
            identical=False,
            condition_i=tuple(w._swapped() for w in self.condition_ii),
            condition_ii=tuple(w._swapped() for w in self.condition_i),
            winning_move=self.winning_move,
        )

    def nodes(self) -> list["EquivalenceProof"]:
        """All distinct proof nodes reachable from this one (this one first)."""
        return distinct_preorder(self, lambda n: [w.proof for w in n.condition_i + n.condition_ii])

    def __repr__(self) -> str:
        from cgtalg.misere.proof_html import node_repr

        return node_repr(self)

    def _repr_html_(self) -> str:
        from cgtalg.misere.proof_html import node_html

        return node_html(self)


_SWAP_KIND = {"H''": "G''", "G'": "H'", "G''": "H''", "H'": "G'"}


@dataclass(frozen=True, eq=False)
class Witness:
    """How one option is matched in condition (i) or (ii) of Theorem 1.

    ``option`` is the option being matched (``H'`` in (i), ``G'`` in (ii)); ``kind`` says
    where the witness ``game`` comes from: ``"H''"`` / ``"G''"`` (an option of ``option``,
    equivalent to the *other* whole game) or ``"G'"`` / ``"H'"`` (an option of the other
    game, equivalent to ``option``). ``proof`` certifies that equivalence.
    """

    option: Game
    kind: str
    game: Game
    proof: EquivalenceProof

    def _swapped(self) -> "Witness":
        return Witness(self.option, _SWAP_KIND[self.kind], self.game, self.proof)

    def __repr__(self) -> str:
        from cgtalg.misere.proof_html import node_repr

        return node_repr(self)

    def _repr_html_(self) -> str:
        from cgtalg.misere.proof_html import node_html

        return node_html(self)


@dataclass(frozen=True, eq=False)
class GrundyProof:
    """A certificate that ``g ≡ h`` in normal play: both have Grundy value ``value``.

    ``labels`` gives the Grundy value of every subposition of ``g`` and ``h``; it is a
    valid labelling iff each position's label is the mex of its options' labels, which a
    reader checks one position at a time. By the Sprague-Grundy theorem both forms then
    equal ``*value``, and ``g + h`` is a P-position (the mirror strategy).
    """

    g: Game
    h: Game
    value: int
    labels: tuple[tuple[Game, int], ...]

    def __repr__(self) -> str:
        from cgtalg.misere.proof_html import node_repr

        return node_repr(self)

    def _repr_html_(self) -> str:
        from cgtalg.misere.proof_html import node_html

        return node_html(self)


@dataclass(frozen=True, eq=False)
class Distinction:
    """A refutation of ``g ≡ h``: a game ``t`` with ``o(g + t) ≠ o(h + t)``.

    Attributes
    ----------
    t : Game
        The distinguishing game, verified by direct play.
    outcome_g, outcome_h : str
        ``'P'`` or ``'N'``: the outcomes of ``g + t`` and ``h + t``.
    condition : str
        Which condition of Theorem 1 fails (``"i"``, ``"ii"``, ``"iii"``), or
        ``"grundy"`` in normal play.
    option : Game or None
        The option at which (i) (an ``H'``) or (ii) (a ``G'``) fails.
    parts : tuple[tuple[Game, Game, Game], ...]
        For (i)/(ii): the options ``(X, Y, T_X)`` of the link ``t``: ``X + T_X`` is P and
        ``Y + T_X`` is N, for each option ``X`` of the two linked games.
    """

    g: Game
    h: Game
    misere: bool
    t: Game
    outcome_g: str
    outcome_h: str
    condition: str
    option: Game | None = None
    parts: tuple[tuple[Game, Game, Game], ...] = ()

    def __repr__(self) -> str:
        from cgtalg.misere.proof_html import node_repr

        return node_repr(self)

    def _repr_html_(self) -> str:
        from cgtalg.misere.proof_html import node_html

        return node_html(self)




# ---------------------------------------------------------------------------------------
# the result
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class EquivalenceResult:
    """The answer to "is ``g ≡ h``?" with a checkable certificate.

    Attributes
    ----------
    g, h : Game
        The two forms, in the order asked.
    misere : bool
        Misère play (impartial universe) or normal play.
    holds : bool
        Whether ``g ≡ h``. ``bool(result)`` is ``holds``.
    certificate : EquivalenceProof | GrundyProof | Distinction
        The proof of equivalence (misère: Spindler Theorem 1 witnesses; normal: a Grundy
        labelling) or the distinguishing game.
    """

    g: Game
    h: Game
    misere: bool
    holds: bool
    certificate: EquivalenceProof | GrundyProof | Distinction = field(repr=False)

    def __bool__(self) -> bool:
        return self.holds

    @property
    def distinguisher(self) -> Game | None:
        """The distinguishing game ``T`` when ``g ≢ h``, else None."""
        return self.certificate.t if isinstance(self.certificate, Distinction) else None

    def __str__(self) -> str:
        return self.explain()

    def __repr__(self) -> str:
        rel = "≡" if self.holds else "≢"
        play = "misère" if self.misere else "normal"
        return (
            f"EquivalenceResult({format_game(self.g, max_chars=60)} {rel} "
            f"{format_game(self.h, max_chars=60)}, {play} play)"
        )

    # -- readable proof ------------------------------------------------------------------
    def explain(self, max_chars: int = 2000, max_steps: int = 100) -> str:
        """A readable proof: Theorem 1's witnesses, a Grundy labelling, or the distinguisher.

        Forms are printed in literal notation (:func:`cgtalg.parse` reads them back); forms
        longer than ``max_chars`` are cut with ``...``, and at most ``max_steps`` proof steps
        (or Grundy labels) are listed (:meth:`to_json` always has everything).

        Examples
        --------
        >>> from cgtalg.misere.equivalence import equivalent
        >>> print(equivalent("*2+*", "*3").explain())  # doctest: +ELLIPSIS
        *+*2 ≡ *3 in misère play (impartial universe).
        ...
        [1] *+*2 ≡ *3
            (i)   H' = 0: G' = {*} ≡ H'  ([2])
                  H' = *: G' = * ≡ H'  (identical)
        ...
        """
        return _explain(self, max_chars, max_steps)

    def to_json(self) -> dict:
        """The result and its certificate as JSON types (forms as literal text).

        The layout (read back by :func:`cgtalg.misere.proof.check_proof`)::

            {"g", "h", "misere", "holds", "theorem",
             "certificate": {"type": "misere-equivalence", "root": 0, "nodes": [
                                {"g", "h", "identical", "i": [witness...], "ii": [...],
                                 "winning_move"}, ...]}
                          | {"type": "normal-grundy", "value", "labels": [[form, value], ...]}
                          | {"type": "distinguisher", "T", "outcome_g_plus_T",
                             "outcome_h_plus_T", "condition", "option", "parts"}}

        where a witness is ``{"option", "kind", "game", "proof": node index}``.
        """
        cert = self.certificate
        out: dict[str, Any] = {
            "g": game_to_json(self.g),
            "h": game_to_json(self.h),
            "misere": self.misere,
            "holds": self.holds,
            "theorem": THEOREM if self.misere else NORMAL_THEOREM,
        }
        if isinstance(cert, EquivalenceProof):
            nodes = cert.nodes()
            index = {id(n): i for i, n in enumerate(nodes)}
            out["certificate"] = {
                "type": "misere-equivalence",
                "root": 0,
                "nodes": [
                    {
                        "g": game_to_json(n.g),
                        "h": game_to_json(n.h),
                        "identical": n.identical,
                        "i": [_witness_json(w, index) for w in n.condition_i],
                        "ii": [_witness_json(w, index) for w in n.condition_ii],
                        "winning_move": None if n.winning_move is None else game_to_json(n.winning_move),
                    }
                    for n in nodes
                ],
            }
        elif isinstance(cert, GrundyProof):
            out["certificate"] = {
                "type": "normal-grundy",
                "value": cert.value,
                "labels": [[game_to_json(x), v] for x, v in cert.labels],
            }
        else:
            out["certificate"] = {
                "type": "distinguisher",
                "T": game_to_json(cert.t),
                "outcome_g_plus_T": cert.outcome_g,
                "outcome_h_plus_T": cert.outcome_h,
                "condition": cert.condition,
                "option": None if cert.option is None else game_to_json(cert.option),
                "parts": [[game_to_json(x), game_to_json(y), game_to_json(t)] for x, y, t in cert.parts],
            }
        return out

    def _repr_html_(self) -> str:
        """Notebook view: the claim and its certificate, the witnesses as an expandable tree."""
        from cgtalg.misere.proof_html import equivalence_html

        return equivalence_html(self)


def _witness_json(w: Witness, index: dict[int, int]) -> dict:
    return {
        "option": game_to_json(w.option),
        "kind": w.kind,
        "game": game_to_json(w.game),
        "proof": index[id(w.proof)],
    }




# ---------------------------------------------------------------------------------------
# explanation text
# ---------------------------------------------------------------------------------------
def _explain(result: EquivalenceResult, max_chars: int, max_steps: int) -> str:
    def f(x: Game) -> str:
        return format_game(x, max_chars=max_chars)

    play = "misère play (impartial universe)" if result.misere else "normal play"
    rel = "≡" if result.holds else "≢"
    lines = [f"{f(result.g)} {rel} {f(result.h)} in {play}.", f"  G = {f(result.g)}", f"  H = {f(result.h)}"]
    cert = result.certificate
    if isinstance(cert, EquivalenceProof):
        lines += _explain_proof(cert, f, max_steps)
    elif isinstance(cert, GrundyProof):
        lines += _explain_grundy(cert, f, max_steps)
    else:
        lines += _explain_distinction(cert, f)
    return "\n".join(lines)


def _explain_proof(root: EquivalenceProof, f, max_steps: int) -> list[str]:
    if root.identical:
        return ["Proof: G and H are the same form (identical game trees), so G ≡ H."]
    nodes = [n for n in root.nodes() if not n.identical]
    number = {id(n): i + 1 for i, n in enumerate(nodes)}
    lines = [
        f"Proof by {THEOREM}:",
        "  G ≡ H iff (i) every H' has an option H'' ≡ G or there is a G' ≡ H',",
        "            (ii) every G' has an option G'' ≡ H or there is an H' ≡ G',",
        "            (iii) if G = 0 then H is an N-position, and if H = 0 then G is.",
        "Step [k] proves one equivalence by (i)-(iii); a step cited as [k] is proved once.",
    ]

    def cite(w: Witness) -> str:
        return "identical" if w.proof.identical else f"[{number[id(w.proof)]}]"

    for n in nodes[:max_steps]:
        k = number[id(n)]
        lines.append("")
        lines.append(f"[{k}] {f(n.g)} ≡ {f(n.h)}")
        gl, hl = ("G", "H") if k == 1 else ("A", "B")
        if k != 1:
            lines.append(f"    with {gl} = {f(n.g)}, {hl} = {f(n.h)}")
        if not n.condition_i:
            lines.append(f"    (i)   {hl} has no options.")
        for j, w in enumerate(n.condition_i):
            head = "    (i)   " if j == 0 else "          "
            if w.kind == "G'":
                lines.append(f"{head}{hl}' = {f(w.option)}: {gl}' = {f(w.game)} ≡ {hl}'  ({cite(w)})")
            else:
                lines.append(f"{head}{hl}' = {f(w.option)}: {hl}'' = {f(w.game)} ≡ {gl}  ({cite(w)})")
        if not n.condition_ii:
            lines.append(f"    (ii)  {gl} has no options.")
        for j, w in enumerate(n.condition_ii):
            head = "    (ii)  " if j == 0 else "          "
            if w.kind == "H'":
                lines.append(f"{head}{gl}' = {f(w.option)}: {hl}' = {f(w.game)} ≡ {gl}'  ({cite(w)})")
            else:
                lines.append(f"{head}{gl}' = {f(w.option)}: {gl}'' = {f(w.game)} ≡ {hl}  ({cite(w)})")
        if n.g.is_zero or n.h.is_zero:
            z, other = (gl, hl) if n.g.is_zero else (hl, gl)
            mv = f(n.winning_move) if n.winning_move is not None else "?"
            lines.append(
                f"    (iii) {z} = 0, and {other} is an N-position: it has the move to {mv}, a P-position."
            )
        else:
            lines.append(f"    (iii) holds: neither {gl} nor {hl} is 0.")
    if len(nodes) > max_steps:
        lines += ["", f"... {len(nodes) - max_steps} more steps (all of them are in to_json())."]
    return lines


def _explain_grundy(cert: GrundyProof, f, max_steps: int) -> list[str]:
    lines = [
        f"Proof ({NORMAL_THEOREM}): G and H both have Grundy value {cert.value}, so both equal",
        f"*{cert.value} and G + H is a P-position (the second player mirrors). Grundy labels",
        "(each value is the mex of the values of the position's options):",
    ]
    shown = sorted(cert.labels, key=lambda p: (p[0].birthday, p[0].id))
    for x, v in shown[:max_steps]:
        lines.append(f"    {f(x)}: {v}")
    if len(shown) > max_steps:
        lines.append(f"    ... ({len(shown) - max_steps} more in to_json())")
    return lines


def _explain_distinction(cert: Distinction, f) -> list[str]:
    lines = [
        f"Distinguisher T = {f(cert.t)}",
        f"  o(G + T) = {cert.outcome_g} but o(H + T) = {cert.outcome_h}  (checked by play;"
        f" T has birthday {cert.t.birthday} and {_plural(walk_size(cert.t)[0], 'subposition')}).",
    ]
    if cert.condition == "nim":
        m = cert.t.nim_heap_size()
        lines.append(
            f"Why (misère Nim, Winning Ways ch. 13): G and H are distinct nim-heaps and T = *{m}"
            " is the larger; with a heap of size >= 2 a sum of nim-heaps is a misère P-position"
            " iff its nim-sum is 0, so the sum with two heaps *m is P and the other is N."
        )
        return lines
    if cert.condition == "grundy":
        lines.append(
            f"Why ({NORMAL_THEOREM}): G has Grundy value {grundy(cert.g)} and H has {grundy(cert.h)};"
            f" T = *{grundy(cert.h)} = H's value, so H + T has value 0 and G + T does not."
        )
        return lines
    if cert.condition == "iii":
        z, other = ("G", "H") if cert.g.is_zero else ("H", "G")
        lines += [
            f"Why: condition (iii) of {THEOREM}",
            f"  fails: {z} = 0 but {other} is a misère P-position. With T = 0, {z} + T = 0 is an",
            f"  N-position (the player to move has no move, and wins) while {other} + T is P.",
        ]
        return lines
    if cert.condition == "i":
        this, opt, other = "H", "H'", "G"
    else:
        this, opt, other = "G", "G'", "H"
    lines += [
        f"Why: condition ({cert.condition}) of {THEOREM}",
        f"  fails at {opt} = {f(cert.option)}: no option {opt}' of {opt} is ≡ {other}, and no option"
        f" {other}' of {other} is ≡ {opt}.",
        f"  So {other} is linked to {opt} (Lemma 2 = Siegel CGT V.3.5): {other} + T and {opt} + T are"
        " both P-positions,",
        f"  hence {this} + T is an N-position (it has the move to {opt} + T) while {other} + T is P.",
        "  T is the link from the proof of Lemma 2, with one option T_X per option X of either game,",
        "  where X + T_X is P and (the other game) + T_X is N:",
    ]
    n_other = len(cert.g.options if cert.condition == "i" else cert.h.options)
    for k, (x, y, t) in enumerate(cert.parts):
        name = f"{other}'" if k < n_other else f"{opt}'"
        lines.append(f"    X = {name} = {f(x)}: T_X = {f(t)}  ({f(y)} + T_X is N)")
    return lines


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
