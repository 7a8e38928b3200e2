"""Guy's parity subtraction game (seed /work/shared/seeds/003_*.txt: R. K. Guy, "A Parity
Subtraction Game", written for Crux Mathematicorum with Mathematical Mayhem).

Every statement of the seed's solution is a test case: the P-positions 8k+1(e,e) and
8k+5(d,d); the listed N-positions; 8k+4(d,e)/(e,d) won by d and 8k(d,e)/(e,d) won by e
whoever starts; the opening claim (8k+1 beans: second player wins; 8k+3, 8k+5, 8k+7:
first player); the moves of the proof; the properties of Figure 1 (the only winning moves,
one arrow out of every N-position, period 8, "copy the strategy from 8 beans back"). The
solver is also checked against a brute-force recursion on the unreduced game written here
from the rules (so the mod-2 reduction is checked too).
"""

from __future__ import annotations

import struct
from functools import lru_cache

import pytest
from click.testing import CliRunner

from cgtalg.cli.main import cli, main
from cgtalg.errors import RulesetError
from cgtalg.rulesets.parity import (
    GUY_COLUMNS,
    ParityGame,
    RelativeParityGame,
    detect_parity_period,
    format_class_table,
    guy_notation,
    guy_state,
    parity_class,
    parity_class_table,
)
from cgtalg.rulesets.solver import Solver, build_dag, solve, solved_dag

MAX_B = 1000


def guy_theorem(b: int, f: str, s: str) -> str:
    """The seed's solution, transcribed: 'P' or 'N' for b(f, s) (b + f + s odd)."""
    r = b % 8
    p_positions = {(1, "e", "e"), (5, "d", "d"), (4, "e", "d"), (0, "d", "e")}
    n_positions = {
        (7, "d", "d"), (7, "e", "e"), (6, "d", "e"), (6, "e", "d"), (5, "e", "e"), (3, "e", "e"),
        (3, "d", "d"), (2, "d", "e"), (2, "e", "d"), (1, "d", "d"), (4, "d", "e"), (0, "e", "d"),
    }
    assert not p_positions & n_positions
    if (r, f, s) in p_positions:
        return "P"
    if (r, f, s) in n_positions:
        return "N"
    raise AssertionError(f"the seed's solution lists no class for {b}({f},{s})")


@pytest.fixture(scope="module")
def table():
    return parity_class_table(MAX_B)


def test_full_solution_up_to_1000(table):
    """Seed 003, 'Solution' items 1-3: every class b(f,s) with b + f + s odd, b <= 1000."""
    assert len(table) == MAX_B + 1
    checked = 0
    for b, row in enumerate(table):
        for (f, s), cls in zip(GUY_COLUMNS, row):
            valid = (b + (f == "d") + (s == "d")) % 2 == 1
            if not valid:
                assert cls is None
                continue
            assert cls == guy_theorem(b, f, s), f"{b}({f},{s})"
            checked += 1
    assert checked == 2 * (MAX_B + 1)


