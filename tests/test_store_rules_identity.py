"""A stored answer belongs to the rules that made it (issue 32, item 2).

- Answers of a ruleset from a function are keyed by its name and a fingerprint of its moves
  (:attr:`cgtalg.rulesets.heaps.games.FunctionHeapRuleset.store_name`): a function ruleset named
  like a built-in (``0.77``, Kayles) never changes the built-in's stored answers, two functions
  with one name never share answers, and the same function (another object, another process)
  finds its own.
- Answers read from the store are checked against each other and the rules
  (:mod:`cgtalg.store.answers`): a contradiction is a ``StoreCorruptError`` naming the row, in
  Python and on the command line (exit status 2, one line, no traceback).

Expected values come from brute-force misère play written here from the rules of Kayles (0.77:
remove 1 or 2 tokens from a heap, leaving the rest as 0, 1 or 2 heaps; Winning Ways ch. 4) and
of Nim, and the misère P-heaps of Kayles 1, 4, 9, 12, 20 (Winning Ways ch. 13) as a check of
the brute force itself.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from functools import lru_cache

import pytest
from click.testing import CliRunner

import cgtalg as cg
import cgtalg.rulesets.heaps.misere_play as misere_play
from cgtalg.cli.main import cli, main
from cgtalg.errors import StoreCorruptError
from cgtalg.quotients.storage import quotient_key
from cgtalg.rulesets.heaps.games import GrundysGame, fingerprinted_name, heap_ruleset, subtraction
from cgtalg.rulesets.heaps.genus import store_key
from cgtalg.rulesets.heaps.misere_play import HeapPositionMoves, stored_winning_moves
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.store import open_light_store, open_store
from cgtalg.store.codec import value_hash
from cgtalg.store.provenance import current_version


# -- brute force from the rules -----------------------------------------------------------------
def kayles_options(n: int) -> list[tuple[int, ...]]:
    """Kayles (0.77): take 1 or 2 tokens; the rest stays as no heap, one heap or two heaps."""
    out = []
    for t in (1, 2):
        m = n - t
        if m < 0:
            continue
        out.append(tuple(p for p in (m,) if p))
        out += [(a, m - a) for a in range(1, m // 2 + 1)]
    return out


def nim_options(n: int) -> list[tuple[int, ...]]:
    return [(k,) for k in range(n)]


def position_moves(options, heaps: tuple[int, ...]):
    """Distinct moves ``(heap, removed, parts)`` and the positions they lead to."""
    seen = set()
    for i, h in enumerate(heaps):
        if h in seen:
            continue
        seen.add(h)
        rest = heaps[:i] + heaps[i + 1:]
        for parts in options(h):
            parts = tuple(sorted(p for p in parts if p))
            yield (h, h - sum(parts), parts), tuple(sorted(rest + parts))


def brute_misere(options):
    """Misère outcome by play: the player who cannot move wins, so a position with no move is
    N; otherwise P exactly when every move leads to an N-position."""

    @lru_cache(maxsize=None)
    def outcome(heaps: tuple[int, ...]) -> str:
        nexts = [q for _m, q in position_moves(options, heaps)]
        if not nexts:
            return "N"
        return "N" if any(outcome(q) == "P" for q in nexts) else "P"

    def winning(heaps):
        heaps = tuple(sorted(heaps))
        return sorted(m for m, q in position_moves(options, heaps) if outcome(q) == "P")

    return outcome, winning


KAYLES_OUTCOME, KAYLES_WINNING = brute_misere(kayles_options)
NIM_OUTCOME, NIM_WINNING = brute_misere(nim_options)


def test_brute_force_agrees_with_winning_ways():
    # Winning Ways ch. 13: the misère P-positions of single Kayles heaps below 25 are 1, 4, 9, 12, 20
    assert [n for n in range(25) if KAYLES_OUTCOME((n,) if n else ()) == "P"] == [1, 4, 9, 12, 20]
    # misère Nim (Bouton): P exactly when the nim-sum is 0, unless every heap is at most 1
    assert NIM_OUTCOME((5, 9, 12)) == "P" and NIM_OUTCOME((1, 1)) == "N" and NIM_OUTCOME((1,)) == "P"


# -- helpers ------------------------------------------------------------------------------------
def rows(path, ruleset: str) -> dict:
    with sqlite3.connect(path) as con:
        return {(p, n): v for p, n, v in con.execute(
            "SELECT p.position, pp.name, pp.value FROM positions p JOIN position_properties pp "
            "ON pp.position_id = p.id WHERE p.ruleset = ? ORDER BY 1, 2", (ruleset,))}


def tamper(path, ruleset: str, position: str, name: str, text: str) -> None:
    """Write ``text`` as the stored value of ``name`` (a current row), as a hand with sqlite3 would."""
    with sqlite3.connect(path) as con:
        pid = con.execute("SELECT id FROM positions WHERE ruleset = ? AND position = ?", (ruleset, position)).fetchone()[0]
        con.execute("INSERT INTO position_properties (position_id, name, value, value_hash, algorithm, made_by) "
                    "VALUES (?, ?, ?, ?, ?, 'tampered') ON CONFLICT (position_id, name) DO UPDATE SET "
                    "value = excluded.value, value_hash = excluded.value_hash",
                    (pid, name, text, value_hash(text), current_version(name)))


def cli_outcome(path, *heaps, game="0.77"):
    return CliRunner().invoke(cli, ["--store", str(path), "outcome", game, *map(str, heaps), "--misere", "--json"])


def run_main(capsys, args) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def store_path(tmp_path):
    path = tmp_path / "s.sqlite"
    open_store(path).close()
    return path


# -- 1. the scenario ----------------------------------------------------------------------
def test_function_ruleset_named_like_kayles_keeps_its_answers_apart(store_path):
    """A ruleset from a function named 0.77 with the moves of Nim stores its misère answers;
    `cgtalg outcome 0.77 5 9 12 --misere` still answers for Kayles: N with 4 winning moves."""
    nimlike = cg.heap_ruleset("0.77", nim_options)
    with open_store(store_path) as st:
        assert nimlike.outcome([5, 9, 12], misere=True, store=st) == NIM_OUTCOME((5, 9, 12)) == "P"
        assert nimlike.winning_moves([5, 9, 12], misere=True, store=st) == []
    assert rows(store_path, "misere:0.77") == {}           # the built-in's key holds nothing of it
    assert rows(store_path, store_key(nimlike))            # its own key does
    assert store_key(nimlike).startswith("misere:0.77#")

    expected = KAYLES_WINNING((5, 9, 12))                  # brute force from the rules of Kayles
    assert KAYLES_OUTCOME((5, 9, 12)) == "N" and len(expected) == 4
    for _ in range(2):                                     # computed, then the stored answer
        res = cli_outcome(store_path, 5, 9, 12)
        assert res.exit_code == 0, res.output
        data = json.loads(res.output)
        assert (data["outcome"], data["winning_move_count"]) == ("N", 4)
        got = sorted((m["heap"], m["removed"], tuple(sorted(m["parts"]))) for m in data["winning_moves"])
        assert got == expected
    assert data["method"] == "stored answer"
    human = CliRunner().invoke(cli, ["--store", str(store_path), "outcome", "0.77", "5", "9", "12", "--misere"])
    assert "N: the player to move wins; 4 winning move(s)" in human.output


def test_shadowing_names_never_touch_the_builtins_rows(store_path):
    """Names of built-ins (an octal code, a hexadecimal code, a subtraction game, a registered
    name) given to function rulesets: the built-in's misère rows, Grundy sequence and quotient
    stay exactly as they were."""
    kayles = TakeAndBreak("0.77")
    with open_store(store_path) as st:
        kayles.outcome([5, 9, 12], misere=True, store=st)
        kayles.grundy_sequence(30, store=st)
        before = (rows(store_path, "misere:0.77"), st.sequence("grundy:0.77").tolist())
        for name in ("0.77", "kayles", "4.07", "S(1,2)", "subtraction(1,2)", "grundy"):
            r = heap_ruleset(name, nim_options)
            assert fingerprinted_name(r.store_name) == (name, r.fingerprint)
            assert r.outcome([5, 9, 12], misere=True, store=st) == "P"
            assert r.grundy_sequence(12, store=st).tolist() == list(range(12))   # Nim: G(n) = n
            assert r.sequence_key == f"grundy:{r.store_name}" and quotient_key(r) == f"quotient:{r.store_name}"
        assert (rows(store_path, "misere:0.77"), st.sequence("grundy:0.77").tolist()) == before
        assert st.sequence_length("grundy:kayles") == 0 and rows(store_path, "misere:kayles") == {}


def test_builtin_keys_are_unchanged():
    """Built-ins keep the keys every existing store has (no migration)."""
    k = TakeAndBreak("0.77")
    assert (store_key(k), k.sequence_key, quotient_key(k)) == ("misere:0.77", "grundy:0.77", "quotient:0.77")
    assert (store_key(GrundysGame()), GrundysGame().sequence_key) == ("misere:grundy", "grundy:grundy")
    s = subtraction([1, 2])
    assert store_key(s) == f"misere:{s.name}" and quotient_key(s) == f"quotient:{s.name}"


def test_an_old_store_keeps_serving_its_builtin_rows(store_path):
    """Rows written under the built-in keys, as older versions wrote them, are read back."""
    moves = [[12, 2, [5, 5]], [9, 1, [4, 4]], [5, 1, [4]], [5, 1, [2, 2]]]
    with open_store(store_path) as st:
        st.put_position("misere:0.77", "12 9 5", "misere_outcome", "N")
        st.put_position("misere:0.77", "12 9 5", "misere_winning_moves", moves)
    res = cli_outcome(store_path, 5, 9, 12)
    assert res.exit_code == 0 and '"method": "stored answer"' in res.output and '"winning_move_count": 4' in res.output


# -- 2. two rulesets, one name; one ruleset, two objects or processes ---------------------------
def test_same_name_different_moves_do_not_share(store_path):
    a, b = heap_ruleset("g", nim_options), heap_ruleset("g", kayles_options)
    assert a.store_name != b.store_name
    with open_store(store_path) as st:
        assert a.outcome([5, 9, 12], misere=True, store=st) == NIM_OUTCOME((5, 9, 12)) == "P"
        assert b.outcome([5, 9, 12], misere=True, store=st) == KAYLES_OUTCOME((5, 9, 12)) == "N"
        got = sorted((m.heap, m.removed, tuple(sorted(m.parts))) for m in b.winning_moves([5, 9, 12], misere=True, store=st))
        assert got == KAYLES_WINNING((5, 9, 12))
        assert a.grundy_sequence(10, store=st).tolist() == list(range(10))
        assert b.grundy_sequence(10, store=st).tolist() == TakeAndBreak("0.77").grundy_sequence(10).tolist()
        assert st.sequence(a.sequence_key).tolist() == list(range(10))


def test_same_function_in_two_objects_shares(store_path, monkeypatch):
    first = heap_ruleset("nimish", nim_options)
    with open_store(store_path) as st:
        assert first.outcome([3, 5, 6], misere=True, store=st) == NIM_OUTCOME((3, 5, 6))
    again = heap_ruleset("nimish", lambda n: [(k,) for k in range(n)])   # another object, same moves
    assert again.store_name == first.store_name

    def no_search(*args, **kwargs):
        raise AssertionError("the answer should come from the store")

    monkeypatch.setattr(misere_play, "_solve", no_search)
    with open_store(store_path) as st:
        assert again.outcome([3, 5, 6], misere=True, store=st) == NIM_OUTCOME((3, 5, 6))


def test_same_function_in_another_process_shares(store_path):
    r = heap_ruleset("nimish", nim_options)
    with open_store(store_path) as st:
        r.outcome([3, 5, 6], misere=True, store=st)
    code = textwrap.dedent(f"""
        import cgtalg as cg, cgtalg.rulesets.heaps.misere_play as mp
        from cgtalg.store import open_store
        def no_search(*a, **k):
            raise SystemExit("searched")
        mp._solve = no_search
        r = cg.heap_ruleset("nimish", lambda n: [(k,) for k in range(n)])
        print(r.store_name, r.outcome([3, 5, 6], misere=True, store=open_store({str(store_path)!r})))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "CGTALG_STORE": str(store_path)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [r.store_name, NIM_OUTCOME((3, 5, 6))]


