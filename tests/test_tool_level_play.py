"""tools/level_play.py: exact outcomes of positions with copies of a new heap, from ``Q_{n−1}``.

Checked against a plain misère brute force written here from the octal digits (every heap
played out, the empty position an N-position), never against the tool's own printout."""

from __future__ import annotations

import itertools
import json
import sys

import pytest
from conftest import load_tool



def _tool():
    return load_tool("level_play")


def _digit_options(code: str, n: int) -> list[tuple[int, ...]]:
    """The options of one heap of ``n`` tokens, read from the octal digits."""
    out = []
    for k, ch in enumerate(code.split(".")[1], start=1):
        d, rest = int(ch), n - k
        if rest < 0:
            break
        if d & 1 and rest == 0:
            out.append(())
        if d & 2 and rest > 0:
            out.append((rest,))
        if d & 4:
            out.extend((a, rest - a) for a in range(1, rest // 2 + 1))
    return out


class _Brute:
    """Misère outcomes by playing every position out (no quotient)."""

    def __init__(self, code: str, top: int) -> None:
        self.opts = [_digit_options(code, h) for h in range(top + 1)]
        self.memo: dict[tuple[int, ...], bool] = {}

    def is_p(self, heaps) -> bool:
        x = tuple(sorted(h for h in heaps if h > 0))
        got = self.memo.get(x)
        if got is not None:
            return got
        moved, res = False, True
        for i, h in enumerate(x):
            if i and x[i - 1] == h:
                continue
            rest = x[:i] + x[i + 1:]
            for o in self.opts[h]:
                moved = True
                if self.is_p(rest + o):
                    res = False
                    break
            if not res:
                break
        res = res and moved              # no move: the player to move has won (misère)
        self.memo[x] = res
        return res


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
    brute = _Brute(code, n)
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
    brute = _Brute("0.177", 12)
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
