"""An independent checker for equivalence certificates (:mod:`cgtalg.misere.equivalence`).

:func:`check_proof` re-verifies a certificate without any code of the search: it has its own
outcome solver that plays *literal* disjunctive sums (a position is a multiset of component
forms; a move replaces one component by one of its options), with its own memo, in misère or
normal play. What it checks:

* **inequivalence** (a distinguisher ``T``): ``o(G + T) ≠ o(H + T)`` by direct play, and the
  outcomes the certificate claims are the ones found;
* **misère equivalence** (Spindler, Theorem 1; Siegel CGT V.3.5-3.6): every proof step
  ``A ≡ B`` either has ``A`` and ``B`` identical, or for every option ``B'`` of ``B`` a
  witness that is really an option of ``B'`` (kind ``H''``) or of ``A`` (kind ``G'``), for
  every option ``A'`` of ``A`` a witness that is really an option of ``A'`` (``G''``) or of
  ``B`` (``H'``), each cited step proving exactly the claimed pair; condition (iii) (if one
  side is ``0`` the other is an N-position) is checked by direct play. Each cited pair has a
  smaller birthday sum than its step, so the certificate is well founded and, by induction,
  proves the root claim;
* **normal-play equivalence** (Sprague-Grundy): the Grundy labels are checked position by
  position (each label is the mex of its options' labels, every subposition labelled), the
  two forms have the same label, and ``G + H`` is a P-position by direct play.

Certificates can be given as :class:`~cgtalg.misere.equivalence.EquivalenceResult` objects or
as their :meth:`to_json` dictionaries (forms as literal text), e.g. read back from the store.

Examples
--------
>>> from cgtalg.misere.equivalence import equivalent
>>> check_proof(equivalent("*2+*", "*3"))
True
>>> check_proof(equivalent("{*2}", "*2+*2").to_json())
True
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

from cgtalg.core.game import Game
from cgtalg.core.notation import format_game, game_from_json, parse
from cgtalg.errors import CertificateError, GameNotationError, shorten

__all__ = ["check_proof", "play_outcome"]

_MAX_REASONS = 25


# ---------------------------------------------------------------------------------------
# the checker's own outcome solver over literal sums
# ---------------------------------------------------------------------------------------
class _Play:
    """Outcomes of literal sums of forms by direct play (memo on sorted component ids)."""

    def __init__(self, misere: bool) -> None:
        self.misere = misere
        self.memo: dict[tuple[int, ...], bool] = {}  # key -> "is a P-position"
        self.parts: dict[tuple[int, ...], tuple[Game, ...]] = {}

    def _moves(self, key: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Keys of the positions one move away (components kept sorted by id)."""
        parts = self.parts[key]
        result = []
        for i, part in enumerate(parts):
            ids_rest = key[:i] + key[i + 1 :]
            parts_rest = parts[:i] + parts[i + 1 :]
            for o in part.options:
                if o.is_zero:  # a component that reaches 0 drops out of the sum
                    k, new = ids_rest, parts_rest
                else:
                    j = bisect_left(ids_rest, o.id)
                    k = ids_rest[:j] + (o.id,) + ids_rest[j:]
                    new = parts_rest[:j] + (o,) + parts_rest[j:]
                if k not in self.parts:
                    self.parts[k] = new
                result.append(k)
        return result

    def is_p(self, *components: Game) -> bool:
        """Whether the literal sum of ``components`` is a P-position."""
        nonzero = sorted((p for p in components if not p.is_zero), key=lambda p: p.id)
        heaps = [p.nim_heap_size() for p in nonzero]
        if all(n is not None for n in heaps) and any(n > _PLAY_ATOM for n in heaps):
            return _nim_formula(heaps, self.misere)
        root = tuple(p.id for p in nonzero)
        if root in self.memo:
            return self.memo[root]
        self.parts.setdefault(root, tuple(nonzero))
        stack = [root]
        moves: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        while stack:
            k = stack[-1]
            if k in self.memo:
                stack.pop()
                continue
            if k not in moves:
                moves[k] = self._moves(k)
            pending = [m for m in moves[k] if m not in self.memo]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            if not moves[k]:
                # no move: in misère play the player to move wins (N); in normal play loses (P)
                self.memo[k] = not self.misere
            else:
                self.memo[k] = all(not self.memo[m] for m in moves[k])
            del moves[k]
        return self.memo[root]

    def outcome(self, *components: Game) -> str:
        return "P" if self.is_p(*components) else "N"


