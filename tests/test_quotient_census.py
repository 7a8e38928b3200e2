"""The misère quotient census (issue 21, part 3): published quotients, brute-force misère play,
the translation of a class's quotient to its members, resumption and idempotence, re-checks,
the diff, and the CSV/JSON/HTML outputs.

Published values used (Plambeck & Siegel, "Misère quotients for impartial games", JCTA 115
(2008), Table 1 and §§5-7): ``0.123`` has a quotient of order 20, Kayles ``0.77`` of order 40,
``0.15`` of order 42, ``0.72`` of order 24; misère Nim's quotients on heaps ``< 2^n`` are the
tame ``T_n`` of order ``2^n + 2`` (``T_1 = ⟨a | a² = 1⟩`` of order 2; §4). The |P| sizes
(5, 9, 12, 5) are this library's, checked below by brute-force play.
"""

from __future__ import annotations

import functools
import itertools
import json
import random

import pytest

from cgtalg.census import quotient_census, read_quotient_table
from cgtalg.census.quotients import FINAL_PROP, quotient_growth
from cgtalg.census.tasks import CENSUS_RULESET
from cgtalg.quotients.construct import misere_quotient
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.store import open_store

PUBLISHED = {"0.123": 20, "0.77": 40, "0.15": 42, "0.72": 24}


def brute_is_p(code: TakeAndBreak):
    """Misère outcome of a sum of heaps by exhaustive play, from the definitions: a position
    with no move is an N-position (the player to move has won), otherwise it is P iff every
    option is N."""
    options = functools.lru_cache(maxsize=None)(
        lambda n: tuple({tuple(p for p in parts if p) for parts in code.heap_options(n)}))

    @functools.lru_cache(maxsize=None)
    def is_p(pos: tuple[int, ...]) -> bool:
        moved = False
        for i, h in enumerate(pos):
            rest = pos[:i] + pos[i + 1:]
            for parts in options(h):
                moved = True
                if is_p(tuple(sorted(rest + parts))):
                    return False
        return moved

    return lambda heaps: is_p(tuple(sorted(h for h in heaps if h)))


def quotient_is_p(std_q, shift: int):
    """Outcome predicted by the standard form's quotient for a position of a member shifted by
    ``shift``: heap n of the member is heap n - shift of the standard form (heaps <= shift have
    no move)."""
    return lambda heaps: std_q.is_p([h - shift for h in heaps if h > shift])


def positions(top: int, count: int, seed: int = 21):
    rng = random.Random(seed)
    small = [p for k in (1, 2, 3) for p in itertools.combinations_with_replacement(range(1, min(top, 9) + 1), k)]
    return small + [tuple(rng.randint(1, top) for _ in range(rng.randint(1, 4))) for _ in range(count)]


@pytest.fixture(scope="module")
def published():
    return quotient_census(codes=list(PUBLISHED), scheduler="serial", class_seconds=120)


@pytest.fixture(scope="module")
def one_digit():
    return quotient_census(digits=1, scheduler="serial", class_seconds=4)


# -- published values and brute force ----------------------------------------------------------------
def test_published_orders(published):
    for code, order in PUBLISHED.items():
        row = published.row(code)
        assert row.status == "wild-finite" and row.order == order, (code, row)
    assert {c: published.row(c).p_count for c in PUBLISHED} == {"0.123": 5, "0.77": 9, "0.15": 12, "0.72": 5}
    # Kayles: Φ periodic from heap 71 with period 12 (Plambeck-Siegel 2008, §6)
    assert (published.row("0.77").preperiod, published.row("0.77").period) == (71, 12)
    assert published.row("0.123").generator_heaps == (1, 3, 6, 8, 9)


def test_growth_is_the_order_of_each_q_n():
    """The growth steps against Q_n computed afresh for every n (no state shared)."""
    r = quotient_census(codes=["0.123", "0.0123"], scheduler="serial", class_seconds=60)
    fresh = [misere_quotient(TakeAndBreak("0.123"), max_heap=n, progress=False, resume=False).order
             for n in range(13)]
    steps = quotient_growth(lambda n: fresh[n], 12)
    assert [list(s) for s in r.row("0.123").growth] == steps == [[0, 1], [1, 2], [3, 6], [8, 12], [9, 20]]


