"""Equivalence of impartial forms, with certificates a reader (or :mod:`cgtalg.misere.proof`) can check.

Misère play, impartial universe
-------------------------------
``G ≡ H`` iff ``o⁻(G + X) = o⁻(H + X)`` for every impartial ``X``. Spindler ("Equality
classes of Nim positions under misère play", Integers 16 (2016); seed 002) combines
Siegel's Theorems V.3.5 (his Lemma 2) and V.3.6 (his Lemma 1) of *Combinatorial Game
Theory* (CGT, 2013) into a recursion on options only:

**Theorem 1 (Spindler).** ``G ≡ H`` iff

(i)   for every ``H'`` there is an ``H''`` with ``H'' ≡ G`` or a ``G'`` with ``G' ≡ H'``;
(ii)  for every ``G'`` there is a ``G''`` with ``G'' ≡ H`` or an ``H'`` with ``H' ≡ G'``;
(iii) if ``G ≅ 0`` then ``o⁻(H) = N``, and if ``H ≅ 0`` then ``o⁻(G) = N``.

:func:`equivalent` decides ``G ≡ H`` by this recursion (memoised on pairs of form ids,
iterative, independent of misère canonical forms) and returns an
:class:`EquivalenceResult` holding a certificate:

* when ``G ≡ H``: an :class:`EquivalenceProof`, one :class:`Witness` per option for
  conditions (i) and (ii), each with the proof of the witnessed equivalence. Sub-proofs are
  shared objects (one per pair of forms), so a certificate is a DAG, not a tree;
* when ``G ≢ H``: a :class:`Distinction`, a game ``T`` with ``o⁻(G+T) ≠ o⁻(H+T)``
  (verified by direct play), built from a failing condition (for small forms the first
  failures of both (i) and (ii) are tried and the smaller ``T`` kept). If (iii) fails, ``T = 0``.
  If (i) fails at ``H'``, then ``G`` is *linked* to ``H'`` (Lemma 2): there is a ``T`` with
  ``G+T`` and ``H'+T`` both P-positions, and then ``H+T`` is an N-position (it has the
  move to ``H'+T``). That ``T`` (see :func:`link`) has one option ``T_X`` for each option
  ``X`` of either game, where ``T_X`` makes ``X + T_X`` a P-position and the *other* game
  plus ``T_X`` an N-position (a distinguisher of the pair, oriented). Any verified
  oriented distinguisher will do for ``T_X``: the search tries ``0`` and the misère mate
  ``A⁻`` (``0⁻ = *``, ``A⁻ = {A'⁻}``; ``A + A⁻`` is always P, see :func:`misere_mate`)
  first, then the construction above recursively. Orientation can be flipped with mates:
  if ``o⁻(A+X) = N`` and ``o⁻(B+X) = P`` then ``Y = {X} ∪ {A'⁻ : o⁻(A'+X) = N}`` has
  ``o⁻(A+Y) = P`` (every move from ``A+Y`` can be answered by a move to ``A'+A'⁻`` or
  ``A'+X``, both P, and ``A+X`` is N) and ``o⁻(B+Y) = N`` (move to ``B+X``). By Theorem 1
  one of the two orientations always comes directly from a failing condition.

Normal play
-----------
``G ≡ H`` iff ``G + H`` is a P-position iff ``G`` and ``H`` have the same Grundy value
(Sprague-Grundy; Siegel CGT IV.1). The certificate of an equality is a :class:`GrundyProof`
(a Grundy labelling of every subposition, checkable locally, plus the mirror argument that
``G + H`` is P); an inequality is refuted by ``T = *g(H)`` (``H + T`` is P, ``G + T`` is N).

Examples
--------
>>> import cgtalg as cg
>>> from cgtalg.misere.equivalence import equivalent
>>> bool(equivalent(cg.nim(2) + cg.nim(1), cg.nim(3)))
True
>>> r = equivalent(cg.parse("{*2}"), cg.parse("*2+*2"))
>>> r.holds, r.certificate.condition
(False, 'i')
"""


from __future__ import annotations

from cgtalg.core.game import Game, nim, zero
from cgtalg.misere.equivalence_certificate import Distinction, EquivalenceResult, GrundyProof
from cgtalg.misere.equivalence_engine import (
    _ATOM_SEARCH,
    _ENGINE,
    _NORMAL_MEMO,
    _PLAY,
    _as_game,
    _check_flag,
)
from cgtalg.normal.grundy import grundy

__all__ = [
    "equivalent",
    "linked",
    "link",
    "distinguisher",
    "equivalence_classes",
]

