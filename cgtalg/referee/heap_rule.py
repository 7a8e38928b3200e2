"""Largest-heap rules: every misère outcome of a heap game by one rule over heap *sizes*, proved
for every position, and the infinite misère quotient it implies (certificate ``"kind":
"largest-heap-rule"``). Standard library and the referee only.

Definitions (Plambeck & Siegel, *Misère quotients for impartial games*, JCTA 115, 2008). A
position is a finite multiset of heaps; in misère play it is a P-position iff it has a move and
every option is an N-position (a position without a move, the empty one first, is an
N-position). The moves are the referee's own reading of an octal code
(:func:`cgtalg.referee.heaps.heap_rules`; at most two heaps left by a move, at most ``k``
tokens taken). ``g`` is the Grundy function (normal play), by the referee's mex.

The document::

    {"kind": "largest-heap-rule", "format": 1, "game": "0.734",
     "grundy": {"preperiod": n0, "period": p},
     "weights": {"exact": [c(1), ..., c(n0 - 1)], "residue": [c_0, ..., c_{p-1}]},
     "rule": {"exact_below": f0, "z": [zl, zh], "P": [[kind, value, G, z], ...]},
     "family": {"heap": m0, "step": s, "base": [heaps], "block": [heaps]}}

**The rule.** ``c(h)`` is ``exact[h - 1]`` for ``1 <= h < n0`` and ``residue[h mod p]`` from
``n0`` on (``c(0) = 0``); ``w(h) = h − c(h)``. For a non-empty position with a largest heap
``m`` (one of them if several are equal) and the other heaps ``O``: ``G = ⊕_{h∈O} g(h)``,
``z = m − Σ_{h∈O} w(h)``, ``ρ(m) = ("e", m)`` for ``m < f0``, else ``("r", m mod p)``; the rule
says P iff ``(ρ(m), G, clamp(z))`` is listed in ``P``, ``clamp(z) = min(max(z, zl), zh)``.
(``G`` and ``z`` do not depend on which of several equal largest heaps is marked.)

**R1 (the data).** ``g`` has preperiod ``n0 >= 1`` and period ``p`` (checked by the referee's
mex up to the bound of the periodicity theorem that applies, and past it); ``c(h) <= h`` (so
``w >= 0``); ``gcd_h w(h)`` divides ``p`` (call it ``q``: then ``z ≡ m (mod q)`` always).

**R2 (heap classes).** With ``k`` the most tokens a move takes, ``M0 = max(2·n0 + k + 2p, f0,
k + 1)``: a heap ``h < M0`` is its own class; from ``M0`` on, its residue mod ``p``. For each
class, ``D`` is the set of ``(g(h) ⊕ g(parts), w(h) − Σ w(parts))`` over the options of one
heap ``h`` of the class (a move on a heap that is not the largest changes ``(G, z)`` by such a
pair and leaves the largest in place). For ``h >= M0`` the parts of a move taking ``t`` are one
heap ``h − t >= n0``, or two of sizes ``a + b = h − t`` where either ``a < n0`` is any size and
``b >= n0`` any residue, or both ``>= n0`` with any residues that add up (``h − t >= 2·n0 +
2p``): so ``D`` depends only on the residue and is computed symbolically (and compared with the
options of ``M0 .. M0 + 2p``). A *kind* is a class of heap classes with the same ``D`` and the
same ``g``.

**R3 (the views).** ``Δ`` bounds every change of ``z`` by a move not on the largest heap and
every rise of ``z`` by a move on it (``k + 2·max|c|``); ``WL = zl − Δ``, ``WH = zh + Δ``; ``L =
WH − max c + 1`` (and ``> k``); ``M1 >= 2(n0 + L + p) + k`` (also ``>= M0 + L``, ``2f0 + k``, ``WH + 1``,
``2·M0 + k``). A
position is seen as: ``m`` exact below ``M1``, else its residue; whether ``O`` is empty; ``γ =
m − h₂`` (``h₂`` the largest of ``O``) exact when ``m < M1`` or ``γ < L``, else ``γ >= L`` with
``h₂``'s class; ``G``; ``z`` exact in ``[WL, WH]`` (exact everywhere when ``m < M1``), else
*low* (``z < WL``) or *high* (``z > WH``, with ``z mod 2p``). Facts used: ``z ≡ m (mod q)``;
``z <= γ + c(h₂)`` when ``O`` is not empty (``Σ_O w >= w(h₂)``), so ``γ < L`` forces ``z <=
WH``; a high ``z`` with ``O`` not empty has ``γ >= L``.

**R4 (the options of a view).** A move on a heap of ``O`` of kind ``K``: ``(ρ(m), G ⊕ x, z +
δ)`` for ``(x, δ) ∈ D(K)``; from low ``z`` the result is below ``zl`` and from high above
``zh`` (``|δ| <= Δ``). A move on ``m`` leaving parts ``a >= b`` (``t`` taken): if ``a >=
h₂`` (``b <= γ − t``; always when ``O`` is empty) the option's largest is ``a`` and ``z' = z −
t − 2b + c(b)``, ``G' = G ⊕ g(b)``; else its largest is ``h₂``, ``z' = z − 2γ + t − c(h₂) +
c(a) + c(b)`` and ``G' = G ⊕ g(h₂) ⊕ g(a) ⊕ g(b)`` (parts absent count 0). When ``m < M1``
every option is listed exactly. For ``m >= M1``: with ``γ < L`` every ``b`` below ``n0`` is
listed exactly and the rest by residue (``a`` is then ``>= M0`` and the ``b`` of each residue
exist); with ``γ >= L`` a split keeping ``a`` largest is listed exactly for ``b <= L − t`` and by
residue beyond, and one making ``h₂`` largest has ``z' <= −γ + t + 2·max c <= zl``; from a high
``z`` a split keeping ``a`` largest reaches every ``z'`` of its residue class mod ``2p``: all of
them are taken as possible (the P-condition), and a target ``v`` is reached with ``b = (z − t +
c(b) − v)/2`` when ``v >= c(b)`` and ``L >= c(h₂) + c(b) − v + t`` (the N-condition).

**R5 (the conditions).** *P-condition*: every position of a view the rule calls P has a move
(on ``m``, or on a heap of a kind with moves that every set ``S`` below holds) and every option
it may have (R4, over every kind ``O`` may hold: sizes up to ``h₂``) is called N.
*N-condition*: every view the rule calls N has an option called P that every position of the
view has: one on ``m``, on ``h₂``, or else, for every set ``S`` of kinds ``O`` may hold, one on
a heap of ``S`` (a position without a move passes). ``S`` ranges over the sets that can make the
view: they contain ``h₂``'s kind; a choice ``T ⊆ S`` of kinds of odd count (one heap or more;
the others two or more) has ``⊕_T g = G``, ``z <= m − w(h₂) −`` the least ``Σ w`` of the other
heaps, and a residue of that sum mod ``p`` equal to ``m − z − w(h₂)``; if every heap of ``S`` has
``w = 0``, ``z = m``. (These facts hold for every position, so a view no position has is skipped
and no position is skipped.) By induction over the game tree
(every play ends) every position then has the outcome the rule says.

**R6 (the infinite quotient).** ``m_j = m0 + j·s`` and ``Y_j = base + j·block``: checked that
``m0 >= f0``, ``s ≡ 0 (mod p)``, the heaps of ``base`` and ``block`` are ``<= m0``, ``block``
has ``⊕ g = 0`` and ``Σ w = s``. Then ``m_j + Y_j`` has ``(ρ(m0), G0, z0)`` (``G0``, ``z0`` of
``m0 + base``) and ``m_i + Y_j`` (``i > j``) has ``z = z0 + (i − j)·s``; checked that the rule's
value at ``z0`` differs from its value at every ``z0 + u·s`` (``u >= 1``). So the single heaps
``m_j`` are pairwise inequivalent: the misère quotient of the game is infinite.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from cgtalg.referee._verdict import Malformed, Verdict
from cgtalg.referee.heap_rule_sets import feasible
from cgtalg.referee.heaps import HeapRules, heap_rules
from cgtalg.referee.periodicity import certificate_bound, grundy_by_definition, required_values

__all__ = ["KIND", "recognise", "check", "read", "HeapRule"]

KIND = "largest-heap-rule"
_CHECKER = "cgtalg.referee.heap_rule.check"
LOW, HIGH = "low", "high"


def recognise(doc: dict) -> bool:
    return isinstance(doc, dict) and doc.get("kind") == KIND


def _int(x, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise Malformed(f"{what}: an integer, not {x!r}"[:200])
    return x


@dataclass
class HeapRule:
    """A largest-heap rule as read from a certificate (module docstring)."""

    game: str
    rules: HeapRules
    n0: int
    p: int
    c_exact: list[int]
    c_res: list[int]
    f0: int
    zl: int
    zh: int
    P: set = field(default_factory=set)
    family: dict | None = None
    g_tab: list[int] = field(default_factory=list)
    q: int = 1

    # -- the functions of the rule ------------------------------------------------------------
    def g(self, h: int) -> int:
        if h < len(self.g_tab):
            return self.g_tab[h]
        return self.g_tab[self.n0 + (h - self.n0) % self.p]

    def c(self, h: int) -> int:
        if h == 0:
            return 0
        return self.c_exact[h - 1] if h < self.n0 else self.c_res[h % self.p]

    def w(self, h: int) -> int:
        return h - self.c(h)

    def rho(self, m: int) -> tuple:
        return ("e", m) if m < self.f0 else ("r", m % self.p)

    def value(self, rho: tuple | None, G: int, z: int) -> bool:
        """Whether the rule calls the key P (``rho`` None: the empty position, an N-position)."""
        if rho is None:
            return False
        return (rho, G, min(max(z, self.zl), self.zh)) in self.P

    def outcome(self, heaps) -> bool:
        """The rule's answer for a position (True: P)."""
        hs = sorted((h for h in heaps if h > 0), reverse=True)
        if not hs:
            return False
        G, S = 0, 0
        for h in hs[1:]:
            G ^= self.g(h)
            S += self.w(h)
        return self.value(self.rho(hs[0]), G, hs[0] - S)


