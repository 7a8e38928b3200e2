"""CGSuite's own test values as a data-driven corpus (issue 36, item 7).

tests/data/cgsuite_corpus.jsonl holds one record per CGSuite test case, each with its source file
(under aaron-siegel/cgsuite, commit e909ab8bc330e39bc837d26b22bc8a96f9fa512a), the test's
name or row label, the CGSuite expression as written, the cgtalg operation (``op``) and its
arguments (``args``: cgtalg's texts, which differ from CGSuite's only where a ruleset writes its
positions otherwise), and CGSuite's printed answer (``expected``). Only CGSuite's test *values*
are used (facts), never its code. Records cgtalg cannot answer carry ``"skip": "<reason>"``, so
the corpus states what is covered and what is not (docs/partizan.md gives the counts).

Notation differences normalised (and only these): cgtalg prints ``±`` where CGSuite prints
``+-``; booleans print ``true``/``false``; sets (followers, options, incentives) are compared as
sets of printed games, since CGSuite orders their elements its own way. An expected answer
starting ``!!`` is a CGSuite error: cgtalg must refuse the case with a CgtalgError.
"""

from __future__ import annotations

import collections
import json
import pathlib
import re

import pytest

import cgtalg as cg
from cgtalg import ops
from cgtalg.errors import CgtalgError

CORPUS = [json.loads(line) for line in
          (pathlib.Path(__file__).parent / "data" / "cgsuite_corpus.jsonl").read_text("utf-8").splitlines()]
RUN = [r for r in CORPUS if "skip" not in r]


def _str(x) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    return str(x).replace("±", "+-")


def _split_set(text: str) -> list[str]:
    """``{a,{b|c},d}`` -> ['a', '{b|c}', 'd'] (top-level commas only)."""
    assert text[0] == "{" and text[-1] == "}", text
    body, parts, depth, cur = text[1:-1], [], 0, ""
    for ch in body:
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        parts.append(cur)
    return parts


def _game(text: str, reader: str | None):
    if reader == "form":  # CGSuite's quoted '{*|*}': the form as written
        return cg.parse_partizan(text)
    if reader == "loopy":
        return cg.canonical_form(cg.parse_loopy(text))
    return cg.canonical_form(cg.parse_partizan(text))


def _heap_text(template: str, n: int) -> str:
    return template.replace("{n}", str(n))


SET_OPS = {"followers": cg.followers, "incentives": cg.incentives, "left_incentives": ops.left_incentives,
           "right_incentives": ops.right_incentives, "left_options": lambda g: g.left,
           "right_options": lambda g: g.right}
UNARY = {"canonical_form": lambda g: g, "atomic_weight": cg.atomic_weight, "birthday": lambda g: g.birthday,
         "companion": cg.companion, "follower_count": ops.follower_count, "freeze": cg.freeze,
         "is_all_small": cg.is_all_small, "is_atomic": cg.is_atomic, "is_idempotent": ops.is_idempotent,
         "is_infinitesimal": cg.is_infinitesimal, "is_number": cg.is_number, "is_plumtree": ops.is_plumtree,
         "is_stopper": cg.is_stopper, "is_uptimal": ops.is_uptimal, "left_stop": cg.left_stop,
         "mean": cg.mean, "misere_outcome": lambda g: cg.outcome(g, misere=True), "outcome": cg.outcome,
         "reduced_canonical_form": cg.reduced_canonical_form, "right_stop": cg.right_stop,
         "stop_count": cg.stop_count, "temperature": cg.temperature, "thermograph": cg.thermograph,
         "uptimal_expansion": cg.uptimal_expansion, "grundy": cg.grundy, "loopy_outcome": cg.loopy_outcome,
         "loopy_sides": cg.loopy_sides,
         # CGSuite's stopper properties (CanonicalStopperTestCase): the doors answer for stoppers
         "Degree": ops.degree, "Variety": ops.variety, "IsStable": ops.is_stable, "LeftStop": cg.left_stop,
         "RightStop": cg.right_stop, "IsIdempotent": ops.is_idempotent, "IsPlumtree": ops.is_plumtree,
         # even and odd games, even- and odd-tempered games (CanonicalShortGameTestCase)
         "IsEven": lambda g: cg.parity(g) == "even", "IsOdd": lambda g: cg.parity(g) == "odd",
         "IsEvenTempered": lambda g: cg.temper(g) == "even", "IsOddTempered": lambda g: cg.temper(g) == "odd"}
