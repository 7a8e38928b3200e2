"""The proof of a partizan misère comparison is built children first over its whole DAG
(issue 32): a step reached again from a step visited later used to be built before its
children (a KeyError in ``misere_ge(...).certificate``, about 1% of random dicot pairs, e.g.
``^ + ^`` against ``^^``). Every certificate built here is re-checked by the independent
referee (cgtalg.referee), which plays the literal forms."""

from __future__ import annotations

import random

import cgtalg as cg
from cgtalg.referee import check_document


def test_up_plus_up_against_double_up_has_a_certificate():
    doc = cg.compare("^ + ^", "^^", misere=True, universe="dicot").to_json()
    assert all(v.ok for v in check_document(doc))


def test_random_dicot_pairs_all_have_checkable_certificates():
    rng = random.Random(32)
    texts = ["0", "*", "*2", "^", "v", "^*", "{*|0}", "{0|*}", "{*,{*}|0}", "{0,^|0}", "{0|0,*}", "±*"]
    for _ in range(120):
        g = " + ".join(rng.sample(texts, rng.randint(1, 2)))
        h = " + ".join(rng.sample(texts, rng.randint(1, 2)))
        doc = cg.compare(g, h, misere=True, universe="dicot").to_json()
        verdicts = check_document(doc)
        assert verdicts and all(v.ok for v in verdicts), (g, h, [str(v) for v in verdicts if not v.ok])