def read(doc: dict) -> HeapRule:
    """The rule of a certificate (structure only; :func:`check` proves it)."""
    if not recognise(doc):
        raise Malformed(f"not a {KIND} certificate")
    try:
        game = str(doc["game"])
        gr, wt, ru = doc["grundy"], doc["weights"], doc["rule"]
        n0, p = _int(gr["preperiod"], "grundy.preperiod"), _int(gr["period"], "grundy.period")
        c_exact = [_int(x, "weights.exact") for x in wt.get("exact", [])]
        c_res = [_int(x, "weights.residue") for x in wt["residue"]]
        f0 = _int(ru["exact_below"], "rule.exact_below")
        zl, zh = (_int(x, "rule.z") for x in ru["z"])
        P = set()
        for e in ru["P"]:
            kind, val, G, z = e
            if kind not in ("e", "r"):
                raise Malformed(f"rule.P: a key's kind is 'e' or 'r', not {kind!r}")
            P.add(((kind, _int(val, "rule.P")), _int(G, "rule.P"), _int(z, "rule.P")))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, Malformed):
            raise
        raise Malformed(f"a {KIND} certificate needs game, grundy, weights and rule ({exc!r})"[:300]) from None
    if n0 < 1 or p < 1 or p > 64 or n0 > 64:
        raise Malformed(f"grundy: preperiod {n0} and period {p} must be in 1 .. 64")
    if len(c_exact) != n0 - 1 or len(c_res) != p:
        raise Malformed(f"weights: {n0 - 1} exact values and {p} residues expected")
    if not zl <= zh or zh - zl > 200 or f0 < 1 or f0 > 200:
        raise Malformed(f"rule: z window [{zl}, {zh}] and exact_below {f0} out of range")
    for (kind, val), G, z in P:
        if not zl <= z <= zh or G < 0 or (kind == "e" and not 1 <= val < f0) or (kind == "r" and not 0 <= val < p):
            raise Malformed(f"rule.P: the key {[kind, val, G, z]} is outside the rule's domain")
    rules = heap_rules(game)
    fam = doc.get("family")
    if fam is not None and not isinstance(fam, dict):
        raise Malformed("family: an object")
    return HeapRule(game, rules, n0, p, c_exact, c_res, f0, zl, zh, P, fam)


