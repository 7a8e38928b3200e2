"""Test-wide settings: no test reads or writes a developer's own default store."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _isolated_default_store(tmp_path_factory):
    """Point $CGTALG_STORE at a throwaway file for the whole run (tests may override it)."""
    old = os.environ.get("CGTALG_STORE")
    os.environ["CGTALG_STORE"] = str(tmp_path_factory.mktemp("store") / "default.sqlite")
    os.environ.setdefault("MPLBACKEND", "Agg")
    yield
    if old is None:
        os.environ.pop("CGTALG_STORE", None)
    else:
        os.environ["CGTALG_STORE"] = old


@pytest.fixture(autouse=True)
def _forget_misere_quotients():
    """Misère quotients computed by one test are not known to the next: outcome/winning_moves
    with misere=True answer from a known quotient (issue 10), which would bypass the search
    that other tests exercise."""
    yield
    import sys

    mod = sys.modules.get("cgtalg.misere.quotient")
    if mod is not None:
        mod.forget_known()
