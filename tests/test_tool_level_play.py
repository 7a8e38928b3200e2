"""tools/level_play.py: exact outcomes of positions with copies of a new heap, from ``Q_{n−1}``.

Checked against a plain misère brute force from the octal digits (tests/brute_octal.py: every heap
played out, the empty position an N-position), never against the tool's own printout."""

from __future__ import annotations

import itertools
import json
import sys

import pytest
from brute_octal import MisereBrute
from conftest import load_tool



def _tool():
    return load_tool("level_play")


def _positions(n: int, tokens: int):
    """Every multiset of heaps ``1 .. n−1`` of at most ``tokens`` tokens."""
    def rec(top: int, left: int):
        yield ()
        for h in range(min(top, left), 0, -1):
            for rest in rec(h, left - h):
                yield (h,) + rest
    yield from rec(n - 1, tokens)


@pytest.mark.parametrize("code,n,tokens", [("0.177", 12, 14), ("0.1337", 9, 16), ("0.37", 8, 16)])
def test_level_play_agrees_with_brute_force(code, n, tokens):
    mod = _tool()
    lp = mod.level_play(code, n)
    brute = MisereBrute(code, n)
    seen = 0
    for x in _positions(n, tokens):
        for c in (0, 1, 2):
            assert lp.is_p(list(x), c) == brute.is_p(list(x) + [n] * c), (code, x, c)
            seen += 1
    assert seen > 300


def test_level_play_table_and_rule(tmp_path, capsys):
    mod = _tool()
    out = tmp_path / "t.json"
    # a rule that does not hold: exit status 1, the table written
    code = mod.main(["0.177", "--heap", "12", "--x", "3", "--y", "5", "--rows", "4", "--cols", "4",
                     "--rule", "a == b", "--json", str(out), "--time", "60s"])
    doc = json.loads(out.read_text())
    brute = MisereBrute("0.177", 12)
    want = [[int(brute.is_p([3] * a + [5] * b + [12])) for b in range(4)] for a in range(4)]
    assert doc["table"] == want
    rule_ok = all(bool(want[a][b]) == (a == b) for a, b in itertools.product(range(4), range(4)))
    assert doc["rule_holds"] is rule_ok and code == (0 if rule_ok else 1)
    assert "exact" in capsys.readouterr().out


def test_level_play_refuses_heaps_not_below_n():
    mod = _tool()
    with pytest.raises(SystemExit):
        mod.main(["0.177", "--heap", "12", "--x", "12", "--y", "5"])
    lp = mod.level_play("0.177", 6)
    with pytest.raises(ValueError):
        lp.is_p([6], 1)


def test_level_play_names_a_bad_code_or_budget(capsys):
    mod = _tool()
    assert mod.main(["0.8", "--heap", "10", "--x", "1", "--y", "2"]) == 2
    assert "octal" in capsys.readouterr().err
    assert mod.main(["0.177", "--heap", "10", "--x", "1", "--y", "2", "--time", "abc"]) == 2
    assert "duration" in capsys.readouterr().err


def test_level_play_stops_on_its_budget():
    mod = _tool()
    rc = mod.main(["0.177", "--heap", "26", "--x", "9", "--y", "15", "--rows", "30", "--cols", "30",
                   "--time", "0.5s"])
    assert rc == 2


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
