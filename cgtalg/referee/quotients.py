"""The referee of finite misère quotients of heap games (``cgtalg quotient CODE --json``).

The claim, as the document states it: the misère quotient ``Q_N`` of the heap game (heaps of
at most ``N = max_heap`` tokens; with ``final``, of the whole game) is the bipartite monoid
``(Q, P)`` given by its multiplication ``table`` (or, without a table, by its presentation),
heap ``h`` maps to ``Φ(h)``, and the quoted facts hold: ``order``, ``|P|`` and the P-portion,
the presentation's generators and relations, Φ (``phi``, ``phi_elements``), its period, tameness.

Definitions (Plambeck & Siegel, "Misère quotients for impartial games", JCTA 2008)
-----------------------------------------------------------------------------------
Positions are finite sums of heaps. ``G ≡ H`` when ``o⁻(G + X) = o⁻(H + X)`` for every position
``X`` (misère outcome: the player who cannot move *wins*). The classes form a commutative monoid
``Q``, the *quotient*; ``P ⊂ Q`` is the image of the P-positions; ``Φ(h)`` is the class of heap
``h`` and the class of a position is the product of its heaps' classes.

The verification principle, as checked here (:func:`verify`)
------------------------------------------------------------
Let ``(Q, P)`` be a finite commutative monoid with ``P ⊂ Q``, ``1 ∉ P``, and ``Φ`` map heaps
``0..N`` into ``Q`` with ``Φ(h) = 1`` for every heap without a move; let ``S_h`` be the set of
images of the options of heap ``h``. Write ``T(G)`` for the set of images of the options of
``G``: adding heap ``h`` to ``G`` gives the pair ``(x·Φ(h), T(G)·Φ(h) ∪ x·S_h)`` from
``(x, T(G))``, ``x = Φ(G)``. Suppose

* (P-condition) ``x·Φ(h) ∈ P`` implies ``x·s ∉ P`` for every ``s ∈ S_h``, for every image ``x``
  of a position and every heap ``h``;
* (N-condition) every pair ``(x, T)`` reached from the empty position ``(1, ∅)`` by adding heaps
  with ``T ≠ ∅`` and ``x ∉ P`` has ``T ∩ P ≠ ∅``.

Then, by induction on positions, ``G`` is a misère P-position exactly when ``Φ(G) ∈ P``: a
position without moves has image ``1 ∉ P`` and is N (the player to move wins); if ``Φ(G) ∈ P``
every option ``G − h + h'`` has image ``Φ(G − h)·s ∉ P`` (P-condition), so is N by induction,
and ``G`` is P; if ``Φ(G) ∉ P`` and ``G`` has a move, ``T(G)`` meets ``P`` (N-condition): ``G``
has a P-option and is N. If moreover the heaps' images generate ``Q`` and ``(Q, P)`` is
*reduced* (for ``x ≠ y`` some ``z`` has ``xz ∈ P`` and ``yz ∉ P`` or the reverse), then
``x ↦`` the class of the positions with image ``x`` is an isomorphism: ``Q`` is the quotient.
The N-condition is searched over ``(x, U(T))`` with ``U(T) = {z : T·z ∩ P ≠ ∅}`` (what ``T``
can ever tell a later position; ``T ∩ P ≠ ∅`` is ``1 ∈ U``), keeping only inclusion-minimal
``U`` per ``x``: the step is monotone (:func:`cgtalg.referee.quotient_search.n_condition`).

The misère periodicity theorem (``final``; Plambeck & Siegel 2008, the periodicity theorem)
-------------------------------------------------------------------------------------------
Let the code be finite, take at most ``k`` tokens and leave at most ``h`` heaps in a move, and
``m = max(n0, 1)``. If ``Q_N`` is verified as above and ``Φ(n + p) = Φ(n)`` for
``n0 <= n <= N - p`` with ``N >= h*m + h*p + k - 1``, then ``Q_N`` is the quotient of the whole
game and ``Φ(n + p) = Φ(n)`` for every ``n >= n0``. *Proof.* Extend Φ by ``Φ(n) = Φ(n − p)``
for ``n > N``; by induction on ``n > N``, the options of heap ``n`` and of heap ``n − p`` have the
same images: the largest heap ``a`` an option of ``n`` leaves has ``a >= (n − k)/h >= m + p``
(as ``n >= N + 1 >= h*m + h*p + k``), and ``a − p >= m >= 1`` keeps the move's shape and image;
conversely the largest heap ``b >= (n − p − k)/h >= n0`` of an option of ``n − p`` grows to
``b + p < n``. So every heap ``n > N`` has the pair ``(Φ(n), S_n)`` of heap ``n − p``: the
conditions over all heaps are those over heaps ``0..N``. (cgtalg certifies with the more
cautious ``N >= h*m + h*p + k + 1``; the referee accepts both and states its own bound.)

Tameness: ``Q`` is tame when it is isomorphic to the quotient ``T_n`` of misère Nim on heaps
``< 2^n`` (:func:`tame_index`).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from cgtalg.referee import heap_rule
from cgtalg.referee._verdict import Malformed, Verdict
from cgtalg.referee.heaps import HeapRules, heap_rules
from cgtalg.referee.quotient_search import n_condition, option_images

__all__ = ["recognise", "check", "check_quotient", "verify", "monoid_from_presentation", "parse_presentation",
           "parse_word", "tame_index", "nim_quotient", "misere_bound", "reduced", "least_period", "quotient_monoid",
           "submonoid_order", "option_images"]

_CHECKER = "cgtalg.referee.quotients.check_quotient"
_SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹"
#: keys of a quotient document that carries an infinite verdict (checked by cgtalg.referee.rays)
_INFINITE_KEYS = ("infinite_from", "infinite", "rays", "ray", "ray_certificate", "certificate")


# -- words and presentations ------------------------------------------------------------------
def parse_presentation(doc: dict) -> tuple[list[str], list[tuple[str, str]]]:
    """``(generators, [(lhs, rhs), ...])`` from a document's ``generators`` and ``relations``,
    or from its ``presentation`` text ``⟨a,b | a²=1, ...⟩``; both, when given, must agree.

    Raises
    ------
    Malformed
        When neither is readable.
    """
    text = doc.get("presentation")
    from_text = None
    if isinstance(text, str):
        m = re.fullmatch(r"\s*⟨(.*?)(?:\s*\|\s*(.*))?⟩\s*", text, re.S)
        if m:
            gens = [g.strip() for g in m.group(1).split(",") if g.strip()]
            rels = [r.strip() for r in (m.group(2) or "").split(",") if r.strip()]
            from_text = (gens, rels)
    gens, rels = doc.get("generators"), doc.get("relations")
    if not (isinstance(gens, list) and isinstance(rels, list)):
        if from_text is None:
            raise Malformed("a quotient without a table needs its presentation (generators and relations)")
        gens, rels = from_text
    elif from_text is not None and (from_text[0] != gens or from_text[1] != rels):
        raise Malformed("the presentation text and the generators/relations fields disagree")
    pairs = []
    for r in rels:
        if not isinstance(r, str) or r.count("=") != 1:
            raise Malformed(f"a relation is written lhs=rhs, not {r!r}")
        lhs, rhs = r.split("=")
        pairs.append((lhs.strip(), rhs.strip()))
    if len(set(gens)) != len(gens) or not all(isinstance(g, str) and g for g in gens):
        raise Malformed(f"generators must be distinct names, not {gens!r}")
    return list(gens), pairs


def parse_word(text: Any, gens: list[str]) -> tuple[int, ...]:
    """The exponents of a word such as ``ab²c`` (``1``: the empty word) in the generators.

    Raises
    ------
    Malformed
        When the word uses a name that is not a generator.
    """
    if not isinstance(text, str):
        raise Malformed(f"a word is a string such as 'ab²', not {text!r}")
    exps = [0] * len(gens)
    if text.strip() == "1":
        return tuple(exps)
    names = sorted(range(len(gens)), key=lambda i: -len(gens[i]))
    pos, s = 0, text.strip()
    while pos < len(s):
        for i in names:
            if s.startswith(gens[i], pos):
                pos += len(gens[i])
                e = ""
                while pos < len(s) and s[pos] in _SUPERSCRIPT:
                    e += str(_SUPERSCRIPT.index(s[pos]))
                    pos += 1
                exps[i] += int(e) if e else 1
                break
        else:
            raise Malformed(f"the word {text!r} uses {s[pos:pos + 3]!r}, not a generator of {gens}")
    return tuple(exps)


def _graded_less(u: tuple[int, ...], w: tuple[int, ...]) -> bool:
    """``u < w`` in the graded order of the presentation: fewer letters, or as many and
    lexicographically more of the earlier generators (a well-founded order compatible with
    multiplication, so rewriting ``lhs -> rhs`` with ``rhs < lhs`` terminates)."""
    return sum(u) < sum(w) or (sum(u) == sum(w) and u > w)


def monoid_from_presentation(gens: list[str], rels: list[tuple[str, str]], limit: int
                             ) -> tuple[np.ndarray, list[tuple[int, ...]]] | str:
    """The monoid the presentation defines, if every relation ``lhs = rhs`` has ``rhs < lhs``
    (:func:`_graded_less`): its elements are the words no ``lhs`` divides (normal forms, found
    breadth-first from the empty word, which is element 0), ``x·g`` is the normal form of
    ``x + g`` (rewriting ``lhs -> rhs``), and ``x·y`` multiplies ``x`` by the letters of ``y``
    one at a time. Returns ``(table, words)``, or why not (more than ``limit`` normal forms, a
    relation that does not decrease). The table is only a binary operation until it is checked
    associative and commutative."""
    k = len(gens)
    L, R = [], []
    for lhs, rhs in rels:
        a, b = parse_word(lhs, gens), parse_word(rhs, gens)
        if not _graded_less(b, a):
            return f"the relation {lhs}={rhs} does not rewrite a word to a smaller one"
        L.append(a)
        R.append(b)
    Larr = np.array(L, dtype=np.int64).reshape(len(L), k)
    Rarr = np.array(R, dtype=np.int64).reshape(len(R), k)

    def normal(w: np.ndarray) -> tuple[int, ...]:
        while True:
            hit = np.flatnonzero((Larr <= w).all(axis=1)) if len(L) else []
            if not len(hit):
                return tuple(int(x) for x in w)
            w = w - Larr[hit[0]] + Rarr[hit[0]]

    words: list[tuple[int, ...]] = [tuple([0] * k)]
    index = {words[0]: 0}
    parent: list[tuple[int, int]] = [(-1, -1)]
    step = np.eye(k, dtype=np.int64)
    i = 0
    while i < len(words):
        for g in range(k):
            w = np.array(words[i]) + step[g]
            t = tuple(int(x) for x in w)
            if t not in index and not (len(L) and (Larr <= w).all(axis=1).any()):
                if len(words) >= limit:
                    return f"the relations leave more than {limit} words irreducible"
                index[t] = len(words)
                words.append(t)
                parent.append((i, g))
        i += 1
    n = len(words)
    col = np.zeros((k, n), dtype=np.int64)  # col[g][x] = x·g
    for x in range(n):
        for g in range(k):
            col[g, x] = index[normal(np.array(words[x]) + step[g])]
    table = np.zeros((n, n), dtype=np.int64)
    table[:, 0] = np.arange(n)
    for y in range(1, n):
        p, g = parent[y]
        table[:, y] = col[g][table[:, p]]
    return table, words


def _evaluate(exps: tuple[int, ...], gen_elems: list[int], table: np.ndarray) -> int:
    x = 0
    for g, e in zip(gen_elems, exps):
        for _ in range(e):
            x = int(table[x, g])
    return x


# -- the bipartite monoid ---------------------------------------------------------------------
def _monoid_laws(table: np.ndarray) -> str | None:
    """Why ``table`` is not a commutative monoid with identity 0 (None when it is): identity,
    commutativity and associativity, all checked in full."""
    n = table.shape[0]
    ar = np.arange(n)
    if not (np.array_equal(table[0], ar) and np.array_equal(table[:, 0], ar)):
        return "element 0 is not the identity"
    bad = np.argwhere(table != table.T)
    if bad.size:
        x, y = (int(v) for v in bad[0])
        return f"not commutative: {x}·{y} = {table[x, y]} but {y}·{x} = {table[y, x]}"
    t = table.astype(np.int32 if n < 2**31 else np.int64)
    for x in range(n):  # (x·y)·z against x·(y·z), for every y, z at once
        left = t[t[x]]          # left[y, z] = (x·y)·z
        right = t[x][t]         # right[y, z] = x·(y·z)
        if not np.array_equal(left, right):
            y, z = (int(v) for v in np.argwhere(left != right)[0])
            return f"not associative: ({x}·{y})·{z} = {left[y, z]} but {x}·({y}·{z}) = {right[y, z]}"
    return None


def reduced(table: np.ndarray, P: np.ndarray, gens: list[int]) -> tuple[int, int] | None:
    """Two indistinguishable elements of ``(Q, P)`` (no ``z`` with ``xz ∈ P`` but ``yz ∉ P`` or
    the reverse), or None when ``(Q, P)`` is reduced; ``gens`` generate ``Q``. Partition
    refinement: start from ``{P, Q \\ P}`` and split classes by the classes of ``x·g`` for each
    generator ``g`` until stable; then ``x, y`` share a class iff ``P(xz) = P(yz)`` for every
    product ``z`` of generators, i.e. every ``z``."""
    cls = P.astype(np.int64)
    while True:
        key = np.stack([cls] + [cls[table[:, g]] for g in gens], axis=1)
        _, new = np.unique(key, axis=0, return_inverse=True)
        new = new.reshape(-1)
        if len(np.unique(new)) == len(np.unique(cls)):
            break
        cls = new
    _, first, counts = np.unique(cls, return_index=True, return_counts=True)
    if (counts > 1).any():
        c = int(np.flatnonzero(counts > 1)[0])
        x, y = np.flatnonzero(cls == cls[first[c]])[:2]
        return int(x), int(y)
    return None


def nim_quotient(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``T_n``, the quotient of misère Nim on heaps ``< 2^n`` (Conway, ONAG ch. 12; Plambeck &
    Siegel 2008, §4), as ``(table, P)``: ``T_0`` is trivial; ``T_1 = {1, a}`` with ``a² = 1``,
    ``P = {a}`` (an odd number of 1-heaps); for ``n >= 2`` add ``2^n`` elements ``z_v`` (a
    position with a heap ``>= 2`` and nim-sum ``v``) with ``z_v z_w = z_{v xor w}``,
    ``a z_v = z_{v xor 1}`` and ``P = {a, z_0}``. Element ``i`` of ``T_n`` for ``n >= 2``:
    ``0 = 1``, ``1 = a``, ``2 + v = z_v``. (The tests check these tables against the
    verification principle on Nim's own moves.)"""
    if n == 0:
        return np.zeros((1, 1), dtype=np.int64), np.zeros(1, dtype=bool)
    small = np.array([[0, 1], [1, 0]])
    if n == 1:
        return small, np.array([False, True])
    size = 2 + 2 ** n

    def nim_of(i: int) -> tuple[bool, int]:  # (has a heap >= 2, nim-sum)
        return (i >= 2, i - 2 if i >= 2 else i)

    table = np.zeros((size, size), dtype=np.int64)
    for i in range(size):
        for j in range(size):
            bi, vi = nim_of(i)
            bj, vj = nim_of(j)
            v = vi ^ vj
            table[i, j] = 2 + v if (bi or bj) else v
    P = np.zeros(size, dtype=bool)
    P[1] = P[2] = True
    return table, P