def test_listed_p_and_n_positions_explicitly(table):
    col = {c: i for i, c in enumerate(GUY_COLUMNS)}
    for k in range(MAX_B // 8):
        # item 1: the P-positions
        assert table[8 * k + 1][col[("e", "e")]] == "P"
        assert table[8 * k + 5][col[("d", "d")]] == "P"
        # item 2: the N-positions
        for b, f, s in ((7, "d", "d"), (7, "e", "e"), (6, "d", "e"), (6, "e", "d"), (5, "e", "e"),
                        (3, "e", "e"), (3, "d", "d"), (2, "d", "e"), (2, "e", "d"), (1, "d", "d")):
            assert table[8 * k + b][col[(f, s)]] == "N", f"{8 * k + b}({f},{s})"
        # item 3: 8k+4(d,e) N and 8k+4(e,d) P; 8k(e,d) N and 8k(d,e) P
        assert table[8 * k + 4][col[("d", "e")]] == "N" and table[8 * k + 4][col[("e", "d")]] == "P"
        assert table[8 * k][col[("e", "d")]] == "N" and table[8 * k][col[("d", "e")]] == "P"


def test_whoever_starts_statements():
    """8k+4 (d,e)/(e,d): a win for d whoever starts; 8k (d,e)/(e,d): a win for e whoever starts."""
    parity = Solver(ParityGame())
    for k in range(MAX_B // 8):
        # Left holds d, Right e
        assert parity.outcome((8 * k + 4, 1, 0)) == "L"
        assert parity.outcome((8 * k + 4, 0, 1)) == "R"
        # Left holds e, Right d
        assert parity.outcome((8 * k, 0, 1)) == "L"
        assert parity.outcome((8 * k, 1, 0)) == "R"
        # the P-positions are second-player wins from both sides
        assert parity.outcome((8 * k + 1, 0, 0)) == "P"
        assert parity.outcome((8 * k + 5, 1, 1)) == "P"
    assert solve(ParityGame(), (12, 1, 0)).outcome == "L"  # the plain function agrees


def test_opening_claim():
    """'For heaps of 8k+3, 8k+5 or 8k+7 beans the first player wins; for 8k+1 the second.'"""
    parity = ParityGame()
    sv = Solver(parity)
    for b in range(1, MAX_B + 1, 2):
        expected = "P" if b % 8 == 1 else "N"
        assert sv.outcome(parity.start(b)) == expected, b


def test_twenty_five_beans_is_second_player_win():
    """The olympiad problem: 25 beans, the second player has a sure win."""
    parity = ParityGame()
    s = solve(parity, parity.start(25))
    assert s.outcome == "P" and s.winners == {"L": "R", "R": "L"}
    assert s.winning_moves == {"L": [], "R": []}
    # the second player's replies lead to Guy's P-classes: 21(d,d), 20(e,d), 21(d,d)
    replies = dict((q, rs) for q, rs in s.replies["L"])
    assert replies == {(24, 1, 0): [(21, 1, 1)], (23, 0, 0): [(20, 0, 1)], (22, 1, 0): [(21, 1, 1)]}
    for q, rs in replies.items():
        for r in rs:
            assert guy_theorem(*_guy_letters(r, "L")) == "P"
    text = str(s).splitlines()
    assert text[0] == "P: the second player wins."
    assert text[1] == "Position: 25(e,e)"
    assert "  the first player takes 1 -> 24(e,d)  =>  the second player takes 3 -> 21(d,d)" in text
    assert "  the first player takes 2 -> 23(e,e)  =>  the second player takes 3 -> 20(e,d)" in text
    assert "  the first player takes 3 -> 22(e,d)  =>  the second player takes 1 -> 21(d,d)" in text


def _guy_letters(pos, to_move):
    b, l, r = pos
    f, s = (l, r) if to_move == "L" else (r, l)
    return b, "ed"[f % 2], "ed"[s % 2]


def test_moves_of_the_proof():
    """The winning moves quoted in the seed's proof (k = 0, 1 and the start of the induction)."""
    rel = RelativeParityGame()
    quoted = [
        ("1(d,d)", "0(d,e)"), ("2(d,e)", "1(e,e)"), ("2(e,d)", "0(d,e)"), ("3(d,d)", "0(d,e)"),
        ("3(e,e)", "1(e,e)"), ("4(d,e)", "1(e,e)"), ("5(e,e)", "4(e,d)"), ("6(d,e)", "4(e,d)"),
        ("6(e,d)", "5(d,d)"), ("7(e,e)", "4(e,d)"), ("7(d,d)", "5(d,d)"), ("8(e,d)", "5(d,d)"),
        ("9(d,d)", "8(d,e)"), ("10(d,e)", "9(e,e)"), ("10(e,d)", "8(d,e)"), ("11(d,d)", "8(d,e)"),
        ("11(e,e)", "9(e,e)"),
    ]
    for src, dst in quoted:
        s = solve(rel, rel.parse_position(src))
        assert s.outcome == "N"
        # Figure 1's arrows are "the only winning moves"
        assert [rel.format_position(q) for q in s.winning_moves["L"]] == [dst], src
    # "from 5(d,d) the next player must go to 4(d,e), 3(d,d) or 2(d,e), which are next-player wins"
    s = solve(rel, rel.parse_position("5(d,d)"))
    assert s.outcome == "P"
    assert [rel.format_position(q) for q, _ in s.replies["L"]] == ["4(d,e)", "3(d,d)", "2(d,e)"]
    # "from 8(d,e), d must play to 7(e,e), 6(e,d) or 5(e,e) and the next player then wins by
    # going to 4(e,d), 5(d,d) or 4(e,d)"
    s = solve(rel, rel.parse_position("8(d,e)"))
    assert [(rel.format_position(q), [rel.format_position(r) for r in rs]) for q, rs in s.replies["L"]] == [
        ("7(e,e)", ["4(e,d)"]), ("6(e,d)", ["5(d,d)"]), ("5(e,e)", ["4(e,d)"])]
    # "9(e,e) is a P-position, the second player able to go to 5(d,d) if the first player takes
    # 1 or 3, or to 4(e,d) if the first player takes 2"
    s = solve(rel, rel.parse_position("9(e,e)"))
    assert [[rel.format_position(r) for r in rs] for _, rs in s.replies["L"]] == [["5(d,d)"], ["4(e,d)"], ["5(d,d)"]]


def test_figure_one_structure():
    """Figure 1: an arrow from every N-position to a P-position, the only winning move; the
    three moves from a P-position and the two other moves of an N-position all go to N."""
    from cgtalg.viz.game_tree import parity_figure_graph

    g = parity_figure_graph(200)
    assert g.number_of_nodes() == 2 * 201
    for node, data in g.nodes(data=True):
        b = node[0]
        out = list(g.out_edges(node, data=True))
        assert len(out) == min(b, 3)
        wins = [v for _, v, d in out if d["winning"]]
        assert data["outcome"] == guy_theorem(b, "ed"[node[1]], "ed"[node[2]])
        if data["outcome"] == "N" and b > 0:
            assert len(wins) == 1 and g.nodes[wins[0]]["outcome"] == "P"
        else:
            assert wins == []
            assert all(g.nodes[v]["outcome"] == "N" for _, v, _ in out)


def test_strategy_copies_from_eight_back():
    """'From here on, copy the strategy from 8 beans back' (b >= 11), up to b = 1000."""
    rel = RelativeParityGame()
    sv = Solver(rel)
    take = {}
    for b in range(MAX_B + 1):
        for f in (0, 1):
            for s in (0, 1):
                if (b + f + s) % 2:
                    sol = solve(rel, (b, f, s), solver=sv)
                    take[(b, f, s)] = sorted(b - q[0] for q in sol.winning_moves["L"])
    for (b, f, s), t in take.items():
        if b >= 11:
            assert t == take[(b - 8, f, s)], (b, f, s)
    # and it does not already hold for 8, 9, 10 (8(e,d) takes 3; 0(e,d) has no move)
    assert take[(8, 0, 1)] == [3] and take[(0, 0, 1)] == []


def test_period_detected_on_class_table(table):
    per = detect_parity_period(200)
    assert (per.period, per.preperiod, per.saltus, per.certified) == (8, 0, 0, False)
    assert "period 8, preperiod 0" in str(per) and "not certified" in str(per)
    from cgtalg.rulesets.heaps.periodicity import find_period

    full = find_period(table)
    assert (full.period, full.preperiod) == (8, 0)
    assert full.extrapolate(10**9 + 1) == table[1]


def test_relative_and_absolute_agree():
    rel = Solver(RelativeParityGame())
    parity = Solver(ParityGame())
    for b in range(MAX_B + 1):
        for f in (0, 1):
            for s in (0, 1):
                if (b + f + s) % 2:
                    r = rel.outcome((b, f, s))
                    assert r in ("P", "N")
                    pos_l, _ = guy_state(b, f, s, "L")
                    pos_r, _ = guy_state(b, f, s, "R")
                    wl = parity.winner(pos_l, "L")
                    wr = parity.winner(pos_r, "R")
                    assert (wl == "L") == (wr == "R") == (r == "N")
                    assert guy_notation(pos_l, "L") == guy_notation(pos_r, "R") == rel.ruleset.format_position((b, f, s))


# -- brute force on the unreduced game, from the rules ------------------------------------


def brute_next_wins(subtraction):
    """next player (holding `mine`) wins b(mine, theirs)? Plain recursion on actual holdings."""

    @lru_cache(maxsize=None)
    def wins(b, mine, theirs):
        if b == 0:
            return mine % 2 == 0
        return any(not wins(b - t, theirs, mine + t) for t in subtraction if t <= b)

    return wins


@pytest.mark.parametrize("subtraction", [(1, 2, 3), (1, 2), (1, 3), (1, 2, 4), (1, 3, 4), (1, 2, 3, 4, 5)])
def test_solver_matches_brute_force_unreduced(subtraction):
    wins = brute_next_wins(subtraction)
    reduced = ParityGame(subtraction)
    full = ParityGame(subtraction, reduce=False)
    sv_reduced, sv_full = Solver(reduced), Solver(full)
    for b in range(0, 26):
        for l in range(0, 7):
            for r in range(0, 7):
                if (b + l + r) % 2 == 0:
                    continue
                expect_l = "L" if wins(b, l, r) else "R"  # Left to move holds l
                expect_r = "R" if wins(b, r, l) else "L"
                got_full = {p: sv_full.winner((b, l, r), p) for p in "LR"}
                got_reduced = {p: sv_reduced.winner((b, l % 2, r % 2), p) for p in "LR"}
                assert got_full == got_reduced == {"L": expect_l, "R": expect_r}, (subtraction, b, l, r)
    assert solve(full, (9, 2, 2)).winners == solve(reduced, (9, 0, 0)).winners


def test_unreduced_strategy_text_uses_numbers():
    s = solve(ParityGame(reduce=False), (10, 3, 4))
    assert s.outcome == "N"
    assert "takes 1 -> 9(4,4)" in str(s) and "takes 2 -> 8(3,6)" in str(s)


def test_build_dag_of_parity():
    g = build_dag(ParityGame(), (25, 0, 0))
    # positions (b, l, r) with holdings mod 2 and b + l + r odd: 2 per b below 25, plus the root
    assert g.number_of_nodes() == 2 * 25 + 1
    assert {d["mover"] for *_, d in g.edges(data=True)} == {"L", "R", "LR"}  # taking 2 keeps parities
    sd = solved_dag(ParityGame(), (25, 0, 0))
    assert sd.nodes[(25, 0, 0)]["outcome"] == "P"
    assert sd.nodes[(4, 1, 0)]["outcome"] == "L" and sd.nodes[(4, 0, 1)]["outcome"] == "R"


# -- errors and text ----------------------------------------------------------------------


def test_errors():
    parity = ParityGame()
    with pytest.raises(RulesetError) as e:
        parity.start(24)
    assert str(e.value) == (
        "parity-game position (24, 0, 0): the total number of beans b + l + r = 24 is even, so the "
        "parity rule would give no winner (Guy's game needs an odd total)"
    )
    with pytest.raises(RulesetError, match=r"with reduce=True the holdings are kept mod 2 \(0 or 1\)"):
        parity.left_moves((5, 2, 0))
    with pytest.raises(RulesetError, match="is a tuple \\(beans, left_holding, right_holding\\) of ints"):
        parity.left_moves(5)
    with pytest.raises(RulesetError, match="beans and holdings must be >= 0"):
        parity.check((-1, 0, 0))
    with pytest.raises(RulesetError, match=r"the subtraction set \{2, 3\} must contain 1"):
        ParityGame((2, 3))
    with pytest.raises(RulesetError, match="non-empty set of positive ints"):
        ParityGame((1, 0))
    with pytest.raises(RulesetError, match=r"bad parity-game position 'x': the number of beans 'x' is not an integer"):
        parity.parse_position("x")
    with pytest.raises(RulesetError, match=r"expected 'beans' or 'beans,left,right'"):
        parity.parse_position("1,2")
    with pytest.raises(RulesetError, match="b \\+ f \\+ s must be odd"):
        RelativeParityGame().parse_position("4(e,e)")
    with pytest.raises(RulesetError, match="expected Guy's notation like '9\\(e,e\\)'"):
        RelativeParityGame().parse_position("9ee")
    with pytest.raises(RulesetError, match="max_beans must be a non-negative int"):
        parity_class_table(-1)
    with pytest.raises(RulesetError, match="'e', 'd' or a non-negative int"):
        parity_class(5, "x", "e")
    with pytest.raises(RulesetError, match="is even"):
        parity_class(5, "e", "d")


def test_text_round_trips():
    parity = ParityGame()
    assert parity.parse_position("25") == (25, 0, 0)
    assert parity.parse_position("24,3,0") == (24, 1, 0)
    assert parity.parse_position(" 24 1 0 ") == (24, 1, 0)
    for pos in ((25, 0, 0), (24, 1, 0), (3, 1, 1)):
        assert parity.parse_position(parity.format_position(pos)) == pos
    rel = RelativeParityGame()
    assert rel.parse_position("9(e,e)") == (9, 0, 0) == rel.parse_position("9,0,0")
    assert rel.format_position((8, 1, 0)) == "8(d,e)"
    assert parity_class(25, "e", "e") == "P" and parity_class(25, 0, 0) == "P"
    text = format_class_table(parity_class_table(9))
    lines = text.splitlines()
    assert lines[0].split() == ["(e,e)", "(d,d)", "(d,e)", "(e,d)"]
    assert lines[1 + 9].split() == ["9", "P", "N", ".", "."]
    assert lines[1 + 4].split() == ["4", ".", ".", "N", "P"]


# -- drawing --------------------------------------------------------------------------------


def _png_size(path):
    with open(path, "rb") as fh:
        head = fh.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_draw_parity_figure(tmp_path):
    from cgtalg.viz.game_tree import draw_parity_figure, parity_figure_graph

    out = tmp_path / "fig1.png"
    assert draw_parity_figure(str(out), 11) == str(out)
    w, h = _png_size(out)
    assert w > 600 and h > 800
    g = parity_figure_graph(11)
    arrows = sorted((u, v) for u, v, d in g.edges(data=True) if d["winning"])
    assert len(arrows) == 17  # one per N-class with b >= 1 (0(e,d) is terminal)
    assert sum(1 for _, d in g.nodes(data=True) if d["outcome"] == "P") == 6


def test_draw_game_dag_inputs(tmp_path):
    import cgtalg as cg
    from cgtalg.viz.game_tree import draw_game_dag

    parity = ParityGame()
    for i, obj in enumerate((solve(parity, parity.start(9)), solved_dag(parity, (7, 0, 0)),
                             build_dag(parity, (5, 0, 0)), cg.parse("{*2, *} + *2"),
                             cg.parse("*3").to_networkx())):
        out = tmp_path / f"d{i}.png"
        draw_game_dag(obj, str(out), show_losing_moves=(i % 2 == 0))
        assert _png_size(out)[0] > 100
    with pytest.raises(RulesetError, match="the DAG has 51 nodes, more than max_nodes=10"):
        draw_game_dag(build_dag(parity, (25, 0, 0)), str(tmp_path / "x.png"), max_nodes=10)
    with pytest.raises(RulesetError, match="needs a networkx DiGraph, a Solution or a Game, got int"):
        draw_game_dag(5, str(tmp_path / "y.png"))


# -- CLI --------------------------------------------------------------------------------------


@pytest.fixture()
def runner(tmp_path, monkeypatch):
    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "store.sqlite"))
    return CliRunner()


