"""Notebook views: every user-facing result renders as HTML, escaping its text."""

from __future__ import annotations

import cgtalg as cg
from cgtalg.nimbers import nim_roots, nim_solve_quadratic


def test_results_have_html_views():
    results = [
        cg.parse("{*2}"),
        cg.misere_canonical("{*2}"),
        cg.describe("{*2}"),
        cg.equivalent(cg.parse("*2+*"), cg.nim(3)),
        cg.prove_equivalence("{*2}", "*2+*2"),
        cg.solve(cg.ParityGame(), cg.ParityGame().start(9)),
        cg.octal("0.77").periodicity(),
        cg.find_period([1, 2, 3] * 10),
        nim_solve_quadratic(1, 1, 2**63),
        nim_roots("x^2+x+w"),
    ]
    for r in results:
        page = r._repr_html_()
        assert page.startswith("<") and page.rstrip().endswith(">"), type(r)
    page = cg.equivalent(cg.parse("{*2}"), cg.parse("*2+*2"))._repr_html_()
    assert "≢" in page and "<pre" in page


def test_text_is_escaped():
    from cgtalg.viz.html import text_html

    class Report:
        def __str__(self):
            return "a < b & c"

    page = text_html(Report())
    assert "a &lt; b &amp; c" in page and "a < b" not in page