def tame_index(table: np.ndarray, P: np.ndarray) -> int | None:
    """``n`` when ``(Q, P) ≅ T_n`` (:func:`nim_quotient`) for ``n >= 1``, else None.

    Characterisation used: ``n = 1``: ``Q = {1, a}``, ``a² = 1``, ``P = {a}``. ``n >= 2``:
    ``|Q| = 2^n + 2``; exactly one ``a ≠ 1`` has ``a² = 1``; ``G = Q \\ {1, a}`` is an ideal and
    a group with identity ``z`` in which ``x² = z`` for all ``x`` (so ``G ≅ (Z/2)^n``); ``az ≠ z``;
    ``P = {a, z}``. These hold in ``T_n``; conversely, choosing a basis of ``G`` that contains
    ``az`` gives the isomorphism ``z_v ↦`` the element of ``G`` with coordinates ``v``, which
    sends ``a z_v = z_{v xor 1}`` to ``az·x``, as ``T_n`` does."""
    size = table.shape[0]
    ids = np.arange(size)
    if size == 2:
        return 1 if table[1, 1] == 0 and not P[0] and P[1] else None
    n = (size - 2).bit_length() - 1
    if size < 6 or 2 ** n + 2 != size:
        return None
    sq = table[ids, ids]
    roots = [int(x) for x in np.flatnonzero(sq == 0) if x != 0]
    if len(roots) != 1:
        return None
    a = roots[0]
    G = np.array([x for x in range(size) if x not in (0, a)])
    sub = table[np.ix_(G, G)]
    if not np.isin(sub, G).all() or not np.isin(table[a, G], G).all():
        return None
    idem = [int(x) for x in G if table[x, x] == x]
    if len(idem) != 1:
        return None
    z = idem[0]
    if not (table[z, G] == G).all() or not (sq[G] == z).all() or table[a, z] == z:
        return None
    if set(np.flatnonzero(P).tolist()) != {a, z}:
        return None
    return n