def test_one_digit_census_against_brute_force(one_digit):
    c = one_digit.counts()
    assert c["codes"] == 7 and c["classes"] == 6
    assert {r.code: r.status for r in one_digit.rows if r.final} == {
        "0.1": "tame", "0.2": "tame", "0.3": "tame", "0.5": "tame", "0.7": "tame"}
    for r in one_digit.rows:
        if r.final:
            assert r.tame == 1 and r.order == 2 and r.presentation == "⟨a | a²=1⟩"
    # every row's quotient (final, or the partial Q_N) predicts brute-force play
    for r in one_digit.rows:
        std = misere_quotient(TakeAndBreak(r.standard_form), max_heap=min(r.heaps - r.shift, 14), progress=False)
        brute = brute_is_p(TakeAndBreak(r.code))
        pred = quotient_is_p(std, r.shift)
        for pos in positions(min(r.heaps, 14), 60):
            assert pred(pos) == brute(pos), (r.code, pos)


@pytest.mark.parametrize("member", ["0.0123", "0.4", "0.6", "0.07", "4.0", "4.41"])
def test_members_get_the_class_quotient_translated(member):
    """A member's row (its class's record moved by the shift) is what the member's own
    quotient says, and both predict brute-force play of the member's own code."""
    r = quotient_census(codes=[member], scheduler="serial", class_seconds=6)
    row = r.row(member)
    assert row.shift >= 1
    code = TakeAndBreak(member)
    top = min(row.heaps, 14)
    own = misere_quotient(code, max_heap=top, progress=False, resume=False)
    assert own.order == next(o for h, o in reversed(row.growth) if h <= top)
    std = misere_quotient(TakeAndBreak(row.standard_form), max_heap=top - row.shift, progress=False)
    assert own.isomorphic(std)
    if row.final:
        mine = misere_quotient(code, progress=False, resume=False)
        assert (mine.order, int(mine.P.sum()), mine.period[1]) == (row.order, row.p_count, row.period)
        assert mine.period[0] == row.preperiod
        assert mine.presentation().text == row.presentation
    brute = brute_is_p(code)
    for pos in positions(top, 80):
        assert quotient_is_p(std, row.shift)(pos) == brute(pos) == own.is_p(pos), pos


# -- store: resume, idempotence, re-check -------------------------------------------------------------
def _plain(result):
    return [{k: v for k, v in r.to_json().items() if k != "source"} for r in result.rows]


def test_rerun_reuses_and_a_larger_budget_resumes(tmp_path):
    path = str(tmp_path / "q.sqlite")
    codes = ["0.123", "0.31", "0.37", "0.6"]
    first = quotient_census(codes=codes, scheduler="serial", store=path, class_seconds=1.5)
    assert first.computed == 3 and first.skipped == 0
    assert first.row("0.37").status == "unsettled" and first.row("0.6").heaps == first.row("0.37").heaps + 1
    again = quotient_census(codes=codes, scheduler="serial", store=path, class_seconds=1.5)
    assert (again.computed, again.skipped) == (0, 3)
    assert _plain(again) == _plain(first)
    assert {r.source for r in again.rows} == {"reused, re-checked"}
    with open_store(path) as st:
        props = st.get_positions_many(CENSUS_RULESET, ["0.123", "0.37"])
        assert FINAL_PROP in props["0.123"]
        assert list(props["0.37"]) == ["quotient_census:partial:seconds=1.5:order=5000"]
        assert st.position_provenance(CENSUS_RULESET, "0.123", FINAL_PROP).algorithm >= 1
    more = quotient_census(codes=codes, scheduler="serial", store=path, class_seconds=4)
    assert (more.computed, more.skipped) == (1, 2)
    assert more.row("0.37").heaps >= first.row("0.37").heaps
    # the growth so far is kept: the resumed class's steps extend the first run's
    old, new = first.row("0.37").growth, more.row("0.37").growth
    assert [s for s in new if s[0] <= old[-1][0]] == list(old)


def test_killed_class_resumes_from_its_checkpoint(tmp_path):
    """A class with a checkpoint and no record (a killed run) starts from the checkpoint."""
    path = str(tmp_path / "k.sqlite")
    with open_store(path) as st:
        misere_quotient(TakeAndBreak("0.37"), max_heap=10, progress=False, store=st)
    from cgtalg.quotients.state import forget_known

    forget_known()
    seen = []
    r = quotient_census(codes=["0.37"], scheduler="serial", store=path, class_seconds=1,
                        on_result=lambda std, rec: seen.append(rec))
    assert r.row("0.37").heaps >= 10 and r.computed == 1
    assert [list(s) for s in r.row("0.37").growth][:2] == [[0, 1], [1, 2]]