# -- R1 and R2 ---------------------------------------------------------------------------------
def _data(r: HeapRule, vd: Verdict) -> bool:
    """R1: the Grundy values (and their period), ``w >= 0``, ``q | p``."""
    if r.rules.kind != "code" or r.rules.k is None or r.rules.max_parts > 2:
        vd.fail(f"{r.game}: a rule over heap sizes is proved here for octal codes only (moves leave at most two "
                f"heaps and take a bounded number of tokens)")
        return False
    bound = certificate_bound(r.rules)
    if isinstance(bound, str):
        vd.fail(bound)
        return False
    theorem, hmax, k = bound
    need = required_values(hmax, k, r.n0, r.p)
    r.g_tab = grundy_by_definition(r.rules, max(need, r.n0 + r.p) + 2 * r.p)
    for n in range(r.n0, len(r.g_tab) - r.p):
        if r.g_tab[n] != r.g_tab[n + r.p]:
            vd.fail(f"g({n}) = {r.g_tab[n]} but g({n + r.p}) = {r.g_tab[n + r.p]}: no period {r.p} from {r.n0}")
            return False
    del r.g_tab[r.n0 + r.p:]
    vd.reasons.append(f"g: preperiod {r.n0}, period {r.p} ({theorem}, checked to heap {need + 2 * r.p}); "
                      f"values {r.g_tab}")
    for h in range(1, r.n0 + r.p):
        if r.c(h) > h:
            vd.fail(f"c({h}) = {r.c(h)} > {h}: w would be negative")
            return False
    for res in range(r.p):
        h = next(x for x in range(r.n0, r.n0 + r.p) if x % r.p == res)
        if r.c_res[res] > h:
            vd.fail(f"c({h}) = {r.c_res[res]} > {h}: w would be negative")
            return False
    q = 0
    for h in range(1, r.n0 + 2 * r.p):
        q = math.gcd(q, r.w(h))
    r.q = math.gcd(q, r.p)     # w(h + p) = w(h) + p from n0 on, so q divides p and every w
    return True


@dataclass
class _Classes:
    M0: int
    cls_of: dict            # heap class -> kind index
    D: list                 # kind -> frozenset of (x, delta)
    kg: list                # kind -> g
    kmin: list              # kind -> smallest size
    kwmin: list             # kind -> smallest w
    kwzero: list            # kind -> every size has w = 0
    delta: int


def _split_sig(r: HeapRule, h: int) -> frozenset:
    out = set()
    for parts in r.rules.options(h):
        x, d = r.g(h), r.w(h)
        for a in parts:
            x ^= r.g(a)
            d -= r.w(a)
        out.add((x, d))
    return frozenset(out)


