"""An independent checker for partizan misère comparison certificates (:mod:`cgtalg.misere.partizan`).

:func:`check_misere_certificate` re-verifies a :class:`~cgtalg.misere.partizan.MisereComparison`
without any code of the search: it has its own solver of *literal* disjunctive sums (a position
is the multiset of its components; a move replaces one component by one of its options for the
player to move; in misère play a player with no move wins), its own universe membership tests
and its own construction of the dead ends used by the Proviso. What it checks:

* **a distinguisher** ``T`` (``G ≱ H``): ``T`` belongs to the universe, and the outcomes of
  ``G + T`` and ``H + T`` found by direct play are the claimed ones and are *not* in the order
  ``o⁻(G+T) ≥ o⁻(H+T)`` (``L > P > R``, ``L > N > R``). This is a proof by definition.
* **a proof of** ``G ≥ H`` (Maintenance and Proviso; Siegel CGT V.6.16 / seed 002 Theorem 2
  for the full universe, Larsson-Nowakowski-Santos 2017 Theorem 4 with Larsson-Milley-
  Nowakowski-Renault-Santos 2018 for the dead-ending and dicot universes): ``G`` and ``H``
  belong to the universe; every step ``A ≥ B`` has, for every Left option ``B^L``, a witness
  that really is a Left option of ``A`` (cited step ``A^L ≥ B^L``) or a Right option of
  ``B^L`` (cited step ``A ≥ B^LR``), and for every Right option ``A^R`` a witness that is a
  Right option of ``B`` (``A^R ≥ B^R``) or a Left option of ``A^R`` (``A^RL ≥ B``); each cited
  step has a smaller birthday sum (so the certificate is well founded); and the Proviso holds,
  checked by play: if ``B`` is a Left end, ``A`` is Left-strong — full universe: ``A`` is a
  Left end; dicots: Left wins ``A`` moving first (``0`` is the only end); dead-ending: Left wins
  moving first both ``A`` and ``A + D_b`` for ``D_b = { | D_0, …, D_(b-1)}``,
  ``b = birthday(A) + 1`` (every Left dead end ``X`` is dominated for Right by such a
  ``D_b``: a Right strategy in ``A + X`` is copied in ``A + D_b`` move for move, and more
  reserve than ``birthday(A) + 1`` cannot help Right since Left only moves in ``A``). The
  Right-end case is the conjugate.

Examples
--------
>>> from cgtalg.core.partizan import nimber, pgame
>>> from cgtalg.misere.partizan import misere_equal, misere_ge
>>> star = nimber(1)
>>> check_misere_certificate(misere_equal(star + star, pgame()))
True
>>> check_misere_certificate(misere_equal(star + star, pgame(), universe="dicot"), explain=True)
(True, ['dicot: 4 proof steps checked (Maintenance witnesses; Proviso by direct play)'])
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from cgtalg.core.partizan import PartizanGame, pgame
from cgtalg.errors import CertificateError, shorten

__all__ = ["check_misere_certificate", "play_misere_outcome", "form_to_json", "form_from_json"]

_MAX_REASONS = 25
_ORDER_FIRST = {"L": (True, False), "R": (False, True), "N": (True, True), "P": (False, False)}


# ---------------------------------------------------------------------------------------
# the checker's own solver over literal sums
# ---------------------------------------------------------------------------------------
class _Play:
    """Who wins a literal sum moving first, by direct play (memo on sorted component ids and
    the player to move; ``True`` = the player to move wins)."""

    def __init__(self) -> None:
        self.memo: dict[tuple[tuple[int, ...], bool], bool] = {}
        self.parts: dict[tuple[int, ...], tuple[PartizanGame, ...]] = {}

    def _moves(self, key: tuple[int, ...], left: bool) -> list[tuple[int, ...]]:
        parts = self.parts[key]
        out = []
        for i, p in enumerate(parts):
            rest_ids = key[:i] + key[i + 1:]
            rest = parts[:i] + parts[i + 1:]
            for o in (p.left if left else p.right):
                if not (o.left or o.right):  # a component that reaches 0 drops out
                    k, new = rest_ids, rest
                else:
                    j = bisect_left(rest_ids, o.id)
                    k, new = rest_ids[:j] + (o.id,) + rest_ids[j:], rest[:j] + (o,) + rest[j:]
                if k not in self.parts:
                    self.parts[k] = new
                out.append(k)
        return out

    def wins_first(self, components: tuple[PartizanGame, ...], left: bool) -> bool:
        comps = tuple(sorted((c for c in components if c.left or c.right), key=lambda x: x.id))
        root = (tuple(c.id for c in comps), left)
        memo = self.memo
        if root in memo:
            return memo[root]
        self.parts.setdefault(root[0], comps)
        stack: list[tuple[tuple[tuple[int, ...], bool], bool]] = [(root, False)]
        moves: dict[tuple[tuple[int, ...], bool], list[tuple[int, ...]]] = {}
        while stack:
            node, expanded = stack.pop()
            if node in memo:
                continue
            key, who = node
            if expanded:
                memo[node] = any(not memo[(m, not who)] for m in moves.pop(node))
                continue
            mv = self._moves(key, who)
            if not mv:  # misère: the player unable to move wins
                memo[node] = True
                continue
            moves[node] = mv
            stack.append((node, True))
            for m in mv:
                if (m, not who) not in memo:
                    stack.append(((m, not who), False))
        return memo[root]

    def outcome(self, *components: PartizanGame) -> str:
        lf = self.wins_first(components, True)
        rf = self.wins_first(components, False)
        return {(True, False): "L", (False, True): "R", (True, True): "N", (False, False): "P"}[(lf, rf)]


_SOLVER = _Play()


def play_misere_outcome(*components: PartizanGame) -> str:
    """``'L'``, ``'R'``, ``'N'`` or ``'P'``: the misère outcome of the literal sum of
    ``components`` by direct play (the checker's own solver).

    Examples
    --------
    >>> from cgtalg.core.partizan import nimber, integer
    >>> play_misere_outcome(nimber(1), nimber(1)), play_misere_outcome(integer(1)), play_misere_outcome()
    ('N', 'R', 'N')
    """
    for c in components:
        if not isinstance(c, PartizanGame):
            raise CertificateError(f"expected partizan forms, got {type(c).__name__}: {shorten(c)}")
    return _SOLVER.outcome(*components)


def _outcome_ge(a: str, b: str) -> bool:
    la, ra = _ORDER_FIRST[a]
    lb, rb = _ORDER_FIRST[b]
    return (la or not lb) and (rb or not ra)


# ---------------------------------------------------------------------------------------
# the checker's own universe tests and dead ends
# ---------------------------------------------------------------------------------------
def _followers(g: PartizanGame) -> list[PartizanGame]:
    seen: dict[int, PartizanGame] = {}
    stack = [g]
    while stack:
        x = stack.pop()
        if x.id in seen:
            continue
        if x._lazy:  # a compact number's tree (cgtalg.core.partizan_atoms) is never walked
            from cgtalg.core.partizan_atoms import compact_refusal

            raise compact_refusal("checking a universe's membership", x)
        seen[x.id] = x
        stack.extend(x.left)
        stack.extend(x.right)
    return list(seen.values())


def _member(g: PartizanGame, universe: str) -> str | None:
    """None if ``g`` belongs to ``universe``, else a reason."""
    if universe == "all":
        return None
    fol = _followers(g)
    if universe == "dicot":
        for x in fol:
            if bool(x.left) != bool(x.right):
                return f"the follower {_show(x)} has moves for one player only"
        return None
    for x in fol:  # dead-ending: at a Left (Right) end, no follower has a Left (Right) move
        if not x.left and any(y.left for y in _followers(x)):
            return f"the Left end {_show(x)} is not dead"
        if not x.right and any(y.right for y in _followers(x)):
            return f"the Right end {_show(x)} is not dead"
    return None


def _dead_end(b: int, left: bool) -> PartizanGame:
    """``D_b = { | D_0, …, D_(b-1)}`` (``left=True``) or its conjugate ``{D'_0, … | }``."""
    chain = [pgame()]
    for _ in range(b):
        chain.append(pgame([], chain) if left else pgame(chain, []))
    return chain[b]


def _strong(a: PartizanGame, universe: str, left: bool) -> bool:
    if universe == "all":
        return not (a.left if left else a.right)
    if not _SOLVER.wins_first((a,), left):
        return False
    if universe == "dicot":
        return True
    return _SOLVER.wins_first((a, _dead_end(a.birthday + 1, left)), left)


# ---------------------------------------------------------------------------------------
# JSON (forms as DAGs) for storing certificates
# ---------------------------------------------------------------------------------------
def form_to_json(g: PartizanGame) -> dict:
    """``{"nodes": [[left indices, right indices], ...], "root": k}``, children first."""
    index: dict[int, int] = {}
    nodes: list[list[list[int]]] = []
    for x in g.subpositions():
        index[x.id] = len(nodes)
        nodes.append([[index[o.id] for o in x.left], [index[o.id] for o in x.right]])
    return {"nodes": nodes, "root": index[g.id]}


def form_from_json(data: Any) -> PartizanGame:
    """The form encoded by :func:`form_to_json` (children must precede parents)."""
    if not isinstance(data, dict) or "nodes" not in data or "root" not in data:
        raise CertificateError("malformed form: expected {'nodes': [...], 'root': k}")
    built: list[PartizanGame] = []
    for k, node in enumerate(data["nodes"]):
        if not (isinstance(node, list) and len(node) == 2):
            raise CertificateError(f"malformed form: node {k} must be [left, right]")
        try:
            built.append(pgame([built[i] for i in node[0]], [built[i] for i in node[1]]))
        except (IndexError, TypeError):
            raise CertificateError(f"malformed form: node {k} refers to a later or missing node") from None
    r = data["root"]
    if not isinstance(r, int) or not 0 <= r < len(built):
        raise CertificateError(f"malformed form: root {shorten(r)} is not a node index")
    return built[r]


# ---------------------------------------------------------------------------------------
# the checks
# ---------------------------------------------------------------------------------------
def _show(g: PartizanGame) -> str:
    from cgtalg.core.partizan import literal_text

    text = literal_text(g)
    return text if len(text) <= 80 else text[:77] + "..."


def _check_distinction(c: Any, g: PartizanGame, h: PartizanGame, universe: str,
                       bad: list[str], good: list[str]) -> None:
    t = c.t
    if not isinstance(t, PartizanGame):
        raise CertificateError("malformed certificate: T must be a partizan form")
    if c.g is not g and c.g is not h:
        bad.append("the distinguisher is about other games")
    why = _member(t, universe)
    if why:
        bad.append(f"T is not in the universe {universe!r}: {why}")
    og, oh = _SOLVER.outcome(c.g, t), _SOLVER.outcome(c.h, t)
    if og != c.outcome_g or oh != c.outcome_h:
        bad.append(f"claimed o(G+T) = {c.outcome_g}, o(H+T) = {c.outcome_h}; direct play gives {og}, {oh}")
    if _outcome_ge(og, oh):
        bad.append(f"T does not distinguish: o(G+T) = {og} ≥ o(H+T) = {oh}")
    good.append(f"{universe}: T in the universe; direct play gives o(G+T) = {og}, o(H+T) = {oh}")


def _check_witnesses(tag: str, items: Any, owner: Any, side: str, size: int, bad: list[str],
                     stack: list, want_of: Any) -> None:
    """Check one of the conditions (i)/(ii) of a certificate step: each cited option of
    ``owner`` (its Left options for (i), Right for (ii)) has a witness of a valid kind whose
    cited sub-step proves the wanted inequality on a smaller pair; every option is covered."""
    options = owner.left if side == "Left" else owner.right
    covered = set()
    for o, kind, w, sub in items:
        if o not in options:
            bad.append(f"{tag}: {_show(o)} is not a {side} option of {_show(owner)}")
            continue
        covered.add(o.id)
        want = want_of(o, kind, w)
        if want is None:
            bad.append(f"{tag}: witness {_show(w)} of kind {kind!r} is not such an option")
            continue
        if sub.g is not want[0] or sub.h is not want[1] or sub.g.birthday + sub.h.birthday >= size:
            bad.append(f"{tag}: the cited step does not prove {_show(want[0])} ≥ {_show(want[1])}")
            continue
        stack.append(sub)
    missing = [o for o in options if o.id not in covered]
    if missing:
        bad.append(f"{tag}: no witness for the {side} option {_show(missing[0])} of {_show(owner)}")



def _check_proof(root: Any, g: PartizanGame, h: PartizanGame, universe: str,
                 bad: list[str]) -> int:
    if root.g is not g or root.h is not h:
        bad.append(f"the root step proves {_show(root.g)} ≥ {_show(root.h)}, not {_show(g)} ≥ {_show(h)}")
    seen: set[int] = set()
    stack = [root]
    while stack and len(bad) < _MAX_REASONS:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        a, b = node.g, node.h
        if node.universe != universe:
            bad.append(f"step {_show(a)} ≥ {_show(b)} is for the universe {node.universe!r}")
        if node.identical:
            if a is not b or node.left or node.right:
                bad.append(f"step {_show(a)} ≥ {_show(b)} claims identical forms")
            continue
        size = a.birthday + b.birthday
        # (i): every H^L has a witness G^L ≥ H^L or G ≥ H^LR; (ii): every G^R has H^R with
        # G^R ≥ H^R, or G^RL ≥ H
        _check_witnesses(
            "(i)", node.left, b, "Left", size, bad, stack,
            lambda hl, kind, w: (w, hl) if kind == "G^L" and w in a.left
            else (a, w) if kind == "H^LR" and w in hl.right else None,
        )
        _check_witnesses(
            "(ii)", node.right, a, "Right", size, bad, stack,
            lambda gr, kind, w: (gr, w) if kind == "H^R" and w in b.right
            else (w, b) if kind == "G^RL" and w in gr.left else None,
        )
        if not b.left and not _strong(a, universe, True):
            bad.append(f"(iii): {_show(b)} is a Left end but {_show(a)} is not Left-strong")
        if not a.right and not _strong(b, universe, False):
            bad.append(f"(iv): {_show(a)} is a Right end but {_show(b)} is not Right-strong")
    return len(seen)


def check_misere_certificate(result: Any, explain: bool = False) -> bool | tuple[bool, list[str]]:
    """Re-verify a partizan misère comparison by direct play, independently of the search.

    Parameters
    ----------
    result : MisereComparison
        A result of :func:`~cgtalg.misere.partizan.misere_ge` or
        :func:`~cgtalg.misere.partizan.misere_equal`.
    explain : bool, default False
        Also return the reasons (failures, or a summary of what was checked).

    Returns
    -------
    bool or (bool, list of str)
        Whether the certificate proves the claim.

    Raises
    ------
    cgtalg.errors.CertificateError
        If ``result`` is not a comparison result at all.

    Examples
    --------
    >>> from cgtalg.core.partizan import integer, pgame
    >>> from cgtalg.misere.partizan import misere_ge
    >>> ok, why = check_misere_certificate(misere_ge(integer(-1), pgame()), explain=True)
    >>> ok, why[0].startswith("all: T in the universe")
    (True, True)
    """
    try:
        g, h, universe, relation, holds = result.g, result.h, result.universe, result.relation, result.holds
        cert = result.certificate
    except AttributeError as exc:
        raise CertificateError(f"not a misère comparison result: {exc}") from None
    if universe not in ("all", "dead-ending", "dicot") or relation not in (">=", "="):
        raise CertificateError(f"unknown universe {shorten(universe)} or relation {shorten(relation)}")
    bad: list[str] = []
    good: list[str] = []
    for name, x in (("G", g), ("H", h)):
        why = _member(x, universe)
        if why:
            bad.append(f"{name} is not in the universe {universe!r}: {why}")
    if hasattr(cert, "t"):
        if holds:
            bad.append("a distinguisher cannot prove that the relation holds")
        pair_ok = (cert.g is g and cert.h is h) or (relation == "=" and cert.g is h and cert.h is g)
        if not pair_ok:
            bad.append("the distinguisher compares other games")
        _check_distinction(cert, g, h, universe, bad, good)
    else:
        if not holds:
            bad.append("a proof cannot refute the relation")
        if relation == ">=":
            steps = _check_proof(cert, g, h, universe, bad)
        else:
            if not (isinstance(cert, tuple) and len(cert) == 2):
                raise CertificateError("an equality certificate is a pair of proofs (G ≥ H, H ≥ G)")
            steps = _check_proof(cert[0], g, h, universe, bad) + _check_proof(cert[1], h, g, universe, bad)
        good.append(f"{universe}: {steps} proof steps checked (Maintenance witnesses; Proviso by direct play)")
    ok = not bad
    if explain:
        return ok, (good if ok else bad[:_MAX_REASONS])
    return ok
