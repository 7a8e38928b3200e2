"""Tests for cgtalg.misere.proof: the independent certificate checker.

Sources: seed 002 (Spindler 2016), Theorem 1 and Lemmas 1-2 (= Siegel, CGT V.3.5-3.6) for
what a misère equivalence certificate must show; Sprague-Grundy (Siegel CGT IV.1) for normal
play; outcomes by the definitions of misère and normal play (brute force in this file).
Every tampered certificate must be rejected, with a reason naming the problem.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import itertools
import json
import random
from pathlib import Path

import pytest

import cgtalg as cg
import cgtalg.misere.proof as proof_module
from cgtalg.errors import CertificateError, CgtalgError
from cgtalg.misere.equivalence import equivalent
from cgtalg.misere.equivalence_certificate import EquivalenceProof, EquivalenceResult, Witness
from cgtalg.misere.proof import check_proof, play_outcome


def forms_born_by(day: int) -> list[cg.Game]:
    forms = [cg.zero]
    for _ in range(day):
        forms = [cg.game(s) for r in range(len(forms) + 1) for s in itertools.combinations(forms, r)]
    return forms


DAY3 = forms_born_by(3)


def brute_p(g: cg.Game, misere: bool) -> bool:
    """By the definitions (recursive; small forms only)."""
    if not g.options:
        return not misere
    return all(not brute_p(o, misere) for o in g.options)


def rejected(cert) -> list[str]:
    ok, reasons = check_proof(cert, explain=True)
    assert ok is False and reasons
    return reasons


# ---------------------------------------------------------------------------------------
# the checker's own solver
# ---------------------------------------------------------------------------------------
def test_play_outcome_matches_the_definitions():
    for g, t in itertools.product(DAY3, repeat=2):
        for misere in (True, False):
            assert play_outcome(g, t, misere=misere) == ("P" if brute_p(g + t, misere) else "N")
    # three components, text input
    assert play_outcome("*", "*", "*") == "P" and play_outcome("*", "*", "*", misere=False) == "N"
    assert play_outcome() == "N" and play_outcome(misere=False) == "P"  # the empty sum is 0


def test_play_outcome_bad_input():
    with pytest.raises(CertificateError, match=r"expected a game form or game text, got float: 1.5"):
        play_outcome(1.5)


def test_checker_shares_no_code_with_the_search():
    # the checker may use only the form data structure, the parser/printer and the errors
    tree = ast.parse(Path(proof_module.__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    cgtalg_imports = {m for m in imported if m and m.startswith("cgtalg")}
    assert cgtalg_imports <= {"cgtalg.core.game", "cgtalg.core.notation", "cgtalg.errors"}, cgtalg_imports


# ---------------------------------------------------------------------------------------
# valid certificates are accepted (objects and JSON)
# ---------------------------------------------------------------------------------------
PAIRS = [
    ("*2+*", "*3", True),
    ("*+*", "0", True),
    ("{*, *2}", "0", True),
    ("*8+*", "*9", True),
    ("*2+*2+*3", "*2+*2+*3", True),
    ("{*2}", "*2+*2", True),
    ("0", "*", True),
    ("*2", "*3", True),
    ("*2+*", "*3", False),
    ("*2", "{*2}", False),
    ("*3+*2", "*", False),
]


@pytest.mark.parametrize("a, b, misere", PAIRS)
def test_valid_certificates_are_accepted(a, b, misere):
    r = equivalent(a, b, misere=misere)
    assert check_proof(r) is True
    ok, reasons = check_proof(r, explain=True)
    assert ok and reasons  # a summary of what was checked
    data = json.loads(json.dumps(r.to_json()))
    assert check_proof(data) is True


def test_summaries():
    assert check_proof(equivalent("*2+*", "*3"), explain=True) == (
        True,
        ["Theorem 1 steps checked: 2 (condition (iii) by direct play); steps by identical forms: 3"],
    )
    assert check_proof(equivalent("{*2}", "*2+*2"), explain=True) == (
        True,
        ["direct play: o(G + T) = P, o(H + T) = N"],
    )
    assert check_proof(equivalent("*2+*", "*3", misere=False), explain=True) == (
        True,
        ["Grundy labels of 6 positions checked; G + H is P by direct play"],
    )


def test_all_day3_certificates_check():
    for g, h in itertools.combinations_with_replacement(DAY3, 2):
        for misere in (True, False):
            assert check_proof(equivalent(g, h, misere=misere))


# ---------------------------------------------------------------------------------------
# tampered distinguishers
# ---------------------------------------------------------------------------------------
def test_changed_distinguisher_is_rejected():
    r = equivalent("{*2}", "*2+*2")
    cert = r.certificate
    # {*2} and *2+*2 agree on every T born by day 3, e.g. T = *3
    fake = dataclasses.replace(r, certificate=dataclasses.replace(cert, t=cg.nim(3)))
    reasons = rejected(fake)
    assert "T = *3 does not distinguish: G + T and H + T are both N-positions" in reasons
    data = r.to_json()
    data["certificate"]["T"] = "*3"
    assert "T = *3 does not distinguish: G + T and H + T are both N-positions" in rejected(data)


def test_wrong_claimed_outcomes_are_rejected():
    data = equivalent("*2", "*3").to_json()
    c = data["certificate"]
    c["outcome_g_plus_T"], c["outcome_h_plus_T"] = c["outcome_h_plus_T"], c["outcome_g_plus_T"]
    reasons = rejected(data)
    assert any(s.startswith("claimed o(G + T) = ") for s in reasons)
    assert any(s.startswith("claimed o(H + T) = ") for s in reasons)


def test_flipped_holds_or_play_is_rejected():
    r = equivalent("{*2}", "*2+*2")
    assert "a distinguisher certificate cannot prove an equivalence (holds is true)" in rejected(
        dataclasses.replace(r, holds=True)
    )
    # in normal play both have value 0, so T no longer distinguishes
    reasons = rejected(dataclasses.replace(r, misere=False))
    assert any("does not distinguish" in s for s in reasons)
    p = equivalent("*2+*", "*3")
    assert "an equivalence certificate must have holds = true" in rejected(dataclasses.replace(p, holds=False))
    assert "a Theorem 1 certificate proves misère equivalence only, but misere is false" in rejected(
        dataclasses.replace(p, misere=False)
    )


# ---------------------------------------------------------------------------------------
# tampered Theorem 1 certificates
# ---------------------------------------------------------------------------------------
def _root(r: EquivalenceResult) -> EquivalenceProof:
    return r.certificate


def test_swapped_witness_is_rejected():
    r = equivalent("*2+*", "*3")
    root = _root(r)
    # swap the witnesses of two options in condition (i)
    ws = list(root.condition_i)
    a = next(i for i, w in enumerate(ws) if w.option is cg.zero)
    b = next(i for i, w in enumerate(ws) if w.option is cg.nim(2))
    ws[a] = dataclasses.replace(ws[a], game=ws[b].game, proof=ws[b].proof)
    fake = dataclasses.replace(r, certificate=dataclasses.replace(root, condition_i=tuple(ws)))
    reasons = rejected(fake)
    assert len(reasons) == 1
    assert reasons[0].startswith("step 0 (") and "(i): for 0 the cited step" in reasons[0]
    assert reasons[0].endswith("not *2 ≡ 0")


def test_witness_that_is_not_an_option_is_rejected():
    r = equivalent("*2+*", "*3")
    root = _root(r)
    ws = list(root.condition_ii)
    w = ws[0]
    ws[0] = Witness(w.option, "H'", cg.nim(5), w.proof)
    fake = dataclasses.replace(r, certificate=dataclasses.replace(root, condition_ii=tuple(ws)))
    assert any("(ii): witness *5 is not an option of *3" in s for s in rejected(fake))
    ws[0] = Witness(w.option, "G''", cg.nim(5), w.proof)
    fake = dataclasses.replace(r, certificate=dataclasses.replace(root, condition_ii=tuple(ws)))
    assert any(f"(ii): witness *5 is not an option of {w.option}" in s for s in rejected(fake))
    ws[0] = Witness(cg.nim(7), w.kind, w.game, w.proof)
    fake = dataclasses.replace(r, certificate=dataclasses.replace(root, condition_ii=tuple(ws)))
    reasons = rejected(fake)
    assert any("(ii): *7 is not an option of" in s for s in reasons)
    assert any(f"(ii): no witness for the option {w.option} of" in s for s in reasons)


def test_missing_witness_and_bad_kind_are_rejected():
    r = equivalent("*2+*", "*3")
    root = _root(r)
    fake = dataclasses.replace(r, certificate=dataclasses.replace(root, condition_i=root.condition_i[1:]))
    missing = root.condition_i[0].option
    assert any(f"(i): no witness for the option {missing} of *3" in s for s in rejected(fake))
    ws = list(root.condition_i)
    ws[0] = dataclasses.replace(ws[0], kind="G''")
    fake = dataclasses.replace(r, certificate=dataclasses.replace(root, condition_i=tuple(ws)))
    assert any("(i): unknown witness kind \"G''\"" in s for s in rejected(fake))


def test_deep_corruption_is_found():
    # corrupt a step far below the root in the JSON of *8 + *1 ≡ *9
    r = equivalent(cg.nim(8) + cg.star, cg.nim(9))
    data = r.to_json()
    nodes = data["certificate"]["nodes"]
    k = max(
        (i for i, n in enumerate(nodes) if not n["identical"] and n["i"]),
        key=lambda i: -len(nodes[i]["i"]),  # a small (deep) step
    )
    assert k != 0
    w = nodes[k]["i"][0]
    w["game"] = "*7"  # not what the cited step proves, and not an option there
    reasons = rejected(data)
    assert all(s.startswith(f"step {k} (") for s in reasons)


def test_circular_citation_is_rejected():
    data = equivalent(cg.nim(4) + cg.star, cg.nim(5)).to_json()
    for w in data["certificate"]["nodes"][0]["i"]:
        w["proof"] = 0  # every witness "proved" by the root itself
    reasons = rejected(data)
    assert any("the cited step 0 proves" in s for s in reasons)


def test_root_must_prove_the_claim():
    data = equivalent("*2+*", "*3").to_json()
    data["h"] = "*2"
    assert any(s.startswith("the root step proves") and s.endswith("not G ≡ H") for s in rejected(data))


def test_false_identity_is_rejected():
    data = equivalent("*2", "*2").to_json()
    data["h"] = "{*2}"
    data["certificate"]["nodes"][0]["h"] = "{*2}"
    assert "step 0 (*2 ≡ {*2}) claims identical forms, but they differ" in rejected(data)


def test_condition_iii_is_checked_by_play():
    # A forged proof of 0 ≡ {*2}: condition (i) has a structurally valid witness (the option
    # *2 of H has the option 0 ≡ G), but {*2} is a misère P-position, so (iii) fails.
    g, h = cg.zero, cg.parse("{*2}")
    ident = EquivalenceProof(g, g, identical=True)
    forged = EquivalenceProof(g, h, False, (Witness(cg.nim(2), "H''", cg.zero, ident),), (), None)
    fake = EquivalenceResult(g, h, True, True, forged)
    assert rejected(fake) == ["step 0 (0 ≡ {*2}) (iii): 0 = 0 but {*2} is a misère P-position, not N"]
    # the same certificate for 0 ≡ {*, *2}-like games where (iii) holds is accepted:
    # {{*}} ≡ 0? its option {*} has the option * ... use the real proof of {*} ≡ 0
    assert check_proof(equivalent("{*}", "0"))


def test_wrong_winning_move_is_rejected():
    data = equivalent("{*}", "0").to_json()
    data["certificate"]["nodes"][0]["winning_move"] = "0"
    assert any("(iii): 0 is not a move of {*} to a P-position" in s for s in rejected(data))


def test_random_witness_tampering_is_always_rejected():
    # change the witness of one random option in one random step to a different form
    rng = random.Random(7)
    forms = DAY3 + [cg.nim(a) + cg.nim(b) for a, b in itertools.combinations_with_replacement(range(4), 2)]
    tried = 0
    for g, h in itertools.combinations(forms, 2):
        r = equivalent(g, h)
        if not r.holds or g is h:
            continue
        data = r.to_json()
        nodes = data["certificate"]["nodes"]
        slots = [(i, c, j) for i, n in enumerate(nodes) for c in ("i", "ii") for j in range(len(n[c]))]
        i, c, j = rng.choice(slots)
        w = nodes[i][c][j]
        replacement = rng.choice([x for x in forms if str(x) != w["game"]])
        w["game"] = str(replacement)
        assert not check_proof(data), (str(g), str(h), i, c, j)
        tried += 1
    assert tried >= 20


# ---------------------------------------------------------------------------------------
# tampered Grundy certificates
# ---------------------------------------------------------------------------------------
def test_tampered_grundy_labels_are_rejected():
    data = equivalent("*2+*", "*3", misere=False).to_json()
    bad = copy.deepcopy(data)
    for item in bad["certificate"]["labels"]:
        if item[0] == "*2":
            item[1] = 1
    reasons = rejected(bad)
    assert "*2 is labelled 1 but has an option labelled 1" in reasons
    bad = copy.deepcopy(data)
    bad["certificate"]["labels"] = [x for x in bad["certificate"]["labels"] if x[0] != "*"]
    assert "subposition * has no Grundy label" in rejected(bad)
    bad = copy.deepcopy(data)
    bad["certificate"]["value"] = 2
    assert "labels of G (3) and H (3) and the claimed value 2 differ" in rejected(bad)
    bad = copy.deepcopy(data)
    bad["misere"] = True
    assert "a Grundy labelling proves normal-play equivalence only, but misere is true" in rejected(bad)


def test_consistent_but_false_grundy_labels_are_rejected():
    # labels shifted so that G and H look equal: the local mex check catches it
    data = equivalent("*2", "*3", misere=False).to_json()
    data["holds"] = True
    data["certificate"] = {
        "type": "normal-grundy",
        "value": 2,
        "labels": [["0", 0], ["*", 1], ["*2", 2], ["*3", 2]],
    }
    reasons = rejected(data)
    assert "*3 is labelled 2 but has an option labelled 2" in reasons
    assert "G + H is not a normal-play P-position by direct play" in reasons


# ---------------------------------------------------------------------------------------
# malformed certificates raise CertificateError
# ---------------------------------------------------------------------------------------
def test_malformed_certificates_raise():
    good = equivalent("*2+*", "*3").to_json()

    def broken(edit):
        data = copy.deepcopy(good)
        edit(data)
        return data

    with pytest.raises(CertificateError, match=r"^malformed certificate: result has no field 'certificate'$"):
        check_proof(broken(lambda d: d.pop("certificate")))
    with pytest.raises(CertificateError, match=r"^unknown certificate type 'magic'$"):
        check_proof(broken(lambda d: d["certificate"].update(type="magic")))
    with pytest.raises(CertificateError, match=r"node 0.i\[0\].proof 99 is not a node index"):
        check_proof(broken(lambda d: d["certificate"]["nodes"][0]["i"][0].update(proof=99)))
    with pytest.raises(CertificateError, match=r"^malformed certificate: node 0.g: bad game notation '\{\*2,'"):
        check_proof(broken(lambda d: d["certificate"]["nodes"][0].update(g="{*2,")))
    with pytest.raises(CertificateError, match=r"'misere' and 'holds' must be true or false"):
        check_proof(broken(lambda d: d.update(holds="yes")))
    with pytest.raises(CertificateError, match=r"^malformed certificate: 'nodes' must be a non-empty list$"):
        check_proof(broken(lambda d: d["certificate"].update(nodes=[])))
    with pytest.raises(CertificateError, match=r"^not an equivalence result: "):
        check_proof("*2 == *3")
    assert issubclass(CertificateError, CgtalgError) and issubclass(CertificateError, ValueError)


def test_certificates_of_forms_with_huge_texts_stay_small():
    """*30 vs *31: the distinguisher's literal text is astronomically long, its DAG small; the
    JSON certificate carries the DAG and the checker reads it back (regression: 8 GB of JSON)."""
    import json

    import cgtalg as cg

    result = cg.equivalent(cg.nim(30), cg.nim(31))
    assert not result.holds
    data = json.dumps(result.to_json())
    assert len(data) < 1_000_000
    assert cg.check_proof(json.loads(data))