def misere_bound(h: int, k: int, n0: int, p: int) -> int:
    """The last heap the misère periodicity theorem needs verified: ``h*max(n0,1) + h*p + k - 1``
    (module docstring)."""
    return h * max(n0, 1) + h * p + k - 1


def least_period(seq: list[int], n0: int, p: int) -> tuple[int, int]:
    """The least preperiod and period of the infinite sequence that is ``seq`` continued with
    period ``p`` from ``n0`` (``seq`` holds at least ``n0 + p`` terms)."""
    cycle = seq[n0:n0 + p]
    best = p
    for d in range(1, p):
        if p % d == 0 and cycle[d:] + cycle[:d] == cycle:
            best = d
            break
    m = n0
    while m > 0 and seq[m - 1] == seq[m - 1 + best]:
        m -= 1
    return m, best


def quotient_monoid(doc: dict) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """``(table, P, phi)`` of a quotient document (its table, or the monoid its presentation
    defines): the objects :func:`check_quotient` checks, for a caller that has checked the
    document and derives more from it (:mod:`cgtalg.referee.census`).

    Raises
    ------
    Malformed
        When the document gives neither a table nor a usable presentation.
    """
    v = Verdict("misère quotient", "", True)
    rules = _game_rules(doc)
    got = _read_table(doc, rules, v)
    if got is None:
        raise Malformed("; ".join(v.reasons))
    if doc.get("tail") is not None:   # Φ past max_heap by the normal tail, one period past its preperiod
        from cgtalg.referee.quotient_tail import check_tail

        ext = check_tail(doc, v, rules, got[0], got[1], got[2], int(doc["max_heap"]), verify, reduced,
                         least_period)
        if ext is None:
            raise Malformed("; ".join(v.reasons))
        return got[0], got[1], ext[1]
    return got[0], got[1], got[2]


