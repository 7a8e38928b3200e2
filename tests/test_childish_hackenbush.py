"""Childish Hackenbush (Winning Ways ch. 2): a blue or red edge may be deleted only when nothing
falls; green edges are cut freely (CGSuite's rule, ``game.graph.ChildishHackenbush``); with
``strict`` the no-fall rule holds for green edges too.

Checked against play from the rules written here, independently of the ruleset: the outcome of
random small pictures and of sums of two of them (a disjoint union on one ground) by exhaustive
play, and blue-red stalks by their recursion (only the top edge of a stalk can go, so a stalk
is ``{rest|}`` when its top edge is blue and ``{|rest}`` when red).
"""

from __future__ import annotations

import functools
import random

import pytest

import cgtalg as cg
from cgtalg.rulesets.partizan.hackenbush_graph import ChildishHackenbush, HackenbushGraph
from cgtalg.rulesets.partizan.games import partizan_form


def _grounded(edges):
    reach, todo = {0}, [0]
    while todo:
        v = todo.pop()
        for u, w, _ in edges:
            for a, b in ((u, w), (w, u)):
                if a == v and b not in reach:
                    reach.add(b)
                    todo.append(b)
    return [e for e in edges if e[0] in reach or e[1] in reach]


def _moves(edges, colours, strict):
    edges = _grounded(list(edges))
    for i, (_, _, c) in enumerate(edges):
        rest = edges[:i] + edges[i + 1:]
        if c in colours and ((c == "G" and not strict) or len(_grounded(rest)) == len(rest)):
            yield tuple(sorted(_grounded(rest)))


@functools.lru_cache(maxsize=None)
def _wins(edges, left_to_move, strict):
    """Whether the player to move wins, by exhaustive play from the rules."""
    mine = "LG" if left_to_move else "RG"
    return any(not _wins(child, not left_to_move, strict) for child in _moves(edges, mine, strict))


def _outcome(edges, strict):
    edges = tuple(sorted(edges))
    left_first, right_first = _wins(edges, True, strict), _wins(edges, False, strict)
    return {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}[
        (left_first, right_first)]


def _random_picture(rng, n_edges, n_vertices, colours="LRG"):
    edges = []
    for _ in range(n_edges):
        u, v = rng.randrange(n_vertices), rng.randrange(n_vertices)
        edges.append((min(u, v), max(u, v), rng.choice(colours)))
    return tuple(sorted(edges))


def _text(edges):
    return " ".join(f"{'g' if u == 0 else f'v{u}'}-{'g' if v == 0 else f'v{v}'}:{c}" for u, v, c in edges) or "0"


def _shift(edges, by):
    return tuple((u + by if u else 0, v + by if v else 0, c) for u, v, c in edges)


C = ChildishHackenbush(strict=True)   # the no-fall rule on every edge (the stalk tests below)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_outcomes_of_random_pictures_and_their_sums_by_play(seed, strict):
    C = ChildishHackenbush(strict=strict)
    rng = random.Random(seed)
    pictures = [_random_picture(rng, rng.randrange(1, 6), rng.randrange(2, 5)) for _ in range(12)]
    forms = [partizan_form(C, C.parse_position(_text(p))) for p in pictures]
    for p, f in zip(pictures, forms):
        assert cg.outcome(f) == _outcome(p, strict), _text(p)
    for i in range(0, len(pictures) - 1, 2):
        a, b = pictures[i], _shift(pictures[i + 1], 10)
        assert cg.outcome(forms[i] + forms[i + 1]) == _outcome(a + b, strict), (_text(a), _text(b))
        # the two pictures drawn on one ground are one position of the ruleset, the same sum
        assert partizan_form(C, C.parse_position(_text(a + b))) is cg.canonical_form(forms[i] + forms[i + 1])


def _stalk_value(colours):
    """A stalk, colours from the ground up: only its top edge can be deleted."""
    if not colours:
        return cg.integer(0)
    rest = _stalk_value(colours[:-1])
    top = colours[-1]
    g = cg.pgame([rest], []) if top == "L" else cg.pgame([], [rest]) if top == "R" else cg.pgame([rest], [rest])
    return cg.canonical_form(g)


@pytest.mark.parametrize("n", range(1, 6))
def test_stalks_by_their_recursion(n):
    import itertools

    for cols in map("".join, itertools.product("LRG", repeat=n)):
        assert partizan_form(C, C.parse_position(f"stalk:{cols}")) is _stalk_value(cols), cols