def _residue_sig(r: HeapRule, res: int) -> frozenset:
    """``D`` of the heaps ``>= M0`` of residue ``res`` (R2), from the digits."""
    p, n0, out = r.p, r.n0, set()
    for t in range(0, r.rules.k + 1):
        d = r.rules.digit(t)
        gh, ch = r.g_tab[n0 + (res - n0) % p], r.c_res[res]
        if d & 2 and t > 0:
            ra = (res - t) % p
            out.add((gh ^ r.g(n0 + (ra - n0) % p), t - ch + r.c_res[ra]))
        if d & 4:
            for a in range(1, n0):            # a small part, the other of the residue left
                rb = (res - t - a) % p
                out.add((gh ^ r.g(a) ^ r.g(n0 + (rb - n0) % p), t - ch + r.c(a) + r.c_res[rb]))
            for ra in range(p):
                rb = (res - t - ra) % p
                out.add((gh ^ r.g(n0 + (ra - n0) % p) ^ r.g(n0 + (rb - n0) % p), t - ch + r.c_res[ra] + r.c_res[rb]))
    return frozenset(out)


def _classes(r: HeapRule, vd: Verdict) -> _Classes | None:
    """R2: heap classes, their ``D`` and kinds."""
    k, p, n0 = r.rules.k, r.p, r.n0
    M0 = max(2 * n0 + k + 2 * p, r.f0, k + 1)
    sigs = {}
    for h in range(1, M0):
        sigs[("e", h)] = (_split_sig(r, h), r.g(h), h, r.w(h), r.w(h) == 0)
    for res in range(p):
        D = _residue_sig(r, res)
        for h in range(M0, M0 + 2 * p):
            if h % p == res and _split_sig(r, h) != D:
                vd.fail(f"the moves of heap {h} change (G, z) otherwise than its residue class's (R2)")
                return None
        h = next(x for x in range(M0, M0 + p) if x % p == res)
        sigs[("r", res)] = (D, r.g(h), h, r.w(h), False)
    kinds: dict = {}
    cls_of, D, kg, kmin, kwmin, kwzero = {}, [], [], [], [], []
    for hc, (sig, gv, h, wv, wz) in sigs.items():
        key = (sig, gv)
        if key not in kinds:
            kinds[key] = len(D)
            D.append(sig)
            kg.append(gv)
            kmin.append(h)
            kwmin.append(wv)
            kwzero.append(wz)
        i = kinds[key]
        cls_of[hc] = i
        kmin[i] = min(kmin[i], h)
        kwmin[i] = min(kwmin[i], wv)
        kwzero[i] = kwzero[i] and wz
    cmax = max([abs(x) for x in r.c_exact + r.c_res] + [0])
    maxA = max([abs(dz) for sig in D for _x, dz in sig] + [0])
    delta = max(maxA, k + 2 * cmax) + 2 * n0 + k + 2
    vd.reasons.append(f"heap classes: 1 .. {M0 - 1} exact, then residues mod {p}; {len(D)} kinds of (moves' "
                      f"changes of (G, z), g); |δ| <= {maxA}")
    return _Classes(M0, cls_of, D, kg, kmin, kwmin, kwzero, delta)


