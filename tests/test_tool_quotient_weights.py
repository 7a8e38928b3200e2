"""tools/quotient_weights.py: the weights of the rules proved in the sixteenth session come first
(the fewest keys) among the fits read off a verified Q_40; the rules themselves are checked
against play in tests/test_referee_heap_rule_sets.py."""

from __future__ import annotations

import pytest
from conftest import load_tool


def _tool():
    return load_tool("quotient_weights")


@pytest.mark.parametrize("code, lo, hi, exact, residue", [
    ("0.337", 4, 5, [1, 0, 1], [4, 5, 4, 5]),
    ("4.52", 2, 5, [1, 2, 1], [2, 5, 2, 5]),
])
def test_the_proved_weights_make_the_coarsest_key(code, lo, hi, exact, residue):
    fits = _tool().weight_fits(code, 40, 4, lo, hi, samples=20000)
    assert list(fits[0][:2]) == [exact, residue]
    assert all(f[2] > fits[0][2] for f in fits[1:])


def test_a_game_without_such_weights_has_none(capsys):
    """0.737: an odd heap acts as two balanced halves; no weights in 4 .. 5 fit."""
    assert _tool().main(["0.737", "--heap", "40", "--range", "4", "5", "--samples", "20000"]) == 1
    assert "no weights without a conflict" in capsys.readouterr().out