_SOLVERS = {True: _Play(True), False: _Play(False)}

#: sums of nim-heaps with a heap above this size are decided by the closed formulas
_PLAY_ATOM = 64


def _nim_formula(heaps: list[int], misere: bool) -> bool:
    """Whether a sum of nim-heaps (sizes ``heaps``, none 0) is a P-position, by the checker's
    own statement of the closed formulas: normal play, Bouton (P iff the XOR is 0); misère
    play, Winning Ways ch. 13 (if some heap is >= 2, P iff the XOR is 0; else P iff the
    number of heaps is odd)."""
    x = 0
    for n in heaps:
        x ^= n
    if not misere or max(heaps, default=0) >= 2:
        return x == 0
    return len(heaps) % 2 == 1


def play_outcome(*components: Game | str, misere: bool = True) -> str:
    """``'P'`` or ``'N'``: the outcome of the literal sum of ``components``, by direct play.

    This is the checker's own solver (independent of :mod:`cgtalg.misere.outcome` and of
    Grundy theory): a position is the multiset of its components and a move replaces one
    component by one of its options.

    Parameters
    ----------
    *components : Game or str
    misere : bool, default True

    Returns
    -------
    str

    Examples
    --------
    >>> import cgtalg as cg
    >>> play_outcome(cg.star, cg.star), play_outcome(cg.star, cg.star, misere=False)
    ('N', 'P')
    """
    games = tuple(_form(c) for c in components)
    return _SOLVERS[bool(misere)].outcome(*games)


def _form(x: Any) -> Game:
    if isinstance(x, Game):
        return x
    if isinstance(x, str):
        return parse(x)
    raise CertificateError(f"expected a game form or game text, got {type(x).__name__}: {shorten(x)}")


# ---------------------------------------------------------------------------------------
# certificates in the checker's own representation
# ---------------------------------------------------------------------------------------
@dataclass
class _Node:
    g: Game
    h: Game
    identical: bool
    i: list[tuple[Game, str, Game, int]]  # (option, kind, witness, cited node index)
    ii: list[tuple[Game, str, Game, int]]
    winning_move: Game | None


@dataclass
class _Claim:
    g: Game
    h: Game
    misere: bool
    holds: bool
    kind: str  # "misere-equivalence" | "normal-grundy" | "distinguisher"
    nodes: list[_Node] | None = None
    root: int = 0
    value: int | None = None
    labels: list[tuple[Game, int]] | None = None
    t: Game | None = None
    outcome_g: str | None = None
    outcome_h: str | None = None


def _read_object(result: Any) -> _Claim:
    try:
        g, h, misere, holds, cert = result.g, result.h, result.misere, result.holds, result.certificate
    except AttributeError as exc:
        raise CertificateError(f"not an equivalence result: {exc}") from None
    if hasattr(cert, "condition_i"):
        order: list[Any] = []
        index: dict[int, int] = {}
        stack = [cert]
        while stack:
            node = stack.pop()
            if id(node) in index:
                continue
            index[id(node)] = len(order)
            order.append(node)
            for w in list(node.condition_i) + list(node.condition_ii):
                if id(w.proof) not in index:
                    stack.append(w.proof)
        nodes = [
            _Node(
                n.g,
                n.h,
                bool(n.identical),
                [(w.option, w.kind, w.game, index[id(w.proof)]) for w in n.condition_i],
                [(w.option, w.kind, w.game, index[id(w.proof)]) for w in n.condition_ii],
                n.winning_move,
            )
            for n in order
        ]
        return _Claim(g, h, misere, holds, "misere-equivalence", nodes=nodes)
    if hasattr(cert, "labels"):
        return _Claim(g, h, misere, holds, "normal-grundy", value=cert.value, labels=list(cert.labels))
    if hasattr(cert, "t"):
        return _Claim(g, h, misere, holds, "distinguisher", t=cert.t, outcome_g=cert.outcome_g, outcome_h=cert.outcome_h)
    raise CertificateError(f"unknown certificate type {type(cert).__name__}")