def test_cli_solve_parity_25(runner):
    res = runner.invoke(cli, ["solve", "parity", "25"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == "P: the second player wins."
    assert "  the first player takes 1 -> 24(e,d)  =>  the second player takes 3 -> 21(d,d)" in lines


def test_cli_json_and_store(runner, tmp_path):
    import json

    res = runner.invoke(cli, ["solve", "parity", "25", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["solution"]["outcome"] == "P" and data["solution"]["kind"] == "four-outcome"
    assert data["solution"]["replies"]["L"][0] == {"move": "24,1,0", "replies": ["21,1,1"]}
    assert data["store"].endswith("store.sqlite")
    again = json.loads(runner.invoke(cli, ["solve", "parity", "25", "--json"]).output)
    assert again["solution"] == data["solution"]
    res = runner.invoke(cli, ["solve", "parity", "24", "1", "0", "--json", "--no-store"])
    # 24(e,d) with Left holding 1: 8k beans are won by the even holder (Right) whoever starts
    assert json.loads(res.output)["solution"]["outcome"] == "R" and "store" not in json.loads(res.output)


def test_cli_table_and_figure(runner, tmp_path):
    import json

    res = runner.invoke(cli, ["solve", "parity", "--table", "40"])
    assert res.exit_code == 0, res.output
    assert "Period of the table over b: period 8, preperiod 0" in res.output
    assert " 9    P      N      .      .  " in res.output
    data = json.loads(runner.invoke(cli, ["solve", "parity", "--table", "40", "--json"]).output)
    assert data["table"]["rows"][5] == ["N", "P", None, None]
    assert data["period"]["period"] == 8
    fig = tmp_path / "f.png"
    draw = tmp_path / "d.png"
    res = runner.invoke(cli, ["solve", "parity", "9", "--figure", str(fig), "--draw", str(draw)])
    assert res.exit_code == 0, res.output
    assert _png_size(fig)[0] > 100 and _png_size(draw)[0] > 100


def test_cli_errors(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "store.sqlite"))
    assert main(["solve", "parity", "24"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cgtalg: error: parity-game position (24, 0, 0): the total number of beans")
    assert main(["solve", "nosuchgame", "3"]) == 2
    assert "cgtalg: error: unknown ruleset 'nosuchgame'" in capsys.readouterr().err
    assert main(["solve", "parity-relative", "--table", "5"]) == 2
    assert "has no class table" in capsys.readouterr().err
    assert main(["solve", "parity"]) == 2
    assert "give a POSITION to solve" in capsys.readouterr().err


def test_cli_general_ruleset(runner):
    res = runner.invoke(cli, ["solve", "parity:1,2,4", "9"])
    assert res.exit_code == 0, res.output
    wins = brute_next_wins((1, 2, 4))
    assert res.output.startswith("P:" if not wins(9, 0, 0) else "N:")
    res = runner.invoke(cli, ["solve", "parity-relative", "9(e,e)"])
    assert res.exit_code == 0 and res.output.startswith("P: the second player wins.")


def test_unsolved_dag_of_end_rule_ruleset_is_not_guessed(tmp_path):
    from cgtalg.viz.game_tree import _annotate

    g = build_dag(RelativeParityGame(), (5, 0, 0))
    assert g.graph["end_rule"] is True
    assert {d["outcome"] for _, d in _annotate(g, False).nodes(data=True)} == {"?"}
    solved = solved_dag(RelativeParityGame(), (5, 0, 0))
    assert solved.nodes[(5, 0, 0)]["outcome"] == "N" and solved.nodes[(4, 0, 1)]["outcome"] == "P"
