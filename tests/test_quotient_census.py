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


# -- infinite classes and lower bounds ----------------------------------------------------------------
# Dawson's Chess 0.137 is the standard form of the class of Dawson's Kayles 0.07 (shift 1); its
# Q_33 is infinite and Q_32 (order 638, |P| = 109) the last finite quotient: the certificate
# docs/data/Q33_0.137_infinite.json (docs/quotient_frontier.md). Nothing here recomputes the
# proof: a store is given Q_32 (3 s) and the certificate's ray record, which the construction
# re-verifies on loading and turns into the class's verdict.
DATA = __import__("pathlib").Path(__file__).resolve().parents[1] / "docs" / "data"
Q33 = DATA / "Q33_0.137_infinite.json"
DAWSON_GROWTH = [[0, 1], [1, 2], [3, 6], [9, 12], [13, 24], [24, 144], [26, 176], [29, 360], [30, 520],
                 [31, 552], [32, 638]]


def _infinite_store(path: str) -> dict:
    from cgtalg.quotients.state import forget_known
    from cgtalg.quotients.storage import RAYS, quotient_key

    doc = json.loads(Q33.read_text())
    code = TakeAndBreak("0.137")
    with open_store(path) as st:
        misere_quotient(code, max_heap=32, progress=False, store=st, resume=False)
        meta = dict(st.sequence_meta(quotient_key(code)) or {})
        meta[RAYS] = doc["ray"]
        st.put_sequence_meta(quotient_key(code), meta, replace=True)
    forget_known()
    return doc


def test_an_infinite_class_end_to_end(tmp_path):
    from cgtalg.census import stored_row_certificates

    path = str(tmp_path / "inf.sqlite")
    doc = _infinite_store(path)
    r = quotient_census(codes=["0.137", "0.07"], scheduler="serial", store=path, class_seconds=60)
    std, member = r.row("0.137"), r.row("0.07")
    assert (std.status, std.infinite_from, std.heaps, std.order, std.p_count) == ("infinite", 33, 32, 638, 109)
    assert (member.status, member.infinite_from, member.heaps, member.result) == (
        "infinite", 34, 33, "infinite from 34")
    assert [list(s) for s in std.growth] == DAWSON_GROWTH
    assert member.growth[1] == (2, 2) and member.certificate == std.certificate
    cert = std.certificate["infinite"]  # made again from the re-verified proof (the same claims)
    assert {k: cert[k] for k in ("kind", "game", "infinite_from", "heaps_covered", "last_finite")} == {
        k: doc[k] for k in ("kind", "game", "infinite_from", "heaps_covered", "last_finite")}
    c = r.counts()
    assert c["infinite"] == {"codes": 2, "classes": 1, "from": {"0.137": 33}}
    assert "1 infinite (2 codes) [0.137 from 33]" in r.summary() and "infinite from 34" in str(r)
    rec = r.records["0.137"]
    assert rec["status"] == "infinite" and rec["certificate"] == cert and "stopped" not in rec
    # a function of the class only: the final property, re-checked and reused by a rerun
    with open_store(path) as st:
        props = st.get_positions_many(CENSUS_RULESET, ["0.137"])["0.137"]
        assert list(props) == [FINAL_PROP]
        docs = dict(stored_row_certificates(st))
    assert docs["0.137-quotient"]["certificate"] == {"infinite": cert}
    again = quotient_census(codes=["0.137", "0.07"], scheduler="serial", store=path, class_seconds=60)
    assert (again.computed, again.skipped, again.rechecks) == (0, 1, {})
    assert _plain(again) == _plain(r)
    # the CSV keeps the status and the heap v
    r.to_csv(tmp_path / "inf.csv")
    got = {row["code"]: row for row in read_quotient_table(str(tmp_path / "inf.csv"))}
    assert (got["0.07"]["status"], got["0.07"]["infinite_from"], got["0.07"]["heaps"]) == ("infinite", 34, 33)
    assert r.diff(str(tmp_path / "inf.csv")) == []
    # a tampered record fails its re-check (the heap v, then the certificate's witness) and is replaced
    for edit, why in ((dict(rec, infinite_from=34), "infinite from heap 34"),
                      (dict(rec, certificate=dict(cert, witness=dict(cert["witness"], t=3))), "witness")):
        with open_store(path) as st:
            st.put_positions_many([(CENSUS_RULESET, "0.137", FINAL_PROP,
                                    {k: v for k, v in edit.items() if k not in ("seconds", "worker")})], replace=True)
        with pytest.warns(RuntimeWarning, match="failed their re-check"):
            fixed = quotient_census(codes=["0.137"], scheduler="serial", store=path, class_seconds=60)
        assert why in fixed.rechecks["0.137"]["quotient"], fixed.rechecks
        assert fixed.row("0.137").infinite_from == 33 and fixed.row("0.137").certificate == {"infinite": cert}