# -- R3 to R5 ----------------------------------------------------------------------------------
class _Prover:
    """The views of R3, their options (R4) and the two conditions (R5)."""

    def __init__(self, r: HeapRule, cl: _Classes, vd: Verdict, deadline: float | None) -> None:
        self.r, self.cl, self.vd, self.deadline = r, cl, vd, deadline
        p, k = r.p, r.rules.k
        self.k = k
        self.cmax = max(r.c_exact + r.c_res + [0])
        self.WL = r.zl - cl.delta
        self.WH = max(r.zh + cl.delta, 3 * self.cmax + k - r.zl + 2, k + self.cmax)
        self.L = self.WH - self.cmax + 1            # > k
        self.M1 = max(2 * (r.n0 + self.L + p) + k, cl.M0 + self.L, 2 * r.f0 + k, self.WH + 1, 2 * cl.M0 + k) + p
        self.views = 0
        self._sum_memo: dict = {}
        self._sets_memo: dict = {}           # heap_rule_sets.feasible's tables, per sets of kinds
        self._moving = [bool(d) for d in cl.D]   # whether each kind has a move
        self._z_memo: dict = {}              # zvalues, per (spec, zstate)
        self.kind_w = [set() for _ in cl.D]
        for hc, i in cl.cls_of.items():
            h = hc[1] if hc[0] == "e" else next(x for x in range(cl.M0, cl.M0 + r.p) if x % r.p == hc[1])
            self.kind_w[i].add(r.w(h) % r.p)
        self.failures = 0

    # small helpers
    def gr(self, res: int) -> int:
        r = self.r
        return r.g(r.n0 + (res - r.n0) % r.p)

    def cr(self, res: int) -> int:
        return self.r.c_res[res % self.r.p]

    def hclass(self, h: int) -> tuple:
        return ("e", h) if h < self.cl.M0 else ("r", h % self.r.p)

    def allowed(self, h2: int | None) -> list[int]:
        """The kinds ``O`` may hold when its heaps are ``<= h2`` (None: unbounded)."""
        return sorted({i for i, mn in enumerate(self.cl.kmin) if h2 is None or mn <= h2})

    def span(self, kinds) -> set[int]:
        vals = {0}
        for i in kinds:
            vals |= {v ^ self.cl.kg[i] for v in vals}
        return vals

    def zvalues(self, spec, zstate) -> tuple[frozenset[int], bool]:
        """The clamped values an option's ``z`` may take (R4), and whether that set is one value
        shared by every position of the view (a function of ``spec`` and ``zstate`` for one rule:
        kept, the views ask it millions of times)."""
        key = (spec, zstate)
        got = self._z_memo.get(key)
        if got is None:
            got = self._z_memo[key] = self._zvalues(spec, zstate)
        return got

    def _zvalues(self, spec, zstate) -> tuple[frozenset[int], bool]:
        r, zl, zh, D = self.r, self.r.zl, self.r.zh, self.cl.delta
        every = frozenset(range(zl, zh + 1))
        if spec[0] == "low":
            return frozenset({zl}), True
        if spec[0] == "v":
            return frozenset({min(max(spec[1], zl), zh)}), True
        if spec[0] == "prog":
            _, R, lo = spec
            out = {zh}
            for v in range(zl, zh + 1):
                if (v - R) % (2 * r.p) == 0 and (lo is None or v >= lo):
                    out.add(v)
            if lo is None or lo <= zl:
                out.add(zl)
            return frozenset(out), False
        s = spec[1]
        if isinstance(zstate, int):
            return frozenset({min(max(zstate + s, zl), zh)}), True
        if zstate == LOW:
            return (frozenset({zl}), True) if s <= D else (every, False)
        return (frozenset({zh}), True) if s >= -D else (every, False)

    def called_p(self, rho, G, zstate) -> bool:
        r = self.r
        z = zstate if isinstance(zstate, int) else (r.zl if zstate == LOW else r.zh)
        return r.value(rho, G, z)

    # the options on the largest heap (R4)
    def b_effects(self, m, gamma, eta, zstate) -> list:
        """Effects ``(rho, xor, zspec, guaranteed)`` of the moves on ``m``: ``m`` an int (exact) or
        ``("r", res)``; ``gamma`` None (O empty), an int, or ``"L"`` (``>= L``); ``eta`` the
        class of ``h₂``."""
        r = self.r
        out = []
        if isinstance(m, int):
            h2 = None if gamma is None else m - gamma
            for parts in r.rules.options(m):
                a = max(parts) if parts else 0
                if parts and (h2 is None or a >= h2):
                    rest = list(parts)
                    rest.remove(a)
                    xg, sw = 0, 0
                    for b in rest:
                        xg ^= r.g(b)
                        sw += r.w(b)
                    out.append((r.rho(a), xg, ("s", a - m - sw), True))
                elif h2 is None:
                    out.append((None, 0, ("s", 0), True))
                else:
                    xg, sw = r.g(h2), 0
                    for b in parts:
                        xg ^= r.g(b)
                        sw += r.w(b)
                    out.append((r.rho(h2), xg, ("s", h2 - m + r.w(h2) - sw), True))
            return out
        res, p, n0, L = m[1], r.p, r.n0, self.L
        rho_eta = None if eta is None else (eta if eta[0] == "r" else r.rho(eta[1]))
        g_eta = None if eta is None else (self.gr(eta[1]) if eta[0] == "r" else r.g(eta[1]))
        c_eta = None if eta is None else (self.cr(eta[1]) if eta[0] == "r" else r.c(eta[1]))
        high = isinstance(zstate, tuple) and zstate[0] == HIGH
        for t in range(0, self.k + 1):
            d = r.rules.digit(t)
            if d & 2 and t > 0:
                ra = (res - t) % p
                if gamma is None or gamma == "L" or gamma >= t:
                    out.append((("r", ra), 0, ("s", -t), True))
                else:
                    out.append((rho_eta, g_eta ^ self.gr(ra), ("s", -2 * gamma + t - c_eta + self.cr(ra)), True))
            if not d & 4:
                continue
            if gamma is None or gamma == "L":
                top = n0 - 1 if gamma is None else L - t        # b listed exactly up to here
                for b in range(1, top + 1):
                    out.append((("r", (res - t - b) % p), r.g(b), ("s", -t - 2 * b + r.c(b)), True))
                for rb in range(p):
                    if high:
                        R = (zstate[1] - t - 2 * rb + self.cr(rb)) % (2 * p)
                        lo = self.cr(rb) if gamma is None else None
                        out.append((("r", (res - t - rb) % p), self.gr(rb), ("prog", R, lo), False))
                        for v in range(self.cr(rb), self.WH + 2):      # v > zh: called as zh
                            if (v - R) % (2 * p) or v + t - self.cr(rb) + 2 * n0 > self.WH + 1:
                                continue
                            if gamma == "L" and L < c_eta + self.cr(rb) - v + t:
                                continue
                            out.append((("r", (res - t - rb) % p), self.gr(rb), ("v", v), True))
                    elif gamma == "L":
                        out.append((("r", (res - t - rb) % p), self.gr(rb), ("low",), False))
                if gamma == "L" and eta[0] == "r":       # splits leaving h₂ the largest (z' <= zl)
                    for b in range(1, n0):
                        ra = (res - t - b) % p
                        out.append((rho_eta, g_eta ^ self.gr(ra) ^ r.g(b), ("low",), False))
                    for rb in range(p):
                        ra = (res - t - rb) % p
                        out.append((rho_eta, g_eta ^ self.gr(ra) ^ self.gr(rb), ("low",), False))
                continue
            for b in range(1, gamma - t + 1):                    # a stays the largest
                out.append((("r", (res - t - b) % p), r.g(b), ("s", -t - 2 * b + r.c(b)), True))
            for b in range(max(1, gamma - t + 1), n0):          # h₂ becomes the largest
                ra = (res - t - b) % p
                out.append((rho_eta, g_eta ^ self.gr(ra) ^ r.g(b),
                            ("s", -2 * gamma + t - c_eta + self.cr(ra) + r.c(b)), True))
            for rb in range(p):
                ra = (res - t - rb) % p
                out.append((rho_eta, g_eta ^ self.gr(ra) ^ self.gr(rb),
                            ("s", -2 * gamma + t - c_eta + self.cr(ra) + self.cr(rb)), True))
        return out

    def has_move(self, m) -> bool:
        if isinstance(m, int):
            return bool(self.r.rules.options(m))
        return any(self.r.rules.digit(t) & 6 for t in range(0, self.k + 1))

    # one view
    def _sums(self, i: int, odd: bool, zero_ok: bool) -> frozenset:
        """The residues mod ``p`` of ``Σ w`` over a number of heaps of kind ``i`` (any sizes of
        the kind) of the given parity (``zero_ok``: none at all allowed too)."""
        key = (i, odd, zero_ok)
        got = self._sum_memo.get(key)
        if got is None:
            p, W = self.r.p, self.kind_w[i]
            seen = {(x % p, 1) for x in W}           # (residue, parity of the count)
            todo = list(seen)
            while todo:
                res, par = todo.pop()
                for x in W:
                    st = ((res + x) % p, 1 - par)
                    if st not in seen:
                        seen.add(st)
                        todo.append(st)
            got = frozenset(res for res, par in seen if par == (1 if odd else 0))
            if zero_ok:
                got = got | {0}
            self._sum_memo[key] = got
        return got

    def view(self, m, gamma, eta, G, zstate, rho_m, beff, kinds, wbound, w2=0) -> None:
        """Check R5 at one view. ``kinds``: the kinds ``O`` may hold (sizes up to ``h₂``);
        ``wbound``: ``m − w(h₂)`` when known (None: no bound); ``w2``: ``w(h₂) mod p``."""
        self.views += 1
        cl = self.cl
        isp = self.called_p(rho_m, G, zstate)
        if eta is None:
            ek, fits = None, None
        else:
            p = self.r.p
            ek = cl.cls_of[eta]
            m_res = m % p if isinstance(m, int) else m[1]
            z_res = zstate % p if isinstance(zstate, int) else (zstate[1] % p if isinstance(zstate, tuple) else None)
            target = None if z_res is None else (m_res - z_res - w2) % p

            def accept(cost: int, res: int, zero: bool) -> bool:
                if zero:        # every heap has w = 0: z = m
                    if isinstance(m, int):
                        return zstate == m
                    return isinstance(zstate, tuple) and zstate[1] % p == m[1]
                if isinstance(zstate, int) and wbound is not None and zstate > wbound - cost:
                    return False
                return target is None or res == target

            moving = self._moving

            def fits(forced=(), allowed=None, need_moving=False) -> bool:
                return feasible(kinds, ek, G, cl.kg, cl.kwmin, cl.kwzero, moving, self._sums, accept,
                                forced=forced, allowed=allowed, need_moving=need_moving, p=p,
                                memo=self._sets_memo)

            if not fits():
                return          # no position has this view
            others = [i for i in kinds if i != ek]
        if isp and not self.has_move(m) and (eta is None or (not cl.D[ek] and fits(
                allowed=[i for i in others if not cl.D[i]]))):
            self._fail(f"the rule calls P {self._show(m, gamma, eta, G, zstate)}, where a position may have no move")
            return
        if isp:
            for rho, xg, spec, _g in beff:
                vals, _c = self.zvalues(spec, zstate)
                if any(self.r.value(rho, G ^ xg, v) for v in vals):
                    self._fail(f"P-condition: {self._show(m, gamma, eta, G, zstate)} has an option called P "
                               f"(a move on the largest heap to {rho}, G ⊕ {xg}, z {spec})")
                    return
            for i in ([] if eta is None else sorted(set(kinds) | {ek})):
                for x, dz in cl.D[i]:
                    vals, _c = self.zvalues(("s", dz), zstate)
                    if any(self.r.value(rho_m, G ^ x, v) for v in vals) and (i == ek or fits(forced=(i,))):
                        self._fail(f"P-condition: {self._show(m, gamma, eta, G, zstate)} has an option called P "
                                   f"(a move on a heap of kind {i}: G ⊕ {x}, z + {dz})")
                        return
            return
        for rho, xg, spec, guaranteed in beff:
            if guaranteed:
                vals, certain = self.zvalues(spec, zstate)
                if certain and self.r.value(rho, G ^ xg, next(iter(vals))):
                    return
        if eta is None:
            if beff:
                self._fail(f"N-condition: {self._show(m, gamma, eta, G, zstate)} has no option called P")
            return
        # a set of kinds none of which wins (with a move somewhere when the largest heaps have none)
        if not self._kind_wins(ek, G, zstate, rho_m) and fits(
                allowed=[i for i in others if not self._kind_wins(i, G, zstate, rho_m)], need_moving=not beff):
            self._fail(f"N-condition: {self._show(m, gamma, eta, G, zstate)} with heaps of kinds that may "
                       "stand beside the largest has no option called P")
            return

    def _kind_wins(self, i, G, zstate, rho_m) -> bool:
        for x, dz in self.cl.D[i]:
            vals, certain = self.zvalues(("s", dz), zstate)
            if certain and self.r.value(rho_m, G ^ x, next(iter(vals))):
                return True
        return False

    def _show(self, m, gamma, eta, G, zstate) -> str:
        mm = f"m = {m}" if isinstance(m, int) else f"m ≡ {m[1]} (mod {self.r.p}), m >= {self.M1}"
        if gamma is None:
            return f"the single heap {mm}" if isinstance(m, int) else f"a single heap {mm}"
        gg = f"γ = {gamma}" if gamma != "L" else f"γ >= {self.L}, h₂ of class {eta}"
        zz = zstate if isinstance(zstate, int) else (f"z < {self.WL}" if zstate == LOW else
                                                     f"z > {self.WH}, z ≡ {zstate[1]} (mod {2 * self.r.p})")
        return f"the view ({mm}, {gg}, G = {G}, z = {zz})" if isinstance(zz, int) else f"the view ({mm}, {gg}, G = {G}, {zz})"

    def _fail(self, why: str) -> None:
        self.failures += 1
        if self.failures <= 5:
            self.vd.fail(why)

    def _late(self) -> bool:
        return self.deadline is not None and time.process_time() > self.deadline

    def run(self) -> bool:
        """Every view (R3); False when the deadline passed first."""
        r, cl, p = self.r, self.cl, self.r.p
        q = r.q
        for m in range(1, self.M1):
            if self._late():
                return False
            rho_m = r.rho(m)
            self.view(m, None, None, 0, m, rho_m, self.b_effects(m, None, None, m), [], None)
            for gamma in range(0, m):
                h2 = m - gamma
                eta = self.hclass(h2)
                kinds = self.allowed(h2)
                zmax = min(m, gamma + r.c(h2))
                beff = self.b_effects(m, gamma, eta, None)
                zs = [LOW] + [z for z in range(self.WL, zmax + 1) if (z - m) % q == 0]
                for G in sorted(self.span(kinds)):
                    for z in zs:
                        self.view(m, gamma, eta, G, z, rho_m, beff, kinds, m - r.w(h2), r.w(h2) % p)
                if self.failures > 5:
                    return True
        for res in range(p):
            m = ("r", res)
            rho_m = ("r", res)
            for j in range(2):
                zh = (HIGH, (res + j * p) % (2 * p))
                self.view(m, None, None, 0, zh, rho_m, self.b_effects(m, None, None, zh), [], None)
            for gamma in range(0, self.L):
                if self._late():
                    return False
                eta = ("r", (res - gamma) % p)
                kinds = self.allowed(None)
                beff = self.b_effects(m, gamma, eta, None)
                zmax = gamma + self.cr(eta[1])
                zs = [LOW] + [z for z in range(self.WL, zmax + 1) if (z - res) % q == 0]
                for G in sorted(self.span(kinds)):
                    for z in zs:
                        self.view(m, gamma, eta, G, z, rho_m, beff, kinds, zmax, (res - zmax) % p)
            etas = [("e", h) for h in range(1, cl.M0)] + [("r", x) for x in range(p)]
            for eta in etas:
                if self._late():
                    return False
                kinds = self.allowed(eta[1] if eta[0] == "e" else None)
                w2 = (r.w(eta[1]) if eta[0] == "e" else eta[1] - self.cr(eta[1])) % p
                zs = ([LOW] + [z for z in range(self.WL, self.WH + 1) if (z - res) % q == 0]
                      + [(HIGH, x) for x in range(2 * p) if (x - res) % q == 0])
                for z in zs:
                    beff = self.b_effects(m, "L", eta, z)
                    for G in sorted(self.span(kinds)):
                        self.view(m, "L", eta, G, z, rho_m, beff, kinds, None, w2)
            if self.failures > 5:
                return True
        return True