def submonoid_order(table: np.ndarray, P: np.ndarray, gens: list[int]) -> int:
    """The order of the quotient of the positions whose images are products of ``gens``: the
    submonoid ``M`` they generate, modulo indistinguishability by elements of ``M`` (partition
    refinement as in :func:`reduced`). With ``gens`` the images of heaps ``0..n`` of a verified
    quotient of the whole game, this is ``|Q_n|``: two positions of heaps ``<= n`` are
    equivalent in ``Q_n`` exactly when no position of such heaps separates them."""
    gens = sorted(set(gens))
    inside = np.zeros(table.shape[0], dtype=bool)
    inside[0] = True
    frontier = np.array([0])
    while frontier.size:
        nxt = np.unique(table[np.ix_(frontier, gens)]) if gens else frontier[:0]
        nxt = nxt[~inside[nxt]]
        inside[nxt] = True
        frontier = nxt
    M = np.flatnonzero(inside)
    cls = np.full(table.shape[0], -1, dtype=np.int64)
    cls[M] = P[M].astype(np.int64)
    count = len(np.unique(cls[M]))
    while True:
        key = np.stack([cls[M]] + [cls[table[M, g]] for g in gens], axis=1)
        _, new = np.unique(key, axis=0, return_inverse=True)
        new = new.reshape(-1)
        if len(np.unique(new)) == count:
            return count
        count = len(np.unique(new))
        cls[M] = new