BINARY = {"conjunctive_sum": cg.conjunctive_sum, "conway_product": cg.conway_product,
          "sum": lambda g, h: cg.canonical_form(g + h), "ordinal_sum": cg.ordinal_sum,
          "selective_sum": cg.selective_sum, "cool": cg.cool, "heat": cg.heat, "norton_product": cg.norton_product}


def answer(r: dict):
    """cgtalg's answer to record ``r``: a printed string, or a set of printed strings."""
    op, args, reader = r["op"], r["args"], r.get("reader")
    if op in SET_OPS:
        return {_str(x) for x in SET_OPS[op](_game(args[0], reader))}
    if op in UNARY:
        return _str(UNARY[op](_game(args[0], reader)))
    if op == "OrdinalProduct":  # of the forms as written ('{*|*}', *[[[2]],[2],0])
        return _str(ops.ordinal_product(*args))
    if op in ("Pow", "PowTo", "Subordinate"):  # GameTest: receiver and argument are in the expression
        m = re.fullmatch(r"\(?(.+?)\)?\.(Pow|PowTo|Subordinate)\((.+)\)", r["expr"])
        door = {"Pow": ops.power, "PowTo": ops.power_to, "Subordinate": ops.subordinate}[op]
        return _str(door(m.group(1), m.group(3)))
    if op == "position_loopy_value":  # a loopy ruleset's GameValue: its canonical stopper
        from cgtalg.rulesets.registry import get_ruleset

        ruleset = get_ruleset(args[0])
        return _str(ruleset.game_value(ruleset.parse_position(args[1])))
    if op == "ordinal_sum":  # the base's form matters (CGSuite's quoted '{-1|1}' is not 0)
        return _str(cg.canonical_form(cg.ordinal_sum(cg.parse_partizan(args[0]), _game(args[1], reader))))
    if op in BINARY:
        return _str(cg.canonical_form(BINARY[op](*(_game(a, reader) for a in args))))
    if op == "overheat":
        return _str(cg.canonical_form(cg.overheat(*(_game(a, reader) for a in args))))
    if op == "position_canonical_form":
        return _str(cg.canonical_form(cg.position(*args)))
    if op == "position_misere_canonical_form":
        return _str(cg.canonical_form(cg.position(*args), misere=True))
    if op == "position_misere_outcome":
        return _str(cg.outcome(cg.position(*args), misere=True))
    if op == "position_atomic_weight":
        return _str(cg.atomic_weight(cg.canonical_form(cg.position(*args))))
    if op == "position_grundy":
        return _str(cg.grundy(cg.position(*args)))
    if op == "grundy_sequence":
        ruleset, template, lo, hi = args
        values = [cg.grundy(cg.position(ruleset, _heap_text(template, n)) if "{n}" != template
                            else cg.position(ruleset, n)) for n in range(lo, hi + 1)]
        return "[" + ",".join(map(str, values)) + "]"
    raise AssertionError(f"unknown op {op!r}")


def _check(r: dict) -> str | None:
    """None when cgtalg's answer is CGSuite's, else a description of the difference."""
    expected = r["expected"]
    if expected.startswith("!!"):
        try:
            got = answer(r)
        except CgtalgError:
            return None
        return f"expected a refusal ({expected}), got {got!r}"
    got = answer(r)
    if isinstance(got, set):
        want = _split_set(expected)
        if len(got) == len(want) and all(any(_same(g, w, r.get("reader")) for g in got) for w in want):
            return None
        return f"got {sorted(got)}, expected {sorted(want)}"
    return None if _same(got, expected, r.get("reader")) else f"got {got!r}, expected {expected!r}"


