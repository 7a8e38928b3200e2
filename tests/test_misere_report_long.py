"""The misère report past the walk limit of canonical forms (issue 23, part 4).

Heaps beyond the forms' reach take their genus superscripts from the final misère quotient
(:mod:`cgtalg.rulesets.heaps.quotient_genus`). Checked three ways:

* against a brute-force misère Grundy computation written here from the definition
  (positions as sorted heap tuples; ``G⁻(Y) = m`` iff ``Y + *m`` is a misère P-position, with
  the nim-heap ``*m`` as a separate component and memoised outcomes), for small heaps;
* against the form-based ``genus_sequence`` for every heap it reaches;
* against published values: Kayles' genera as printed by CGSuite's Kayles row and Winning Ways
  ch. 13 (the misère Kayles table, "Table 6" of the chapter: heaps 1..20 with genera
  ``1^031 2^20 3^31 1^031 4^146 3^31 2^20 1^13 4^046 2^20 6^46 4^046 1^13 2^20 7^57 1^13 4^64
  3^31 2^20 1^031``), and the single-heap misère P-positions of Kayles, 1, 4, 9, 12, 20
  (Winning Ways ch. 13, misère Kayles).
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
from click.testing import CliRunner

from cgtalg.cli.main import cli
from cgtalg.cli.misere import misere_report
from cgtalg.errors import ComputationLimitError
from cgtalg.rulesets.heaps.genus import genus_sequence
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.rulesets.heaps.quotient_genus import (final_quotient, nim_representatives, quotient_genus,
                                            quotient_genus_sequence)

# Winning Ways ch. 13, misère Kayles, heaps 1..20 (the classical symbols)
WW_KAYLES = ("1^031 2^20 3^31 1^031 4^146 3^31 2^20 1^13 4^046 2^20 6^46 4^046 1^13 2^20 7^57 "
             "1^13 4^64 3^31 2^20 1^031").split()


def _kayles_options(n: int) -> list[tuple[int, ...]]:
    """Kayles from its rules (knock down one pin or two adjacent pins), independent of the
    library's octal code."""
    out = set()
    for take in (1, 2):
        for left in range(n - take + 1):
            right = n - take - left
            out.add(tuple(sorted(x for x in (left, right) if x)))
    return sorted(out)


@lru_cache(maxsize=None)
def _p(heaps: tuple[int, ...], nim: int) -> bool:
    """Misère outcome of Kayles heaps + the nim-heap *nim from the definition: P iff every
    option is N; no option at all is N (the player to move has lost the last move: wins)."""
    moves = False
    for i, h in enumerate(heaps):
        if i and heaps[i - 1] == h:
            continue
        rest = heaps[:i] + heaps[i + 1:]
        for o in _kayles_options(h):
            moves = True
            if _p(tuple(sorted(rest + o)), nim):
                return False
    for j in range(nim):
        moves = True
        if _p(heaps, j):
            return False
    return moves


def _brute_gamma(heap: int, k: int) -> int:
    """γk of a Kayles heap: the m with heap + k·*2 + *m misère P (Kayles heap 2 is *2; the
    extra *m is a nim-heap component)."""
    pos = tuple(sorted((heap,) * (heap > 0) + (2,) * k))
    m = 0
    while not _p(pos, m):
        m += 1
    return m


@pytest.fixture(scope="module")
def kayles():
    r = TakeAndBreak("0.77")
    q = final_quotient(r)
    assert q is not None and q.final
    return r, q


def test_nim_representatives_kayles(kayles):
    r, _ = kayles
    reps = nim_representatives(r)
    assert reps[0] == () and reps[1] == (1,) and reps[2] == (2,) and reps[3] == (3,)


def test_against_brute_force_small_heaps(kayles):
    r, q = kayles
    reps = nim_representatives(r)
    for h in range(13):
        x = quotient_genus(q, (h,) if h else (), int(r.grundy_sequence(h + 1)[h]), reps)
        for k in range(4):
            got = x.gammas[k] if k < len(x.gammas) else x.gammas[len(x.gammas) - 2 + ((k - len(x.gammas)) % 2)]
            want = _brute_gamma(h, k)
            if got is None:
                assert want >= 4, (h, k, want)      # undecided means none of 0..3
            else:
                assert got == want, (h, k)


def test_against_forms_and_winning_ways(kayles):
    r, q = kayles
    forms = genus_sequence(r, 36, progress=False)
    qs = quotient_genus_sequence(r, 36, quotient=q)
    decided = 0
    for h, (f, x) in enumerate(zip(forms, qs)):
        assert x.misere_outcome == ("P" if f.misere_grundy == 0 else "N")
        assert x.g == f.g
        if x.complete:
            decided += 1
            assert x.genus() == f, h
        for i, v in enumerate(x.gammas):
            if v is None:
                assert f.gamma(i) >= 4, (h, i)
            else:
                assert v == f.gamma(i), (h, i)
    assert decided >= 15
    # the published row, where the quotient decides it
    for h, sym in enumerate(WW_KAYLES, start=1):
        if qs[h].complete:
            assert str(qs[h]) == sym, h
        assert str(forms[h]) == sym


def test_misere_p_heaps_of_kayles_to_200(kayles):
    r, q = kayles
    qs = quotient_genus_sequence(r, 200, quotient=q)
    assert [h for h, x in enumerate(qs) if x.misere_outcome == "P"] == [1, 4, 9, 12, 20]
    # the 12-periodic tail of the normal values carries over to the decided superscripts
    assert [str(x) for x in qs[180:192]] == [str(x) for x in qs[168:180]]


def test_report_200_heaps_kayles():
    r = TakeAndBreak("0.77")
    res = misere_report(r, 200, progress=False, form_seconds=2.0)
    assert res["complete"] and len(res["heaps"]) == 200
    assert [row["heap"] for row in res["heaps"]] == list(range(200))
    assert res["misere_p_positions"] == [1, 4, 9, 12, 20]
    reach = res["classes_known_to"] + 1
    assert all(row["source"] == "forms" for row in res["heaps"][:reach])
    assert all(row["source"] == "quotient" and row["class"] is None for row in res["heaps"][reach:])
    assert "XOR" not in (res["note"] or "")
    assert res["first_wild_heap"] == 9


def test_cli_json_200(tmp_path):
    out = CliRunner().invoke(cli, ["--store", str(tmp_path / "s.sqlite"), "misere", "0.77", "-n", "200",
                                   "--time", "10", "--json"])
    assert out.exit_code == 0, out.output
    res = json.loads(out.output)
    assert len(res["heaps"]) == 200 and res["complete"]
    assert res["heaps"][199]["misere_outcome"] == "N"


@pytest.mark.slow
def test_walk_limit_message_is_misere():   # the forms up to Kayles heap 46: about 30 s
    r = TakeAndBreak("0.77")
    with pytest.raises(ComputationLimitError) as e:
        genus_sequence(r, 60, progress=False)
    msg = str(e.value)
    assert "XOR" not in msg and "misère canonical form of heap" in msg
    part = genus_sequence(r, 60, progress=False, partial=True)
    assert 30 < len(part) < 60


@pytest.mark.slow
@pytest.mark.parametrize("code", ["0.77", "0.123"])
def test_report_long_slow(code):
    res = misere_report(TakeAndBreak(code), 1000, progress=False, form_seconds=10.0)
    assert len(res["heaps"]) == 1000