def test_values_that_differ_from_hackenbush():
    """Blue below red: in Hackenbush 1:-1 = 1/2, in Childish Hackenbush Left cannot cut the
    blue edge under the red one, so {|1} = 0; two blues under a red, {|2} = 0, not b - r = 1;
    with the strict rule a green stalk of two edges is {*|*} = 0, not *2 (no colon principle);
    with CGSuite's rule green edges are cut freely and it is *2."""
    assert str(partizan_form(ChildishHackenbush(), ChildishHackenbush().parse_position("stalk:GG"))) == "*2"
    h = HackenbushGraph()
    for text, childish, plain in (("stalk:LR", "0", "1/2"), ("stalk:LLR", "0", "3/2"),
                                  ("stalk:GG", "0", "*2"), ("stalk:LL", "2", "2")):
        assert str(partizan_form(C, C.parse_position(text))) == childish, text
        assert str(partizan_form(h, h.parse_position(text))) == plain, text
    v = partizan_form(C, C.parse_position("g-a:L a-b:L a-c:R"))  # stem with a blue and a red leaf
    assert str(v) == "1"  # {0|2}: Left leaves blue-red (0), Right leaves two blues (2)


def test_registered_and_answered_by_the_doors():
    p = cg.position("childish-hackenbush", "stalk:LRL")
    assert str(cg.canonical_form(p)) == "1"
    assert cg.outcome(p) == "L"


@pytest.mark.parametrize("text, expected", [
    ("l(l;rl)", "2"),
    (":{ground}llllllrrrr:{ground}", "{4|-2}"),
    ("r(l:T;r(l:T;r(l:T;r(l:T;rl:T))))", "15/16"),
    ("(e:B;e:Bllllllrrr:B)", "{0|^[4]*||vv}"),
])
def test_cgsuite_values(text, expected):
    """CGSuite's own values (lib/core/src/test/scala/org/cgsuite/lang/GameGraphTest.scala, "define
    Childish Hackenbush properly": all five of its cases, pictures in its graph notation, read
    here as ``cgsuite:TEXT``), which need its rule: green edges of the lollipops are cut freely."""
    c = ChildishHackenbush()
    assert str(partizan_form(c, c.parse_position("cgsuite:" + text))) == expected


def test_cgsuite_lollipop_atomic_weight():
    """GameGraphTest.scala, "Childish Hackenbush lollipop 2": atomic weight 3/2."""
    c = ChildishHackenbush()
    g = partizan_form(c, c.parse_position("cgsuite:(e:B;e:B;e:Blllllllllrr:B)"))
    assert str(cg.atomic_weight(g)) == "3/2"
    strict = ChildishHackenbush(strict=True)     # the other rule gives another game
    assert partizan_form(strict, strict.parse_position("cgsuite:(e:B;e:B;e:Blllllllllrr:B)")) is not g


def test_cgsuite_graph_notation_reads_as_the_edge_list():
    h = HackenbushGraph()
    assert h.parse_position("cgsuite:l(l;rl)") == h.parse_position("g-a:L a-b:L a-c:R c-d:L")


def test_a_store_of_the_former_rule_serves_only_the_strict_ruleset(tmp_path):
    """Values stored by cgtalg 0.2 under "childish-hackenbush" are the strict rule's (green
    edges too may not drop anything): the strict ruleset keeps that store key, CGSuite's rule
    has its own, so an old store never answers for the other rule (stalk:GG: 0 strict, *2 now)."""
    from cgtalg.rulesets.partizan.forms import partizan_store_key, partizan_value
    from cgtalg.store import open_store

    strict, cgsuite = ChildishHackenbush(strict=True), ChildishHackenbush()
    assert partizan_store_key(strict, strict.parse_position("stalk:GG"))[0] == "partizan:childish-hackenbush"
    with open_store(str(tmp_path / "s.sqlite")) as store:
        assert str(partizan_value(strict, strict.parse_position("stalk:GG"), store=store)) == "0"
        assert str(partizan_value(cgsuite, cgsuite.parse_position("stalk:GG"), store=store)) == "*2"
        assert partizan_store_key(cgsuite, cgsuite.parse_position("stalk:GG"))[0] != \
            partizan_store_key(strict, strict.parse_position("stalk:GG"))[0]
    # store verify recomputes each row with the rule that wrote it: both rows agree
    import json

    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    run = CliRunner().invoke(cli, ["--store", str(tmp_path / "s.sqlite"), "store", "verify", "--full", "--json"])
    report = json.loads(run.output)
    assert run.exit_code == 0, run.output
    assert report["ok"] and report["checked"]["position_values_recomputed"] == 2 and not report["skipped"]