# -- the verification principle ---------------------------------------------------------------
def _positions(table: np.ndarray, phi: list[int]) -> dict[int, tuple[int, ...]]:
    """A position (heap sizes) of each element the heaps' images reach, breadth-first."""
    reach = {0: ()}
    frontier = [0]
    images = sorted({(x, h) for h, x in enumerate(phi)}, key=lambda t: t[1])
    first = {}
    for x, h in images:
        first.setdefault(x, h)
    while frontier:
        nxt = []
        for y in frontier:
            for x, h in first.items():
                z = int(table[y, x])
                if z not in reach:
                    reach[z] = tuple(sorted(reach[y] + (h,)))
                    nxt.append(z)
        frontier = nxt
    return reach


def verify(table: np.ndarray, P: np.ndarray, phi: list[int], rules: HeapRules,
           max_states: int = 5_000_000) -> list[str]:
    """The failures of the verification principle (module docstring) for heaps ``0..len(phi)-1``
    of ``rules``, on the commutative monoid ``table`` with P-portion ``P``: ``[]`` when ``Q`` is
    the misère quotient of these heaps with Φ = ``phi``. Each failure names a position."""
    size = table.shape[0]
    out: list[str] = []
    if P[0]:
        out.append("P: the identity (the empty position, an N-position in misère play) is in P")
    S: list[list[int]] = []
    phi_arr = np.asarray(phi, dtype=np.int64)
    for h in range(len(phi)):
        imgs = option_images(rules, h, phi_arr, table)
        if imgs is None and phi[h] != 0:
            out.append(f"phi: heap {h} has no move, so it is the identity, not element {phi[h]}")
        S.append(sorted(imgs or ()))
    where = _positions(table, phi)
    if len(where) != size:
        missing = next(x for x in range(size) if x not in where)
        out.append(f"phi: the images of heaps 0..{len(phi) - 1} do not generate Q (element {missing} is no "
                   "position's image)")
    if out:
        return out
    # P-condition: x·Φ(h) ∈ P and x·s ∈ P for an option image s would make a P-position with a P-option
    for h, s_h in enumerate(S):
        if not s_h:
            continue
        opt_p = P[table[:, s_h]].any(axis=1)
        bad = np.flatnonzero(P[table[:, phi[h]]] & opt_p)
        if bad.size:
            x = int(bad[0])
            pos = tuple(sorted(where[x] + (h,)))
            return [f"P-condition: the position {list(pos)} has its image in P, and so has its option moving "
                    f"heap {h}"]
    return n_condition(table, P, phi, S, max_states)


# -- the check --------------------------------------------------------------------------------
def recognise(doc: dict) -> bool:
    """A finite misère quotient: ``game``, ``order`` and a table or a presentation, with Φ;
    not one carrying an infinite verdict (:mod:`cgtalg.referee.rays` checks those)."""
    if not isinstance(doc, dict) or "game" not in doc or "order" not in doc:
        return False
    if not ("table" in doc or "presentation" in doc or "relations" in doc):
        return False
    if not ("phi_elements" in doc or "phi" in doc):
        return False
    return not any(doc.get(key) not in (None, False) for key in _INFINITE_KEYS)