# ---------------------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------------------
def equivalent(g: Game | str, h: Game | str, misere: bool = True) -> EquivalenceResult:
    """Decide ``g ≡ h`` and return the answer with a certificate.

    Misère play uses Spindler's Theorem 1 (seed 002; Siegel CGT Theorems V.3.5-V.3.6) in the
    impartial misère universe: ``G ≡ H`` iff every ``H'`` has an ``H'' ≡ G`` or a
    ``G' ≡ H'``, every ``G'`` has a ``G'' ≡ H`` or an ``H' ≡ G'``, and if one game is ``0``
    the other is an N-position. The search is memoised on pairs of form ids and does not use
    misère canonical forms. Normal play compares Grundy values (Sprague-Grundy).

    Parameters
    ----------
    g, h : Game or str
        The forms (text is parsed with :func:`cgtalg.parse`).
    misere : bool, default True
        Misère play (impartial universe) or normal play.

    Returns
    -------
    EquivalenceResult
        ``.holds`` and a certificate: witnesses for each option (equivalence), a Grundy
        labelling (normal-play equivalence), or a distinguishing game ``T`` with
        ``o(g+T) ≠ o(h+T)`` verified by direct play (inequivalence).

    Raises
    ------
    TypeError
        If ``g`` or ``h`` is not a Game or text, or ``misere`` is not a bool.
    cgtalg.errors.GameNotationError
        If game text cannot be parsed.

    Examples
    --------
    >>> import cgtalg as cg
    >>> equivalent("*+*", "0").holds          # Spindler Theorem 5 with n = 1
    True
    >>> r = equivalent("0", "*")              # condition (iii) fails: T = 0
    >>> r.holds, str(r.distinguisher), r.certificate.outcome_g, r.certificate.outcome_h
    (False, '0', 'N', 'P')
    >>> equivalent("*+*", "0", misere=False).holds
    True
    """
    g = _as_game(g, "g")
    h = _as_game(h, "h")
    misere = _check_flag(misere)
    if not misere:
        return _normal_equivalent(g, h)
    if g is not h:
        na, nb = g.nim_heap_size(), h.nim_heap_size()
        if na is not None and nb is not None and max(na, nb) > _ATOM_SEARCH:
            return EquivalenceResult(g, h, True, False, _nim_distinction(g, h, na, nb))
    engine = _ENGINE
    node = engine.node(g, h)
    if node is not None:
        if node.g is not g:  # memo built in the other orientation
            node = node.swapped()
        return EquivalenceResult(g, h, True, True, node)
    return EquivalenceResult(g, h, True, False, engine.distinction(g, h))


def _nim_distinction(g: Game, h: Game, a: int, b: int) -> Distinction:
    """Distinct nim-heaps ``*a``, ``*b`` are misère-inequivalent: ``T = *max(a, b)`` when that
    is ``>= 2`` (then ``*m + *m`` is P and ``*a + *b`` with ``a != b`` is N, by misère Nim,
    Winning Ways ch. 13), else ``T = 0`` (``{a, b} = {0, 1}``: ``0`` is N, ``*`` is P)."""
    m = max(a, b)
    t = nim(m) if m >= 2 else zero
    og = _PLAY[True].outcome(g, t)
    oh = _PLAY[True].outcome(h, t)
    if og == oh:
        raise RuntimeError(f"internal error: T = *{m} does not distinguish *{a} and *{b}")
    return Distinction(g, h, True, t, og, oh, "nim" if m >= 2 else "iii")


def _normal_equivalent(g: Game, h: Game) -> EquivalenceResult:
    key = (g.id, h.id)
    hit = _NORMAL_MEMO.get(key)
    if hit is not None:
        return hit
    vg, vh = grundy(g), grundy(h)
    if vg == vh:
        labels: dict[int, tuple[Game, int]] = {}
        for root in (g, h):
            # nim-heaps above _ATOM_SEARCH are labelled as atoms (the checker knows *n has value n)
            n = root.nim_heap_size()
            if n is not None and n > _ATOM_SEARCH:
                labels.setdefault(root.id, (root, n))
                continue
            for x in root.subpositions():
                labels.setdefault(x.id, (x, grundy(x)))
        cert: GrundyProof | Distinction = GrundyProof(g, h, vg, tuple(labels.values()))
        if not _PLAY[False].is_p(g, h):  # the mirror argument, by direct play
            raise RuntimeError(f"internal error: {g} + {h} is not a normal-play P-position")
        result = EquivalenceResult(g, h, False, True, cert)
    else:
        t = nim(vh)  # h + *g(h) is P, g + *g(h) is N
        og, oh = _PLAY[False].outcome(g, t), _PLAY[False].outcome(h, t)
        if og == oh:
            raise RuntimeError(f"internal error: *{vh} does not distinguish {g} and {h}")
        result = EquivalenceResult(g, h, False, False, Distinction(g, h, False, t, og, oh, "grundy"))
    _NORMAL_MEMO[key] = result
    return result