def _same(got: str, expected: str, reader: str | None) -> bool:
    """The same printed answer, up to the documented notation differences: equal texts; or,
    for games, texts with the same characters in another option order (CGSuite sorts a side's
    options its own way) that read back to the same canonical form; or, for labelled stoppers
    (cgtalg writes ``a:{0|{0|...}}``, CGSuite ``a{0||0|...}``), CGSuite's text read back by
    cgtalg.parse_loopy to the same canonical stopper."""
    if got == expected:
        return True
    if reader != "loopy" and sorted(got) != sorted(expected):
        return False
    try:
        a, b = _game(got, reader), _game(expected, reader)
    except CgtalgError:
        return False
    return a is b


def _id(r: dict) -> str:
    return f"{r['source'].rsplit('/', 1)[-1].split('.')[0]}:{r['test'][:60]}"


@pytest.mark.parametrize("source", sorted({r["source"] for r in RUN}), ids=lambda s: s.rsplit("/", 1)[-1])
def test_corpus_cases_of_each_source_file_pass(source):
    """Every non-skipped case of one CGSuite test file gives CGSuite's printed answer."""
    failures = []
    for r in RUN:
        if r["source"] == source:
            try:
                msg = _check(r)
            except Exception as e:  # noqa: BLE001 - reported with the case
                msg = f"raised {type(e).__name__}: {e}"
            if msg is not None:
                failures.append(f"{_id(r)} [{r['op']}]: {msg}")
    assert not failures, "\n".join(failures)


def test_the_checker_can_fail():
    """A wrong expected answer, a wrong set and a missing refusal are each reported."""
    r = {"op": "canonical_form", "args": ["{0|*}"], "expected": "^*"}
    assert _check(r) is not None and _check(dict(r, expected="^")) is None
    assert _check({"op": "followers", "args": ["^"], "expected": "{0,^}"}) is not None
    assert _check({"op": "followers", "args": ["^"], "expected": "{^,*,0}"}) is None
    assert _check({"op": "left_stop", "args": ["5"], "expected": "!!no"}) is not None
    # option order is a notation difference; another game with the same characters is not
    assert _check({"op": "canonical_form", "args": ["{0,*|-1}"], "expected": "{*,0|-1}"}) is None
    assert _check({"op": "canonical_form", "args": ["{1|0}"], "expected": "{0|1}"}) is not None
    assert _check({"op": "canonical_form", "args": ["over"], "expected": "a{0|a}", "reader": "loopy"}) is None
    assert _check({"op": "canonical_form", "args": ["over"], "expected": "a{a|0}", "reader": "loopy"}) is not None


def test_records_are_well_formed():
    keys = {"source", "test", "expr", "op", "args", "expected"}
    for r in CORPUS:
        assert keys <= set(r) <= keys | {"skip", "reader"}, r
        assert r.get("reader") in (None, "loopy", "form"), r
        assert r["source"].startswith("lib/core/src/test/scala/org/cgsuite/lang/"), r
        assert isinstance(r["args"], list) and isinstance(r["expected"], str), r
        assert "skip" in r or r["op"] in SET_OPS or r["op"] in UNARY or r["op"] in BINARY or \
            r["op"].startswith(("position_", "grundy_sequence", "overheat")) or \
        r["op"] in ("OrdinalProduct", "Pow", "PowTo", "Subordinate"), r


def test_corpus_size_and_skips_match_docs():
    """The counts docs/partizan.md states: change the corpus, update the docs."""
    by_source = collections.Counter(r["source"].rsplit("/", 1)[-1] for r in CORPUS)
    skipped = sum("skip" in r for r in CORPUS)
    assert (len(CORPUS), skipped) == (1444, 247)
    assert by_source == {"CanonicalShortGameTestCase.scala": 994, "CanonicalStopperTestCase.scala": 222,
                         "CompoundGameTestCase.scala": 36, "GameGridTest.scala": 13, "GameStripTest.scala": 8,
                         "GameGraphTest.scala": 20, "GameHeapTest.scala": 46, "GameTest.scala": 45,
                         "EvalTest.scala": 60}