# -- R6 and the verdict ------------------------------------------------------------------------
def _family(r: HeapRule, vd: Verdict) -> str | None:
    """R6: the single heaps ``m0 + j·s`` are pairwise inequivalent (so the quotient is infinite)."""
    fam = r.family
    if fam is None:
        vd.fail("family: missing (the heaps that R6 shows pairwise inequivalent)")
        return None
    try:
        m0, s = _int(fam["heap"], "family.heap"), _int(fam["step"], "family.step")
        base = [_int(h, "family.base") for h in fam.get("base", [])]
        block = [_int(h, "family.block") for h in fam["block"]]
    except (KeyError, TypeError) as exc:
        raise Malformed(f"family: heap, step, base and block needed ({exc!r})") from None
    why = []
    if m0 < r.f0:
        why.append(f"heap {m0} < exact_below {r.f0}")
    if s <= 0 or s % r.p:
        why.append(f"step {s} is not a positive multiple of the period {r.p}")
    if any(not 1 <= h <= m0 for h in base + block) or not block:
        why.append(f"the heaps of base and block must be in 1 .. {m0} (block not empty)")
    gb, sb = 0, 0
    for h in block:
        gb ^= r.g(h)
        sb += r.w(h)
    if gb or sb != s:
        why.append(f"block: ⊕ g = {gb} and Σ w = {sb}, not 0 and {s}")
    if why:
        vd.fail("family: " + "; ".join(why))
        return None
    G0, S0 = 0, 0
    for h in base:
        G0 ^= r.g(h)
        S0 += r.w(h)
    z0, rho = m0 - S0, r.rho(m0)
    v0 = r.value(rho, G0, z0)
    u = 1
    while True:
        if r.value(rho, G0, z0 + u * s) == v0:
            vd.fail(f"family: the rule's value at z = {z0} and z = {z0 + u * s} is the same ({'P' if v0 else 'N'}), "
                    f"so heaps {u * s} apart are not told apart by Y_j")
            return None
        if z0 + u * s >= r.zh:
            break
        u += 1
    return (f"R6: heaps {m0} + {s}j beside Y_j = {base} + j·{block} have (ρ, G, z) = ({rho}, {G0}, {z0}), "
            f"called {'P' if v0 else 'N'}; heap {m0} + {s}i (i > j) beside Y_j has z = {z0} + {s}(i − j), called "
            f"{'N' if v0 else 'P'}: the heaps {m0} + {s}j are pairwise inequivalent, and the misère quotient of "
            f"{r.game} is infinite (every Q_n finite or not)")