# -- 3. tampered rows ---------------------------------------------------------------------------------
@pytest.fixture
def kayles_rows(store_path):
    """The built-in Kayles' misère answers of 5 9 12 in a store (key misere:0.77, text '12 9 5')."""
    assert cli_outcome(store_path, 5, 9, 12).exit_code == 0
    assert set(rows(store_path, "misere:0.77")) == {("12 9 5", "misere_outcome"), ("12 9 5", "misere_winning_moves")}
    return store_path


def _assert_names_the_row(text: str) -> None:
    assert "table position_properties" in text and "position '12 9 5' of 'misere:0.77'" in text, text


@pytest.mark.parametrize("opener", [open_store, open_light_store])
def test_p_with_a_winning_move_is_refused(kayles_rows, opener, capsys):
    tamper(kayles_rows, "misere:0.77", "12 9 5", "misere_outcome", '"P"')
    with opener(kayles_rows) as st:
        with pytest.raises(StoreCorruptError, match="'misere_outcome' is 'P', but property 'misere_winning_moves' lists 4") as e:
            st.get_position("misere:0.77", "12 9 5", "misere_outcome")
    _assert_names_the_row(str(e.value))
    code, out, err = run_main(capsys, ["--store", str(kayles_rows), "outcome", "0.77", "5", "9", "12", "--misere"])
    assert code == 2 and out == "" and err.startswith("cgtalg: error: the store") and "Traceback" not in err
    _assert_names_the_row(err)


