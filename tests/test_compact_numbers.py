"""Numbers of any size as compact parts of partizan forms (issue 36, item 1;
cgtalg.core.partizan_atoms).

The acceptance values are from the issue (CGSuite's CanonicalShortGameTestCase uses
-1823437481924). The cross-check runs the same normal-play questions twice, in two fresh
processes: once with the usual limit (every number a literal tree, as before compact numbers
existed) and once with ``INTEGER_LIMIT = 2``, where every number of birthday 3 or more, and
every sum holding one, is a compact part. The answers must be identical: the compact machinery
(number rules of the fold, the order of forms holding atoms, canonical sums by number
translation, printing) is checked against the literal trees, which follow the definitions.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

import cgtalg as cg
from cgtalg.core.partizan_atoms import LazySum, NumberAtom, number_birthday
from cgtalg.errors import CgtalgError, ComputationLimitError


def test_the_issues_values():
    """cg.outcome(10**6) is L; -1823437481924 has outcome R and both stops -1823437481924;
    10**6 + ^ > 10**6 (issue 36, "Done when")."""
    assert cg.outcome(10**6) == "L"
    n = -1823437481924
    g = cg.parse_partizan(str(n))
    assert isinstance(g, NumberAtom) and g is cg.integer(n) and str(g) == str(n)
    assert cg.outcome(g) == "R" and cg.left_stop(g) == n == cg.right_stop(g)
    big, up = cg.integer(10**6), cg.up
    s = big + up
    assert isinstance(s, LazySum) and s > big and not s <= big
    assert cg.compare("1000000 + ^", 10**6).relation == ">"
    assert str(cg.canonical_form(s)) == "1000000^"
    assert cg.temperature(2**70) == -1 and cg.mean(Fraction(2**70) + Fraction(1, 2)) == Fraction(2**71 + 1, 2)


def test_compact_forms_are_the_forms_they_stand_for():
    """An atom is hash-consed with the literal forms built from its options; birthdays follow
    ONAG ch. 0; the literal sum of integers of one sign is the integer's form."""
    a = cg.integer(10**6)
    assert a.left == (cg.integer(10**6 - 1),) and a.right == ()
    assert cg.pgame([cg.integer(10**6)], []) is cg.integer(10**6 + 1)
    assert cg.pgame([cg.integer(10**6)], [cg.integer(10**6 + 1)]) is cg.dyadic(Fraction(2 * 10**6 + 1, 2))
    assert cg.integer(10**6) + cg.integer(7) is cg.integer(10**6 + 7)
    assert -cg.integer(10**6) is cg.integer(-10**6)
    for q in (Fraction(3), Fraction(-5), Fraction(1, 2), Fraction(7, 4), Fraction(-13, 8)):
        assert number_birthday(q) == cg.dyadic(q).birthday  # literal trees: the definition
    tiny = cg.dyadic(Fraction(1, 2**70))  # beyond 2^64 denominators: compact, and still 1/2^70
    assert isinstance(tiny, NumberAtom) and cg.outcome(tiny) == "L" and cg.left_stop(tiny) == Fraction(1, 2**70)
    assert tiny.left == (cg.integer(0),) and tiny.right[0] is cg.dyadic(Fraction(1, 2**69))


def test_texts_read_back():
    for text in ("1000000", "-1823437481924", "{1000000|-1000000}", "1000000 + {1|-1}", "{(1000000 + ^) | 0}"):
        g = cg.parse_partizan(text)
        assert cg.parse_partizan(str(g)) is g, text
    from cgtalg.core.partizan import literal_text

    g = cg.pgame([cg.integer(10**6) + cg.up], [0])
    assert cg.parse_partizan(literal_text(g)) is g


def test_what_walks_the_tree_refuses_by_name():
    """Misère play needs the literal tree; a number of birthday 10^6 is refused, not walked."""
    with pytest.raises(ComputationLimitError, match="kept compact"):
        cg.integer(10**6).subpositions()
    assert cg.integer(10**6).subpositions(expand_atoms=False) == [cg.integer(10**6)]
    # the misère outcome of a number's form has a rule (cgtalg.misere.partizan_outcome._play_number):
    # Left has no move in a negative integer, so she wins moving first and Right's moves end there
    assert cg.outcome(-1823437481924, misere=True) == "L" and cg.outcome(10**6, misere=True) == "R"
    with pytest.raises(ComputationLimitError, match="kept compact"):
        cg.outcome(cg.integer(10**6) + cg.up, misere=True)  # a literal sum: its tree is needed