def check(doc: dict, max_seconds: float | None = 600.0, infinite: bool = True) -> list[Verdict]:
    """The verdict on a largest-heap rule (module docstring): one Verdict of kind
    ``"infinite misère quotient"``, ok when R1–R6 hold (with ``infinite=False``, of kind ``"misère
    outcome rule"``, R1–R5: the outcomes only, as for a game whose quotient is finite). ``max_seconds`` bounds the views' walk
    (CPU time of the process; passing it is a failure, not a pass).

    Raises
    ------
    Malformed
        When the document cannot be read (:func:`read`)."""
    r = read(doc)
    t0 = time.process_time()
    claim = (f"{r.game}: every misère outcome follows the largest-heap rule ({len(r.P)} P-keys)"
             + (", and the misère quotient is infinite" if infinite else ""))
    vd = Verdict("infinite misère quotient" if infinite else "misère outcome rule", claim, True, [], _CHECKER)
    if not _data(r, vd):
        return [vd]
    cl = _classes(r, vd)
    if cl is None:
        return [vd]
    fam = _family(r, vd) if infinite else "R6 not asked (the outcomes only)"
    if fam is None:
        # as the other checkers: a claim already refuted is not checked further
        vd.reasons.append("not checked further: R3–R5 (the family does not show the quotient infinite)")
        vd.reasons.append(f"checked in {time.process_time() - t0:.1f} s of CPU time")
        return [vd]
    pr = _Prover(r, cl, vd, None if max_seconds is None else time.process_time() + max_seconds)
    done = pr.run()
    if not done:
        vd.fail(f"the views were not all checked within {max_seconds} s of CPU time")
    elif vd.ok:
        vd.reasons.append(f"R3–R5: {pr.views} views (m exact below {pr.M1}, z exact on [{pr.WL}, {pr.WH}], "
                          f"γ exact below {pr.L}): the P- and N-conditions hold, so every position has the "
                          f"outcome the rule says")
    elif pr.failures > 5:
        vd.reasons.append(f"… {pr.failures - 5} more failures")
    vd.reasons.append(fam)
    for key in ("infinite_from",):
        if doc.get(key) is not None:
            vd.fail(f"{key}: {doc[key]!r}, but a largest-heap rule shows no heap from which Q_n is infinite")
    vd.reasons.append(f"checked in {time.process_time() - t0:.1f} s of CPU time")
    return [vd]