def _get(d: Any, key: str, where: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise CertificateError(f"malformed certificate: {where} has no field {key!r}")
    return d[key]


def _game_field(d: Any, key: str, where: str) -> Game:
    value = _get(d, key, where)
    if not isinstance(value, (str, dict)):
        raise CertificateError(f"malformed certificate: {where}.{key} must be game text, got {shorten(value)}")
    try:
        return game_from_json(value)  # game text, or {"dag": ...} for forms with huge texts
    except GameNotationError as exc:
        raise CertificateError(f"malformed certificate: {where}.{key}: {exc}") from None


def _read_json(data: dict) -> _Claim:
    g = _game_field(data, "g", "result")
    h = _game_field(data, "h", "result")
    misere = _get(data, "misere", "result")
    holds = _get(data, "holds", "result")
    if not isinstance(misere, bool) or not isinstance(holds, bool):
        raise CertificateError("malformed certificate: 'misere' and 'holds' must be true or false")
    cert = _get(data, "certificate", "result")
    kind = _get(cert, "type", "certificate")
    if kind == "misere-equivalence":
        raw = _get(cert, "nodes", "certificate")
        if not isinstance(raw, list) or not raw:
            raise CertificateError("malformed certificate: 'nodes' must be a non-empty list")
        root = _get(cert, "root", "certificate")
        nodes = []
        for k, n in enumerate(raw):
            where = f"node {k}"
            lists = []
            for cond in ("i", "ii"):
                ws = _get(n, cond, where)
                if not isinstance(ws, list):
                    raise CertificateError(f"malformed certificate: {where}.{cond} must be a list")
                items = []
                for j, w in enumerate(ws):
                    wwhere = f"{where}.{cond}[{j}]"
                    ref = _get(w, "proof", wwhere)
                    if not isinstance(ref, int) or isinstance(ref, bool) or not 0 <= ref < len(raw):
                        raise CertificateError(f"malformed certificate: {wwhere}.proof {shorten(ref)} is not a node index")
                    kind_w = _get(w, "kind", wwhere)
                    items.append((_game_field(w, "option", wwhere), kind_w, _game_field(w, "game", wwhere), ref))
                lists.append(items)
            mv = n.get("winning_move") if isinstance(n, dict) else None
            nodes.append(
                _Node(
                    _game_field(n, "g", where),
                    _game_field(n, "h", where),
                    bool(_get(n, "identical", where)),
                    lists[0],
                    lists[1],
                    None if mv is None else _game_field(n, "winning_move", where),
                )
            )
        if not isinstance(root, int) or not 0 <= root < len(nodes):
            raise CertificateError(f"malformed certificate: root {shorten(root)} is not a node index")
        return _Claim(g, h, misere, holds, kind, nodes=nodes, root=root)
    if kind == "normal-grundy":
        value = _get(cert, "value", "certificate")
        raw = _get(cert, "labels", "certificate")
        if not isinstance(raw, list):
            raise CertificateError("malformed certificate: 'labels' must be a list")
        labels = []
        for j, item in enumerate(raw):
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], int)):
                raise CertificateError(f"malformed certificate: label {j} must be [game text, value]")
            labels.append((_game_field({"form": item[0]}, "form", f"label {j}"), item[1]))
        return _Claim(g, h, misere, holds, kind, value=value, labels=labels)
    if kind == "distinguisher":
        return _Claim(
            g,
            h,
            misere,
            holds,
            kind,
            t=_game_field(cert, "T", "certificate"),
            outcome_g=_get(cert, "outcome_g_plus_T", "certificate"),
            outcome_h=_get(cert, "outcome_h_plus_T", "certificate"),
        )
    raise CertificateError(f"unknown certificate type {shorten(kind)}")


# ---------------------------------------------------------------------------------------
# the checks
# ---------------------------------------------------------------------------------------
def _show(x: Game) -> str:
    """Short text of a form for messages (never fails, even for very deep forms)."""
    try:
        return format_game(x, max_chars=120)
    except RecursionError:
        return f"<form of birthday {x.birthday}>"


class _Where:
    """A proof step's name, formatted only when a message needs it."""

    def __init__(self, k: int, a: Game, b: Game) -> None:
        self.k, self.a, self.b = k, a, b

    def __str__(self) -> str:
        return f"step {self.k} ({_show(self.a)} ≡ {_show(self.b)})"


def _is_option(x: Game, of: Game) -> bool:
    return x in of  # O(1) for nim-heap atoms (options *0..*(n-1))


def _same_pair(node: _Node, a: Game, b: Game) -> bool:
    return (node.g is a and node.h is b) or (node.g is b and node.h is a)