def linked(g: Game | str, h: Game | str, misere: bool = True) -> bool:
    """Whether ``g`` is linked to ``h``: ``o(g+T) = o(h+T) = P`` for some impartial ``T``.

    Misère play: Siegel CGT Theorem V.3.5 (Spindler's Lemma 2): ``G`` is linked to ``H``
    iff no ``G' ≡ H`` and no ``H' ≡ G``. Normal play: ``G + T`` is P iff ``T = G``, so
    ``G`` is linked to ``H`` iff ``G ≡ H``.

    Parameters
    ----------
    g, h : Game or str
    misere : bool, default True

    Returns
    -------
    bool

    Raises
    ------
    TypeError, cgtalg.errors.GameNotationError
        As for :func:`equivalent`.

    Examples
    --------
    >>> import cgtalg as cg
    >>> linked(cg.zero, cg.zero), linked(cg.star, cg.zero), linked(cg.nim(2), cg.nim(3))
    (True, False, False)
    """
    g = _as_game(g, "g")
    h = _as_game(h, "h")
    if not _check_flag(misere):
        return grundy(g) == grundy(h)
    return bool(_ENGINE.run_gen(_ENGINE._linked_to_option(g, h)))


def link(g: Game | str, h: Game | str, misere: bool = True) -> Game | None:
    """A game ``T`` with ``g + T`` and ``h + T`` both P-positions, or None if there is none.

    Misère play: built as in the proof of Siegel CGT Theorem V.3.5: ``T`` has, for each
    option ``X`` of ``g`` (resp. ``h``), an option ``T_X`` with ``X + T_X`` P and
    ``h + T_X`` (resp. ``g + T_X``) N; then every move from ``g + T`` or ``h + T`` lands on
    an N-position. Both outcomes are verified by direct play. Normal play: ``T = *g(g)``.

    Parameters
    ----------
    g, h : Game or str
    misere : bool, default True

    Returns
    -------
    Game or None

    Raises
    ------
    TypeError, cgtalg.errors.GameNotationError
        As for :func:`equivalent`.

    Examples
    --------
    >>> import cgtalg as cg
    >>> G, H = cg.parse("{*2}"), cg.nim(3)
    >>> t = link(G, H)
    >>> cg.outcome(G + t, misere=True), cg.outcome(H + t, misere=True)
    ('P', 'P')
    >>> link(cg.star, cg.zero) is None
    True
    """
    g = _as_game(g, "g")
    h = _as_game(h, "h")
    misere = _check_flag(misere)
    if not linked(g, h, misere):
        return None
    if not misere:
        t = nim(grundy(g))
    else:
        t, _parts = _ENGINE.run(("link", g, h))
    if not (_PLAY[misere].is_p(g, t) and _PLAY[misere].is_p(h, t)):
        raise RuntimeError(f"internal error: link {t} of {g} and {h} failed verification")
    return t


def distinguisher(g: Game | str, h: Game | str, misere: bool = True) -> Game | None:
    """A game ``T`` with ``o(g+T) ≠ o(h+T)`` (verified by play), or None if ``g ≡ h``.

    Misère play: built from the condition of Spindler's Theorem 1 that fails (``T = 0`` for
    (iii), a link of ``g`` and an option of ``h`` (or vice versa) for (i)/(ii), Siegel CGT
    V.3.5). Normal play: ``T = *g(h)``. This is ``equivalent(g, h, misere).distinguisher``.

    Parameters
    ----------
    g, h : Game or str
    misere : bool, default True

    Returns
    -------
    Game or None

    Raises
    ------
    TypeError, cgtalg.errors.GameNotationError
        As for :func:`equivalent`.

    Examples
    --------
    >>> import cgtalg as cg
    >>> distinguisher(cg.nim(3), cg.nim(2) + cg.star) is None
    True
    >>> str(distinguisher(cg.nim(2), cg.nim(3), misere=False))
    '*3'
    """
    return equivalent(g, h, misere).distinguisher


def equivalence_classes(
    games: Iterable[Game | str], misere: bool = True, progress: bool = False
) -> list[list[Game]]:
    """Partition ``games`` into equivalence classes (first member of each class first).

    Each form is compared with one representative per class found so far, using
    :func:`equivalent` (equivalence is an equivalence relation, so one comparison per
    class suffices).

    Parameters
    ----------
    games : iterable of Game or str
    misere : bool, default True
    progress : bool, default False
        Show a tqdm progress bar.

    Returns
    -------
    list of lists of Game, in order of first appearance.

    Examples
    --------
    >>> import cgtalg as cg
    >>> cls = equivalence_classes(["0", "*", "{*}", "{*, *2}", "*2+*", "*3"])
    >>> [[str(x) for x in c] for c in cls]
    [['0', '{*}', '{*, *2}'], ['*'], ['*...*...', '*3']]
    """
    misere = _check_flag(misere)
    items = [_as_game(x, "game") for x in games]
    classes: list[list[Game]] = []
    iterator: Iterable[Game] = items
    if progress:
        from tqdm import tqdm

        iterator = tqdm(items, desc="equivalence classes", unit="form")
    for x in iterator:
        for cls in classes:
            if _holds(cls[0], x, misere):
                cls.append(x)
                break
        else:
            classes.append([x])
    return classes


def _holds(g: Game, h: Game, misere: bool) -> bool:
    if not misere:
        return grundy(g) == grundy(h)
    return _ENGINE.run(("eq", g, h))
