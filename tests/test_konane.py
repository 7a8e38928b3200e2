"""Konane (cgtalg.rulesets.partizan.konane): values against an independent brute force over the game
tree, against cgt-py's Konane (an independent implementation, when installed), and the
ruleset's text, errors, registration and CLI.

The brute force below writes its own move generator from the rules (Ernst, "Playing Konane
mathematically", UMAP Journal 16, 1995: a stone jumps orthogonally over an adjacent opponent
stone into the empty square beyond, capturing it, and may continue in the same direction)
and builds the literal game tree with no component splitting, no normalisation and no kernel.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from cgtalg.core.partizan import integer, pgame
from cgtalg.normal.notation import parse_partizan
from cgtalg.errors import RulesetError
from cgtalg.normal.partizan import canonical_form
from cgtalg.rulesets.partizan.konane import Konane
from cgtalg.rulesets.partizan.games import partizan_form
from cgtalg.rulesets.registry import get_ruleset


def _brute_moves(rows, me, them):
    h, w = len(rows), len(rows[0])
    out = []
    for r in range(h):
        for c in range(w):
            if rows[r][c] != me:
                continue
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                g = [list(x) for x in rows]
                rr, cc = r, c
                while (0 <= rr + 2 * dr < h and 0 <= cc + 2 * dc < w and g[rr + dr][cc + dc] == them
                       and g[rr + 2 * dr][cc + 2 * dc] == "."):
                    g[rr][cc] = "."
                    g[rr + dr][cc + dc] = "."
                    rr, cc = rr + 2 * dr, cc + 2 * dc
                    g[rr][cc] = me
                    out.append(tuple("".join(x) for x in g))
    return out


def _brute(rows, memo):
    if rows not in memo:
        memo[rows] = pgame([_brute(p, memo) for p in _brute_moves(rows, "x", "o")],
                           [_brute(p, memo) for p in _brute_moves(rows, "o", "x")])
    return memo[rows]


def _random_board(rng, h, w, chars="xo.."):
    return "|".join("".join(rng.choice(chars) for _ in range(w)) for _ in range(h))


def test_values_match_brute_force_on_random_boards():
    rng = random.Random(11)
    k = Konane()
    memo: dict = {}
    boards = [_random_board(rng, rng.randint(1, 3), rng.randint(2, 4)) for _ in range(60)]
    boards += [_random_board(rng, 1, n, "xo.") for n in range(3, 10) for _ in range(3)]
    for text in boards:
        pos = k.parse_position(text)
        expected = canonical_form(_brute(pos, memo))
        assert partizan_form(Konane(), pos, progress=False) is expected, text
        assert partizan_form(Konane(), pos, progress=False, engine="python") is expected, text


def test_walls_block_landing():
    k = Konane()
    assert partizan_form(k, k.parse_position("xo.")) is integer(1)
    assert partizan_form(k, k.parse_position("xo#")) is integer(0)
    # a wall in the middle of a row splits nothing by itself: x jumps o into the empty square
    assert partizan_form(k, k.parse_position("xo.#ox")) is pgame([0], [])


def test_hand_values_from_the_rules():
    # single-file examples worked by hand from the rules: xo. = {0 | } = 1; xoxo.. = {1 | } = 2
    # (Left's only first jump leads to xo..x., worth 1; Right has no jump); .xo = { | 0} = -1;
    # oox. = { | 0} = -1 (the x has an o, not an empty square, beyond its neighbour; the middle
    # o jumps it); xoo. = 0 (no stone has an opponent next to it with an empty square beyond)
    k = Konane()
    assert partizan_form(k, k.parse_position("xo.")) is integer(1)
    assert partizan_form(k, k.parse_position("xoxo..")) is integer(2)
    assert partizan_form(k, k.parse_position(".xo")) is integer(-1)
    assert partizan_form(k, k.parse_position("oox.")) is integer(-1)
    assert partizan_form(k, k.parse_position("xoo.")) is integer(0)


def test_components_are_independent():
    k = Konane()
    for text in ("xo.#.ox", "xo...|.....|...ox", "xox.#xo.|........|oxo..xox"):
        pos = k.parse_position(text)
        assert len(k.components(pos)) >= 2, text
        assert partizan_form(k, pos) is canonical_form(_brute(pos, {})), text
    # x can land next to the o on the right: one component, not two
    joined = k.parse_position("xo.ox")
    assert len(k.components(joined)) == 1


def test_normalize_keeps_the_landing_squares():
    k = Konane()
    # the images of one position under the grid's symmetries share one normal form, cut to the
    # squares a stone may reach (here the whole strip xo., whatever surrounds it behind a wall)
    forms = {k.normalize(k.parse_position(t)) for t in ("xo.#", ".ox", "#.ox", "x|o|.", ".|o|x", "xo.#|####")}
    assert len(forms) == 1
    assert partizan_form(k, forms.pop()) is integer(1)
    assert k.components(k.parse_position("x.o")) == []  # no stone can ever move: 0


def test_against_cgt_py():
    cgt_py = pytest.importorskip("cgt_py")
    rng = random.Random(12)
    boards = ["xoxo|oxox|xo..|ox..", "xoxoxo|oxoxox|xoxo..", "xox.|o.xo"]
    boards += [_random_board(rng, rng.randint(2, 4), rng.randint(2, 4), "xo.") for _ in range(25)]
    k = Konane()
    for text in boards:
        theirs = str(cgt_py.Konane(text).canonical_form)  # CanonicalForm('...')
        assert parse_partizan(theirs[len("CanonicalForm('"):-2]) is partizan_form(k, k.parse_position(text)), text


def test_parse_and_errors():
    k = get_ruleset("konane")
    assert isinstance(k, Konane)
    assert k.parse_position("xo.|o.x") == ("xo.", "o.x")
    assert k.parse_position("bw./w.b") == ("xo.", "o.x")
    assert k.format_position(("xo.", "o.x")) == "xo.|o.x"
    with pytest.raises(RulesetError, match=r"unexpected 'z' at position 2"):
        k.parse_position("xoz")
    with pytest.raises(RulesetError, match="different lengths"):
        k.parse_position("xo.|o")
    with pytest.raises(RulesetError, match="a position is a tuple"):
        k.check_position("xo.")


def test_cli_value(tmp_path, monkeypatch):
    from cgtalg.cli.main import cli

    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "store.sqlite"))
    out = CliRunner().invoke(cli, ["value", "konane", "xoxo..", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["canonical_form"] == "2" and data["outcome"] == "L"