def _check_distinguisher(c: _Claim, bad: list[str], good: list[str]) -> None:
    if c.holds:
        bad.append("a distinguisher certificate cannot prove an equivalence (holds is true)")
    play = _SOLVERS[bool(c.misere)]
    og, oh = play.outcome(c.g, c.t), play.outcome(c.h, c.t)
    if og == oh:
        bad.append(f"T = {_show(c.t)} does not distinguish: G + T and H + T are both {og}-positions")
    if c.outcome_g != og:
        bad.append(f"claimed o(G + T) = {c.outcome_g!r} but direct play gives {og}")
    if c.outcome_h != oh:
        bad.append(f"claimed o(H + T) = {c.outcome_h!r} but direct play gives {oh}")
    how = "direct play"
    if any((x.nim_heap_size() or 0) > _PLAY_ATOM for x in (c.g, c.h, c.t)):
        how = "direct play (sums of nim-heaps above *64 by Bouton's closed formulas)"
    good.append(f"{how}: o(G + T) = {og}, o(H + T) = {oh}")


def _check_grundy(c: _Claim, bad: list[str], good: list[str]) -> None:
    if c.misere:
        bad.append("a Grundy labelling proves normal-play equivalence only, but misere is true")
    if not c.holds:
        bad.append("a Grundy-labelling certificate must have holds = true")
    labels: dict[int, int] = {}
    for x, v in c.labels or []:
        if x.id in labels and labels[x.id] != v:
            bad.append(f"position {_show(x)} has two labels {labels[x.id]} and {v}")
        labels[x.id] = v
    # every subposition of G and H, by the checker's own traversal
    seen: set[int] = set()
    stack = [c.g, c.h]
    count = 0
    while stack and len(bad) < _MAX_REASONS:
        x = stack.pop()
        if x.id in seen:
            continue
        seen.add(x.id)
        count += 1
        if x.id not in labels:
            bad.append(f"subposition {_show(x)} has no Grundy label")
            continue
        n = x.nim_heap_size()
        if n is not None and n > _PLAY_ATOM:  # *n: options *0..*(n-1), so its value is n
            if labels[x.id] != n:
                bad.append(f"{_show(x)} is the nim-heap *{n} but is labelled {labels[x.id]}")
            continue
        stack.extend(x.options)
        values = {labels.get(o.id) for o in x.options}
        v = labels[x.id]
        if v in values:
            bad.append(f"{_show(x)} is labelled {v} but has an option labelled {v}")
        missing = [k for k in range(v) if k not in values]
        if missing:
            bad.append(f"{_show(x)} is labelled {v} but no option is labelled {missing[0]}")
    lg, lh = labels.get(c.g.id), labels.get(c.h.id)
    if lg != lh or lg != c.value:
        bad.append(f"labels of G ({lg}) and H ({lh}) and the claimed value {c.value} differ")
    if not _SOLVERS[False].is_p(c.g, c.h):
        bad.append("G + H is not a normal-play P-position by direct play")
    good.append(f"Grundy labels of {count} positions checked; G + H is P by direct play")