def test_infinite_and_bounded_rows_in_the_table(tmp_path):
    """Rows from class records (no computation): an infinite class and an unsettled one with a
    proved lower bound, through CSV, the counts, the HTML page and the diff; a CSV without the
    new columns still reads."""
    from cgtalg.census.quotient_table import QUOTIENT_CSV_COLUMNS, QuotientCensusResult, quotient_row
    from cgtalg.census.quotients import QuotientParams

    doc = json.loads(Q33.read_text())
    infinite = {"status": "infinite", "heaps": 32, "infinite_from": 33, "order": 638, "p_count": 109,
                "presentation": None, "p_portion": None, "generator_heaps": None, "growth": DAWSON_GROWTH,
                "certificate": doc}
    bounded = {"status": "unsettled", "heaps": 9, "order": 12, "p_count": 3, "presentation": None,
               "p_portion": None, "generator_heaps": None, "growth": [[0, 1], [1, 2], [2, 6], [5, 10], [9, 12]],
               "stopped": "time", "budget": {"seconds": 20, "max_order": 5000},
               "next_bound": {"heap": 10, "at_least": 152, "copies": 69}}
    rows = [quotient_row("0.07", 1, ["0.137", "0.07"], "0.137", infinite),
            quotient_row("0.137", 0, ["0.137", "0.07"], "0.137", infinite),
            quotient_row("0.774", 0, ["0.774"], "0.774", bounded)]
    r = QuotientCensusResult(rows=rows, records={"0.137": infinite, "0.774": bounded}, params=QuotientParams())
    b = r.row("0.774")
    assert (b.result, b.bound_heap, b.lower_bound, b.bound_copies, b.certificate) == (
        "unsettled at 9", 10, 152, 69, None)
    assert r.counts()["unsettled"]["with_bound"] == 1
    assert QUOTIENT_CSV_COLUMNS.index("infinite_from") == QUOTIENT_CSV_COLUMNS.index("status") + 1
    assert QUOTIENT_CSV_COLUMNS.index("bound_heap") == QUOTIENT_CSV_COLUMNS.index("stopped") + 1
    r.to_csv(tmp_path / "t.csv")
    got = {row["code"]: row for row in read_quotient_table(str(tmp_path / "t.csv"))}
    assert {k: got["0.07"][k] for k in ("status", "infinite_from", "heaps", "order")} == {
        "status": "infinite", "infinite_from": 34, "heaps": 33, "order": 638}
    assert (got["0.774"]["bound_heap"], got["0.774"]["lower_bound"]) == (10, 152)
    (tmp_path / "t.json").write_text(json.dumps(r.to_json()))
    assert r.diff(str(tmp_path / "t.csv")) == [] and r.diff(str(tmp_path / "t.json")) == []
    assert r.to_json()["rows"][0]["certificate"] == {"infinite": doc}
    page = r.to_html(tmp_path / "t.html")
    assert 'class="infinite"' in page and "0.137 from 33" in page and "|Q_10| ≥ 152" in page
    # what contradicts the proof or the bound, and what more budget may settle
    claims = ["code,status,order,heaps,infinite_from,growth", "0.137,wild-finite,638,,,",
              "0.07,infinite,638,34,35,", "0.774,unsettled,100,12,,0:1 1:2 2:6 5:10 9:12 10:100"]
    diffs = {(d.code, d.field): d for d in r.diff(claims)}
    assert diffs[("0.137", "status")].conclusive and diffs[("0.07", "infinite_from")].conclusive
    assert diffs[("0.774", "lower_bound")].conclusive and diffs[("0.774", "lower_bound")].first_heap == 10
    assert not r.diff(["code,status,heaps,order", "0.137,unsettled,20,144"])[0].conclusive
    assert r.diff(["code,status,heaps,order", "0.137,unsettled,40,638"])[0].conclusive  # Q_40 finite?
    # an older table (without the new columns, the result text only) still reads
    old = read_quotient_table(["code,standard_form,shift,status,order,heaps,stopped",
                               "0.6,0.37,1,unsettled,304,17,time"])
    assert old[0]["status"] == "unsettled" and "infinite_from" not in old[0]
    assert read_quotient_table(["code,result", "0.07,infinite from 34"])[0]["infinite_from"] == 34