def test_a_tampered_record_fails_its_recheck_and_is_replaced(tmp_path):
    path = str(tmp_path / "t.sqlite")
    quotient_census(codes=["0.123"], scheduler="serial", store=path, class_seconds=30)
    with open_store(path) as st:
        rec = st.get_positions_many(CENSUS_RULESET, ["0.123"])["0.123"][FINAL_PROP]
        st.put_positions_many([(CENSUS_RULESET, "0.123", FINAL_PROP, dict(rec, order=21))], replace=True)
    with pytest.warns(RuntimeWarning, match="failed their re-check"):
        r = quotient_census(codes=["0.123"], scheduler="serial", store=path, class_seconds=30)
    assert "order is stored as 21 but recomputed as 20" in r.rechecks["0.123"]["quotient"]
    assert r.row("0.123").order == 20
    with open_store(path) as st:
        assert st.get_positions_many(CENSUS_RULESET, ["0.123"])["0.123"][FINAL_PROP]["order"] == 20
    again = quotient_census(codes=["0.123"], scheduler="serial", store=path, class_seconds=30)
    assert again.skipped == 1 and not again.rechecks


def test_the_grundy_census_and_the_quotient_census_share_a_store(tmp_path):
    """Different property families: neither census reads the other's records as its own."""
    from cgtalg.census import octal_census

    path = str(tmp_path / "s.sqlite")
    quotient_census(codes=["0.123", "0.7"], scheduler="serial", store=path, class_seconds=30)
    g = octal_census(codes=["0.123", "0.7"], scheduler="serial", store=path, values=2**12, genus_heaps=4,
                     quotient_heaps=6)
    assert g.skipped == 0 and not g.rechecks
    q = quotient_census(codes=["0.123", "0.7"], scheduler="serial", store=path, class_seconds=30)
    assert q.skipped == 2 and not q.rechecks


# -- Dask ---------------------------------------------------------------------------------------------
def test_local_cluster_agrees_with_serial(tmp_path, published):
    pytest.importorskip("distributed")
    r = quotient_census(codes=list(PUBLISHED), workers=2, store=str(tmp_path / "d.sqlite"), class_seconds=120)
    assert r.workers == 2 and r.failed == 0
    assert _plain(r) == _plain(published)


# -- outputs and the diff -----------------------------------------------------------------------------
def test_outputs_and_diff(tmp_path, one_digit, published):
    csv_path, json_path = tmp_path / "t.csv", tmp_path / "t.json"
    published.to_csv(csv_path)
    json_path.write_text(json.dumps(published.to_json()))
    assert published.diff(str(csv_path)) == [] and published.diff(str(json_path)) == []
    rows = read_quotient_table(str(csv_path))
    assert {r["code"]: r["order"] for r in rows} == PUBLISHED
    # a published table in its own words, and a wrong claim
    claims = ["code,|Q|,|P|,status", "0.123,20,5,wild-finite", "0.77,41,9,wild-finite", "0.7,2,1,tame"]
    diffs = published.diff(claims)
    assert [(d.code, d.field) for d in diffs] == [("0.77", "order"), ("0.7", "code")]
    # a growth that differs at heap 9
    bad = ["code,status,heaps,growth", "0.123,unsettled,10,0:1 1:2 3:6 8:12 9:19"]
    assert [(d.field, d.first_heap, d.conclusive) for d in published.diff(bad)] == [
        ("growth", 9, True), ("status", None, False)]
    # a partial order beyond the final one contradicts it; a shorter agreeing one does not
    assert published.diff(["code,status,heaps,order", "0.72,unsettled,30,25"])[0].conclusive
    assert not published.diff(["code,status,heaps,order,growth", "0.72,unsettled,3,6,0:1 1:2 3:6"])[0].conclusive
    page = one_digit.to_html(tmp_path / "t.html")
    assert "data:image/png;base64," in page and "0.6" in page
    assert one_digit.counts()["unsettled"]["classes"] == 2
    assert "2 unsettled (2 codes)" in one_digit.summary()


def test_cli(tmp_path):
    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    store = str(tmp_path / "c.sqlite")
    args = ["census", "quotient", "--codes", "0.123,0.0123,0.7", "--time", "class=30s", "--scheduler", "serial",
            "--store", store]
    out = CliRunner().invoke(cli, [*args, "--json", "--csv", str(tmp_path / "c.csv"), "--html",
                                   str(tmp_path / "c.html")])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["census"]["counts"]["wild-finite"] == {"codes": 2, "classes": 2}
    assert {r["code"]: r["result"] for r in data["rows"]} == {"0.0123": "wild-finite", "0.123": "wild-finite",
                                                            "0.7": "tame T_1"}
    (tmp_path / "c.json").write_text(out.output)
    text = CliRunner().invoke(cli, [*args, "--diff", str(tmp_path / "c.json")])
    assert text.exit_code == 0, text.output
    assert "0 disagreement(s)" in text.output and "3 reused from the store and re-checked" in text.output
    bad = CliRunner().invoke(cli, ["census", "quotient", "--time", "class=nan", "--codes", "0.7"])
    assert bad.exit_code != 0