@pytest.mark.parametrize("opener", [open_store, open_light_store])
def test_n_with_no_winning_move_is_refused(kayles_rows, opener, capsys):
    tamper(kayles_rows, "misere:0.77", "12 9 5", "misere_winning_moves", "[]")
    kayles = TakeAndBreak("0.77")
    with opener(kayles_rows) as st:
        with pytest.raises(StoreCorruptError, match="lists no winning move and the position has moves") as e:
            stored_winning_moves(kayles, [5, 9, 12], st)
        _assert_names_the_row(str(e.value))
        with pytest.raises(StoreCorruptError):
            st.get_position("misere:0.77", "12 9 5", "misere_outcome", moves=HeapPositionMoves(kayles, [5, 9, 12]))
    code, out, err = run_main(capsys, ["--store", str(kayles_rows), "outcome", "0.77", "5", "9", "12", "--misere"])
    assert code == 2 and "Traceback" not in err
    _assert_names_the_row(err)


def test_grundy_5_with_outcome_p_is_refused(kayles_rows, capsys):
    tamper(kayles_rows, "misere:0.77", "12 9 5", "misere_outcome", '"P"')
    tamper(kayles_rows, "misere:0.77", "12 9 5", "misere_winning_moves", "[]")
    tamper(kayles_rows, "misere:0.77", "12 9 5", "misere_grundy", "5")
    with open_store(kayles_rows) as st, pytest.raises(StoreCorruptError, match="'misere_grundy' is 5"):
        st.get_position("misere:0.77", "12 9 5", "misere_outcome")
    with open_store(kayles_rows) as st:          # the bulk readers and queries run the same check
        for read in (lambda: st.position_properties("misere:0.77", "12 9 5"),
                     lambda: st.get_positions_many("misere:0.77", ["12 9 5"]),
                     lambda: st.query(ruleset="kayles", as_frame=False)):
            with pytest.raises(StoreCorruptError, match="'misere_grundy' is 5") as e:
                read()
            _assert_names_the_row(str(e.value))
    code, _out, err = run_main(capsys, ["--store", str(kayles_rows), "outcome", "0.77", "5", "9", "12", "--misere"])
    assert code == 2 and "'misere_grundy' is 5" in err and "Traceback" not in err
    _assert_names_the_row(err)


