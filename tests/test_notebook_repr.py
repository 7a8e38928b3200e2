"""Notebook views: every user-facing result renders as HTML, escaping its text."""

from __future__ import annotations

import cgtalg as cg
from cgtalg.nimbers import nim_roots, nim_solve_quadratic


def test_results_have_html_views():
    results = [
        cg.parse("{*2}"),
        cg.canonical_form("{*2}", misere=True, universe="impartial"),
        cg.describe("{*2}"),
        cg.equivalent(cg.parse("*2+*"), cg.nim(3)),
        cg.prove_equivalence("{*2}", "*2+*2"),
        cg.solve(cg.ParityGame(), cg.ParityGame().start(9)),
        cg.TakeAndBreak("0.77").periodicity(),
        cg.find_period([1, 2, 3] * 10),
        nim_solve_quadratic(1, 1, 2**63),
        nim_roots("x^2+x+w"),
    ]
    for r in results:
        page = r._repr_html_()
        assert page.startswith("<") and page.rstrip().endswith(">"), type(r)
    page = cg.equivalent(cg.parse("{*2}"), cg.parse("*2+*2"))._repr_html_()
    assert "≢" in page and "distinguisher T" in page  # a card with the distinguishing game


def test_text_is_escaped():
    from cgtalg.viz.html import text_html

    class Report:
        def __str__(self):
            return "a < b & c"

    page = text_html(Report())
    assert "a &lt; b &amp; c" in page and "a < b" not in page


def test_quotients_have_a_short_repr():
    # issue 23: repr(MisereQuotient) printed the whole table (2,338 characters for Kayles)
    import cgtalg as cg

    for q, head in ((cg.misere_quotient("0.77"), "MisereQuotient('0.77', final, order=40, p_count=9)"),
                    (cg.misere_quotient(["{*2}", "*2+*2"]), "FormQuotient([{*2}, *2+*2]"),
                    (cg.misere_quotient("cram:1xn", max_heap=8), "ComponentQuotient('cram:1xn', max_size=8")):
        r = repr(q)
        assert r.startswith(head) and len(r) < 120, r
        assert f"order={q.order}" in r and f"p_count={len(q.p_portion)}" in r