_SCRIPT = r"""
import json, random, sys
from fractions import Fraction
limit = int(sys.argv[1])
import cgtalg as cg
import cgtalg.core.partizan, cgtalg.core.named_forms, cgtalg.normal.notation, cgtalg.normal.partizan
for name, mod in list(sys.modules.items()):
    if name.startswith("cgtalg") and hasattr(mod, "INTEGER_LIMIT"):
        mod.INTEGER_LIMIT = limit
rng = random.Random(36)
def number():
    return Fraction(rng.randint(-24, 24), rng.choice([1, 1, 2, 4, 8]))
def form(depth, sums=True):
    r = rng.random()
    if depth == 0 or r < 0.3:
        return cg.dyadic(number())
    if r < 0.4 and sums:
        return cg.dyadic(number()) + rng.choice([cg.up, cg.nim(1), cg.down, cg.nim(2)])
    left = [form(depth - 1, sums) for _ in range(rng.randint(1, 2))]
    right = [form(depth - 1, sums) for _ in range(rng.randint(1, 2))]
    return cg.pgame(left, right)
games = [form(3) for _ in range(40)]
games += [games[i] + games[i + 1] for i in range(0, 20, 2)]          # literal sums
games += [games[i] - games[i + 3] for i in range(0, 12, 3)]
out = []
for g in games:
    c = cg.canonical_form(g)
    out.append([str(c), cg.outcome(g), str(cg.left_stop(g)), str(cg.right_stop(g)),
                str(cg.temperature(g)), str(cg.mean(g)), str(cg.thermograph(g)), cg.parity(g), cg.temper(g),
                str(cg.companion(g)), cg.stop_count(g), cg.is_all_small(g)])
# misère play of literal forms holding numbers (no sums: a compact sum's tree is refused there)
plain = [form(3, sums=False) for _ in range(40)]
out.append([cg.outcome(g, misere=True) for g in plain])
out.append([cg.compare(plain[i], plain[i + 1], misere=True).relation for i in range(0, 30, 2)])
rel = [[cg.compare(g, h).relation for h in games[:25]] for g in games[:25]]
ops = [str(g <= h) + str(g < h) for g in games[:12] for h in games[:12]]
compact = sum(1 for g in games if g._lazy or any(o._lazy for o in g.options))
print(json.dumps({"values": out, "relations": rel, "ops": ops, "compact": compact}))
"""


def _run(limit: int) -> dict:
    done = subprocess.run([sys.executable, "-c", _SCRIPT, str(limit)], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_compact_parts_answer_as_the_literal_trees_do():
    """The same normal-play answers whether numbers are literal trees or compact parts."""
    literal, compact = _run(100_000), _run(2)
    assert literal["compact"] == 0 and compact["compact"] >= 30  # the second run really is compact
    assert compact["values"] == literal["values"]
    assert compact["relations"] == literal["relations"]
    assert compact["ops"] == literal["ops"]


def test_every_refusal_is_a_cgtalg_error():
    """Doors with no meaning or no rule for a compact number refuse it with a cgtalg error."""
    g = cg.parse_partizan("{1000000 | 0}")
    for door in (cg.atomic_weight, cg.reduced_canonical_form, cg.companion, cg.freeze, cg.stop_count,
                 cg.followers, cg.incentives, cg.uptimal_expansion):
        try:
            door(g)
        except CgtalgError:
            pass


def test_the_shell_reports_on_huge_numbers(tmp_path):
    """`cgtalg game TEXT` and `cgtalg value TEXT` answer for text holding compact numbers; the
    misère simplest form (a walk of the tree) is reported as not computed, with the reason."""
    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    for text, outcome, stop in (("-1823437481924", "R", "-1823437481924"), ("1000000 + ^", "L", "1000000"),
                                ("{1000000|-1000000}", "N", "1000000")):
        out = CliRunner().invoke(cli, ["--store", str(tmp_path / "s.sqlite"), "game", text, "--json"])
        assert out.exit_code == 0, out.output
        doc = json.loads(out.output)
        assert doc["outcome"] == outcome and doc["left_stop"] == stop, text
        assert doc["misere_simplest_form"] is None and "kept compact" in doc["misere_simplest_note"]