def test_a_stored_move_that_is_no_move_is_refused(kayles_rows, capsys):
    tamper(kayles_rows, "misere:0.77", "12 9 5", "misere_winning_moves", "[[12,3,[5,5]]]")   # Kayles takes 1 or 2
    code, _out, err = run_main(capsys, ["--store", str(kayles_rows), "outcome", "0.77", "5", "9", "12", "--misere"])
    assert code == 2 and "lists [12, 3, [5, 5]], which is not a move of the position" in err
    _assert_names_the_row(err)


def test_form_grundy_5_with_outcome_p_is_refused(store_path, capsys):
    """`cgtalg game` stores the properties of {*2} (Grundy 0, P); a hand makes its Grundy 5."""
    assert main(["--store", str(store_path), "game", "{*2}"]) == 0
    capsys.readouterr()
    g = cg.parse("{*2}")
    with open_store(store_path) as st:
        sid = st.form_id(g)
    with sqlite3.connect(store_path) as con:
        con.execute("UPDATE form_properties SET value = '5', value_hash = ? WHERE form_id = ? AND name = 'grundy'",
                    (value_hash("5"), sid))
    for opener in (open_store, open_light_store):
        with opener(store_path) as st, pytest.raises(StoreCorruptError, match=f"table form_properties, form {sid}: ") as e:
            st.get(g, "grundy")
        assert "'grundy' is 5" in str(e.value) and "'normal_outcome' is 'P'" in str(e.value)
    code, out, err = run_main(capsys, ["--store", str(store_path), "game", "{*2}"])
    assert code == 2 and out == "" and f"form {sid}" in err and "Traceback" not in err
    proc = subprocess.run([sys.executable, "-m", "cgtalg.cli.main", "--store", str(store_path), "game", "{*2}"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and f"form {sid}" in proc.stderr


def test_consistent_answers_without_a_winning_move_are_served(store_path):
    """A position with no move at all is a misère N-position with no winning move (the player
    to move has no move and wins): empty Kayles, and a Dawson's Kayles heap of 1 (0.07: only
    two adjacent pins can be taken)."""
    assert (KAYLES_OUTCOME(()), KAYLES_WINNING(())) == ("N", [])
    for game, heaps in (("0.77", [0]), ("0.07", [1]), ("0.07", [1, 1])):
        for _ in range(2):
            res = cli_outcome(store_path, *heaps, game=game)
            assert res.exit_code == 0 and '"outcome": "N"' in res.output and '"winning_move_count": 0' in res.output


def test_rulesets_from_functions_of_other_kinds_keep_their_solutions_apart(tmp_path):
    """``ruleset_from_function`` (any positions) and a user's own HeapRuleset subclass are
    keyed by what their rules are, never by the name alone: a function ruleset called
    ``parity`` or two different subtraction rules under one name do not share solutions
    (the outcomes asserted are the subtraction games' by brute force from the rules: with
    S = {1, 2} the P-positions are the multiples of 3; with S = {1} the even numbers)."""
    from cgtalg.rulesets.heaps.base import HeapRuleset
    from cgtalg.rulesets.protocol import ruleset_from_function
    from cgtalg.rulesets.solver import solve
    from cgtalg.store import open_store

    def moves_12(n):
        return [n - t for t in (1, 2) if t <= n]

    def moves_1(n):
        return [n - 1] if n else []

    def brute(n, takes):
        return "N" if any(brute(n - t, takes) == "P" for t in takes if t <= n) else "P"

    store = open_store(str(tmp_path / "s.sqlite"))
    fmt = dict(format_position=str, parse_position=int)
    a = ruleset_from_function("parity", moves_12, **fmt)
    b = ruleset_from_function("parity", moves_1, **fmt)
    assert a.store_name != b.store_name and a.store_name.startswith("parity#")
    assert ruleset_from_function("parity", moves_12, **fmt).store_name == a.store_name
    for n in range(8):
        assert solve(a, n, store=store).outcome == brute(n, (1, 2))
        assert solve(b, n, store=store).outcome == brute(n, (1,))

    class Nim(HeapRuleset):
        name = "0.77"   # named like Kayles, but Nim's moves

        def heap_options(self, n):
            return iter([(k,) if k else () for k in range(n)])

    assert Nim().store_name.startswith("0.77#") and Nim().sequence_key.startswith("grundy:0.77#")