def check(doc: dict) -> list[Verdict]:
    """The verdicts on a quotient document: the quotient, and the largest-heap rule it carries
    (``largest_heap_rule.certificate``, ``cgtalg quotient --json``) when there is one."""
    out = [check_quotient(doc)]
    rule = doc.get("largest_heap_rule")
    if isinstance(rule, dict) and rule.get("certificate") is not None:
        cert = rule["certificate"]
        if not heap_rule.recognise(cert) or cert.get("game") != doc.get("game"):
            out.append(Verdict("infinite misère quotient", f"{doc.get('game')}: a largest-heap rule", False,
                               ["FAIL: largest_heap_rule.certificate is not a largest-heap rule of this game"],
                               "cgtalg.referee.quotients.check"))
        else:
            out += heap_rule.check(cert)
    return out


def _game_rules(doc: dict) -> HeapRules:
    kind = doc.get("kind")
    if kind in ("forms", "family"):
        what = "the closure of a set of forms" if kind == "forms" else "a component family (boards)"
        raise Malformed(f"a misère quotient of {what} carries no heap moves the referee can read: only "
                        "quotients of heap games (octal, hexadecimal, subtraction codes) are checked")
    return heap_rules(doc.get("game"))


def _read_table(doc: dict, rules: HeapRules, v: Verdict
                ) -> tuple[np.ndarray, np.ndarray, list[int], list[str] | None, list[int] | None] | None:
    """``(table, P, phi, words, generator elements)`` from the document: its table, P and
    ``phi_elements`` when it has a table, else the monoid its presentation defines, with P and
    Φ read from the words. Failures go to ``v``; None when nothing more can be checked."""
    order = doc.get("order")
    if "table" in doc and doc["table"] is not None:
        try:
            table = np.array(doc["table"], dtype=np.int64)
            P = np.array(doc["P"], dtype=bool)
            phi = [int(x) for x in doc["phi_elements"]]
        except (KeyError, TypeError, ValueError):
            raise Malformed("a quotient with a table needs P (booleans) and phi_elements (integers)") from None
        n = table.shape[0] if table.ndim == 2 else -1
        if table.ndim != 2 or table.shape != (n, n) or n < 1 or table.min() < 0 or table.max() >= n:
            raise Malformed("the table is not a square table of elements 0..n-1")
        if P.shape != (n,) or any(not 0 <= x < n for x in phi):
            raise Malformed("P and phi_elements do not fit the table")
        return table, P, phi, None, None
    gens, rels = parse_presentation(doc)
    # room past the stated order, so that a misstated order is reported as such
    limit = min(max(4 * order, 1000), 200_000) if isinstance(order, int) and order > 0 else 200_000
    built = monoid_from_presentation(gens, rels, limit)
    if isinstance(built, str):
        v.fail(f"presentation: {built}")
        return None
    table, words = built
    index = {w: i for i, w in enumerate(words)}
    letters = [tuple(int(g == i) for g in range(len(gens))) for i in range(len(gens))]
    if any(w not in index for w in letters):
        v.fail("presentation: a generator is itself rewritten")
        return None
    gen_elems = [index[w] for w in letters]
    phi_words = doc.get("phi")
    if not isinstance(phi_words, list):
        raise Malformed("a quotient without a table needs Φ as words (phi)")
    phi = [_evaluate(parse_word(w, gens), gen_elems, table) for w in phi_words]
    pw = doc.get("p_portion")
    if not isinstance(pw, list):
        raise Malformed("a quotient without a table needs its P-portion as words (p_portion)")
    P = np.zeros(table.shape[0], dtype=bool)
    for w in pw:
        P[_evaluate(parse_word(w, gens), gen_elems, table)] = True
    lib = doc.get("phi_elements")
    if isinstance(lib, list) and len(lib) == len(phi):  # the document's own numbering of the elements
        pairs = dict(zip(lib, phi))
        if len(pairs) != len(set(zip(lib, phi))) or len(set(pairs.values())) != len(pairs):
            v.fail("phi_elements: the heaps' elements do not match the words of phi")
        elif isinstance(doc.get("P"), list):
            libP = doc["P"]
            if sum(bool(b) for b in libP) != int(P.sum()) or any(
                    not 0 <= i < len(libP) or bool(libP[i]) != bool(P[x]) for i, x in pairs.items()):
                v.fail("P: it does not mark the elements the words of p_portion name")
    return table, P, phi, list(phi_words), gen_elems