def _check_misere(c: _Claim, bad: list[str], good: list[str]) -> None:
    if not c.misere:
        bad.append("a Theorem 1 certificate proves misère equivalence only, but misere is false")
    if not c.holds:
        bad.append("an equivalence certificate must have holds = true")
    nodes = c.nodes or []
    if not _same_pair(nodes[c.root], c.g, c.h):
        bad.append(f"the root step proves {_show(nodes[c.root].g)} ≡ {_show(nodes[c.root].h)}, not G ≡ H")
    play = _SOLVERS[True]
    seen: set[int] = set()
    stack = [c.root]
    while stack and len(bad) < _MAX_REASONS:
        k = stack.pop()
        if k in seen:
            continue
        seen.add(k)
        n = nodes[k]
        a, b = n.g, n.h
        here = _Where(k, a, b)
        if n.identical:
            if a is not b:
                bad.append(f"{here} claims identical forms, but they differ")
            if n.i or n.ii:
                bad.append(f"{here} claims identical forms but also lists witnesses")
            continue
        size = a.birthday + b.birthday
        for cond, whole, other, kinds in (("i", b, a, ("H''", "G'")), ("ii", a, b, ("G''", "H'"))):
            covered: set[int] = set()
            for opt, kind, w, ref in n.i if cond == "i" else n.ii:
                if not _is_option(opt, whole):
                    bad.append(f"{here} ({cond}): {_show(opt)} is not an option of {_show(whole)}")
                    continue
                covered.add(opt.id)
                if kind == kinds[0]:  # an option of the option, equivalent to the other game
                    if not _is_option(w, opt):
                        bad.append(f"{here} ({cond}): witness {_show(w)} is not an option of {_show(opt)}")
                        continue
                    target = other
                elif kind == kinds[1]:  # an option of the other game, equivalent to the option
                    if not _is_option(w, other):
                        bad.append(f"{here} ({cond}): witness {_show(w)} is not an option of {_show(other)}")
                        continue
                    target = opt
                else:
                    bad.append(f"{here} ({cond}): unknown witness kind {kind!r} (expected {kinds})")
                    continue
                cited = nodes[ref]
                if not _same_pair(cited, w, target):
                    bad.append(
                        f"{here} ({cond}): for {_show(opt)} the cited step {ref} proves"
                        f" {_show(cited.g)} ≡ {_show(cited.h)}, not {_show(w)} ≡ {_show(target)}"
                    )
                    continue
                if w.birthday + target.birthday >= size:  # implied by the above; keeps it well founded
                    bad.append(f"{here} ({cond}): cited step {ref} is not smaller")
                    continue
                stack.append(ref)
            for o in whole.options:
                if o.id not in covered:
                    bad.append(f"{here} ({cond}): no witness for the option {_show(o)} of {_show(whole)}")
        # condition (iii), by direct play
        for z, o in ((a, b), (b, a)):
            if z.is_zero and play.is_p(o):
                bad.append(f"{here} (iii): {_show(z)} = 0 but {_show(o)} is a misère P-position, not N")
        if n.winning_move is not None:
            side = b if a.is_zero else a
            if not _is_option(n.winning_move, side) or not play.is_p(n.winning_move):
                mv = _show(n.winning_move)
                bad.append(f"{here} (iii): {mv} is not a move of {_show(side)} to a P-position")
    trivial = sum(1 for k in seen if nodes[k].identical)
    good.append(
        f"Theorem 1 steps checked: {len(seen) - trivial} (condition (iii) by direct play);"
        f" steps by identical forms: {trivial}"
    )


def check_proof(result: Any, explain: bool = False) -> bool | tuple[bool, list[str]]:
    """Re-verify an equivalence certificate by direct play, independently of the search.

    Parameters
    ----------
    result : EquivalenceResult or dict
        A result of :func:`cgtalg.misere.equivalence.equivalent`, or its ``to_json()``.
    explain : bool, default False
        Also return the reasons: the failures found, or (when the certificate is valid)
        a summary of what was checked.

    Returns
    -------
    bool or (bool, list[str])
        Whether the certificate proves its claim (``g ≡ h`` or ``g ≢ h``).

    Raises
    ------
    cgtalg.errors.CertificateError
        If ``result`` is not a certificate at all (missing fields, a node index out of
        range, game text that cannot be parsed, an unknown certificate type).

    Examples
    --------
    >>> from cgtalg.misere.equivalence import equivalent
    >>> check_proof(equivalent("*+*", "0"), explain=True)
    (True, ['Theorem 1 steps checked: 1 (condition (iii) by direct play); steps by identical forms: 1'])
    >>> data = equivalent("*2", "*3").to_json()
    >>> data["certificate"]["outcome_h_plus_T"] = "P"
    >>> check_proof(data, explain=True)
    (False, ["claimed o(H + T) = 'P' but direct play gives N"])
    """
    if isinstance(result, dict):
        claim = _read_json(result)
    else:
        claim = _read_object(result)
    if not isinstance(claim.g, Game) or not isinstance(claim.h, Game):
        raise CertificateError("malformed certificate: g and h must be game forms")
    bad: list[str] = []
    good: list[str] = []
    if claim.kind == "distinguisher":
        if not isinstance(claim.t, Game):
            raise CertificateError("malformed certificate: T must be a game form")
        _check_distinguisher(claim, bad, good)
    elif claim.kind == "normal-grundy":
        _check_grundy(claim, bad, good)
    else:
        _check_misere(claim, bad, good)
    ok = not bad
    if explain:
        return ok, (good if ok else bad[:_MAX_REASONS])
    return ok