def check_quotient(doc: dict) -> Verdict:
    """Re-derive the misère quotient claim of ``doc`` (module docstring).

    Raises
    ------
    Malformed
        For a quotient of forms or of a component family, an unreadable game, or a document
        missing what the check needs.
    """
    rules = _game_rules(doc)
    N = doc.get("max_heap")
    final = bool(doc.get("final"))
    order = doc.get("order")
    claim = (f"{doc.get('game')}: misère quotient of order {order}, "
             + ("final (the whole game)" if final else f"heaps 0..{N}"))
    v = Verdict("misère quotient", claim, True, [], f"{_CHECKER} (verification principle, Plambeck & Siegel 2008)")
    if isinstance(N, bool) or not isinstance(N, int) or N < 0:
        raise Malformed(f"max_heap is a non-negative integer, not {N!r}")
    got = _read_table(doc, rules, v)
    if got is None:
        return v
    table, P, phi, words, gen_elems = got
    size = table.shape[0]
    if order != size:
        v.fail(f"order: the document says {order!r}, the quotient has {size} elements")
    why = _monoid_laws(table)
    if why:
        return v.fail(f"table: {why}" if words is None else f"presentation: the operation it defines is {why}")
    if len(phi) != N + 1:
        v.fail(f"max_heap: Φ is given for {len(phi)} heaps, not heaps 0..{N}")
        phi = phi[:N + 1]
    _p_fields(doc, v, P)
    _presentation_fields(doc, v, table, P, phi, words)
    if doc.get("tail") is not None:
        return _tail_quotient(doc, v, rules, table, P, phi, N, final)
    failures = verify(table, P, phi, rules)
    for f in failures:
        v.fail(f)
    if failures:
        return v
    pair = reduced(table, P, sorted(set(phi)))
    if pair:
        v.fail(f"table: not reduced: elements {pair[0]} and {pair[1]} are indistinguishable (no z separates "
               "them), so the quotient is smaller")
    period_text = _final_fields(doc, v, rules, phi, N, final)
    if doc.get("normal_tie") is not None:     # a statement about every heap (cgtalg.referee.quotient_tail)
        from cgtalg.referee.quotient_tail import check_tie

        tie_text = check_tie(doc, v, rules, table, P, phi, N)
        period_text = "; ".join(t for t in (period_text, tie_text) if t)
    n = tame_index(table, P)
    if "tame" in doc and bool(doc.get("tame")) != (n is not None):
        v.fail(f"tame: the document says {doc.get('tame')!r}, but Q is " + (f"T_{n}" if n else "not tame"))
    if "tame_index" in doc and doc.get("tame_index") != n:
        v.fail(f"tame_index: the document says {doc.get('tame_index')!r}, the referee finds {n}")
    if v.ok:
        v.reasons.append(
            f"re-derived: a commutative monoid of order {size} (identity, commutativity, associativity in "
            f"full), reduced; Φ on heaps 0..{N} from the game's own moves; P- and N-conditions hold"
            + (f"; {period_text}" if period_text else "")
            + ("; tame: T_%d" % n if n is not None else "; not tame"))
    return v


def _tail_quotient(doc: dict, v: Verdict, rules: HeapRules, table: np.ndarray, P: np.ndarray, phi: list[int],
                   N: int, final: bool) -> Verdict:
    """A final quotient by the normal tail (:mod:`cgtalg.referee.quotient_tail`)."""
    from cgtalg.referee.quotient_tail import check_tail

    if not final:
        return v.fail("tail: the normal tail is stated for a final quotient (final: true)")
    got_tail = check_tail(doc, v, rules, table, P, phi, N, verify, reduced, least_period)
    text = got_tail[0] if got_tail else None
    if text and doc.get("table") is not None and "presentation" in doc:
        # the presentation must define the same extension of Q_N (its generators from the tail
        # are elements of that monoid, not of the table)
        got = _read_table({key: val for key, val in doc.items() if key != "table"}, rules, v)
        if got is not None and check_tail(doc, v, rules, got[0], got[1], got[2], N, verify, reduced,
                                          least_period) is None and v.ok:
            v.fail("presentation: the monoid it defines is not Q_N extended by the tail")
    n = tame_index(table, P)
    if "tame" in doc and bool(doc.get("tame")) != (n is not None):
        v.fail(f"tame: the document says {doc.get('tame')!r}, but Q is " + (f"T_{n}" if n else "not tame"))
    if "tame_index" in doc and doc.get("tame_index") != n:
        v.fail(f"tame_index: the document says {doc.get('tame_index')!r}, the referee finds {n}")
    if v.ok and text:
        v.reasons.append(f"re-derived: a commutative monoid of order {table.shape[0]} (identity, commutativity, "
                         f"associativity in full); {text}" + ("; tame: T_%d" % n if n is not None else "; not tame"))
    return v


def _p_fields(doc: dict, v: Verdict, P: np.ndarray) -> None:
    count = int(P.sum())
    pw = doc.get("p_portion")
    if isinstance(pw, list) and len(pw) != count:
        v.fail(f"p_portion: {len(pw)} words for |P| = {count}")
    if "p_count" in doc and doc.get("p_count") != count:
        v.fail(f"p_count: the document says {doc.get('p_count')!r}, |P| = {count}")


def _presentation_fields(doc: dict, v: Verdict, table: np.ndarray, P: np.ndarray, phi: list[int],
                         words: list[str] | None) -> None:
    """The presentation against the table: each generator the image of a heap, Φ's and P's words,
    each relation, and exactness (the normal forms are as many as the elements)."""
    if not any(k in doc for k in ("presentation", "relations", "generators")):
        return
    gens, rels = parse_presentation(doc)
    phi_words = doc.get("phi")
    if not isinstance(phi_words, list) or len(phi_words) < len(phi):
        v.fail("phi: the words of Φ are missing")
        return
    gen_elems = []
    for g in gens:
        hs = [h for h, w in enumerate(phi_words[:len(phi)]) if w == g]
        if not hs:
            if doc.get("tail") is not None:   # a generator from the tail: checked on the monoid the
                return                        # presentation defines (_tail_quotient)
            v.fail(f"generators: {g} is not the word of any heap's image")
            return
        gen_elems.append(phi[hs[0]])
    for h, w in enumerate(phi_words[:len(phi)]):
        if _evaluate(parse_word(w, gens), gen_elems, table) != phi[h]:
            v.fail(f"phi: heap {h} is written {w}, which is not its element {phi[h]}")
            return
    for lhs, rhs in rels:
        a = _evaluate(parse_word(lhs, gens), gen_elems, table)
        b = _evaluate(parse_word(rhs, gens), gen_elems, table)
        if a != b:
            v.fail(f"relations: {lhs}={rhs} does not hold ({lhs} is element {a}, {rhs} is element {b})")
    pw = doc.get("p_portion")
    if isinstance(pw, list):
        got = {_evaluate(parse_word(w, gens), gen_elems, table) for w in pw}
        if got != set(np.flatnonzero(P).tolist()) or len(got) != len(pw):
            v.fail("P: its elements are not those the words of p_portion name")
    if words is None:  # a given table: the presentation must define a monoid of its order
        built = monoid_from_presentation(gens, rels, table.shape[0] + 1)
        if isinstance(built, str):
            v.fail(f"presentation: {built}")
        elif built[0].shape[0] != table.shape[0]:
            v.fail(f"presentation: it defines a monoid of order {built[0].shape[0]}, not {table.shape[0]}")
        else:
            elems = {_evaluate(w, gen_elems, table) for w in built[1]}
            if len(elems) != table.shape[0]:
                v.fail("presentation: two normal forms are the same element of the table")
    if "phi_text" in doc and isinstance(doc.get("phi_text"), str):
        per = doc.get("period") if doc.get("final") else None
        ws = list(phi_words[:len(phi)])
        if doc.get("tail") is not None:    # Φ verified to max_heap, then by the normal tail
            want = " ".join(ws) + " …"
        else:
            want = " ".join(ws if not per else ws[:per[0]] + ["[" + " ".join(ws[per[0]:per[0] + per[1]]) + "]"])
        if doc["phi_text"] != want:
            v.fail("phi_text: it does not spell Φ's words")


def _final_fields(doc: dict, v: Verdict, rules: HeapRules, phi: list[int], N: int, final: bool) -> str | None:
    """``final``, ``period`` and ``checked_to``: the misère periodicity theorem's bound, and the
    least preperiod and period of Φ. Returns what was re-derived, for a final quotient."""
    per = doc.get("period")
    if not final:
        if per is not None:
            v.fail(f"period: {per!r} is stated for a quotient that is not final (it claims nothing past heap {N})")
        return None
    if not (isinstance(per, list) and len(per) == 2 and all(isinstance(x, int) for x in per)
            and per[0] >= 0 and per[1] >= 1):
        v.fail(f"period: a final quotient states [n0, p] of Φ, not {per!r}")
        return
    n0, p = per
    if rules.kind == "grundy" or rules.k is None:
        v.fail(f"final: no periodicity theorem applies to {rules.name} (no bound on the tokens a move takes)")
        return
    h, k = rules.max_parts, rules.k
    need = misere_bound(h, k, n0, p)
    if N < need:
        v.fail(f"final: Φ is verified to heap {N}, the misère periodicity theorem needs heap "
               f"{h}*max(n0,1) + {h}p + k - 1 = {need}")
    if N < n0 + p:
        v.fail(f"period: heaps 0..{N} do not cover one period from heap {n0}")
        return
    bad = [n for n in range(n0, N - p + 1) if phi[n] != phi[n + p]]
    if bad:
        v.fail(f"period: Φ({bad[0]}) = {phi[bad[0]]} but Φ({bad[0] + p}) = {phi[bad[0] + p]}")
        return
    m0, q = least_period(phi, n0, p)
    if q != p:
        v.fail(f"period: {p} is not the least period of Φ: {q} is one")
    elif m0 != n0:
        v.fail(f"period: the preperiod {n0} is not the least: Φ is periodic from heap {m0}")
    if "checked_to" in doc and doc.get("checked_to") != N:
        v.fail(f"checked_to: the document says {doc.get('checked_to')!r}, Φ is given to heap {N}")
    return (f"final by the misère periodicity theorem: Φ(n + {p}) = Φ(n) for {n0} <= n <= {N - p} (least "
            f"preperiod and period) and N = {N} >= {h}*max(n0,1) + {h}p + k - 1 = {need}")
