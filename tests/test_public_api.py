"""The curated public API of 0.2.0 (issue 33, item 5).

The top level holds at most 110 names, no alias (no object under two names), each listed once
in docs/api.md's section "The top level"; the names the top level dropped in 0.2.0 are public in
the subpackage the reference names; the aliases module is gone; the version is 0.2.0 in the
package and in pyproject.toml, and the store writes it as ``made_by``; the reference
implementations of nimber arithmetic sit apart from the fast doors and agree with them and with
the definitions.
"""

from __future__ import annotations

import importlib
import pathlib
import re
import tomllib

import pytest

import cgtalg as cg

ROOT = pathlib.Path(__file__).resolve().parents[1]
API = (ROOT / "docs" / "api.md").read_text()

#: the 0.1 aliases of the doors, removed in 0.2.0
ALIASES = (
    "normal_outcome", "misere_outcome", "partizan_outcome", "partizan_misere_outcome", "normal_winning_moves",
    "misere_winning_moves", "misere_canonical", "partizan_canonical", "misere_canonical_form", "partizan_compare",
    "partizan_le", "partizan_equal", "partizan_misere_equal",
)

#: top-level names of 0.1 that 0.2.0 keeps public in a subpackage only
MOVED = {
    "cgtalg.core": "check_acyclic from_networkx to_networkx game_table_size sum_size walk_size format_loopy "
                   "MATERIALISE_LIMIT WALK_LIMIT MAX_HEAP_DIGITS MISERE_DEPTH_LIMIT",
    "cgtalg.normal": "mex LoopyOutcome Sides onside offside sides_game",
    "cgtalg.misere": "adder adder_description adder_index adder_sum check_misere_certificate "
                     "check_nim_position_classes distinguisher equivalence_classes format_misere genus_class "
                     "genus_from_options is_half_tame link linked misere_class misere_class_counts "
                     "misere_count_born_by misere_day_counts misere_equal misere_ge misere_is_even "
                     "misere_is_prime misere_mate misere_p_count_born_by misere_partitions misere_parts "
                     "misere_phylum misere_simplification misere_tame_count_born_by MiserePart nim_position_game "
                     "nim_reduced_form nim_sum_outcome partizan_misere_count_born_by "
                     "partizan_misere_games_born_by Phylum shortlex_precedes",
    "cgtalg.quotients": "FormQuotient",
    "cgtalg.ops": "KINDS UNIVERSES CheckReport ComponentQuotient",
    "cgtalg.rulesets": "GrundysGame Solution build_dag game_of position_game periodicity_memory_estimate",
    "cgtalg.nimbers": "nim_add nim_mul nim_div nim_inv nim_pow nim_sqrt parse_nimber",
    "cgtalg.store": "verify_store fill_heap_genera",
    "cgtalg.census": "CensusParams CensusResult CensusRow Disagreement read_published diff_published "
                     "enumerate_codes census_classes",
    "cgtalg.report": "GameReport EquivalenceReport",
}


def _top_level_section() -> str:
    start = API.index("## The top level")
    return API[start:API.index("\n## ", start + 1)]


def test_top_level_is_curated():
    assert len(cg.__all__) == len(set(cg.__all__)) <= 110
    for name in cg.__all__:
        assert getattr(cg, name) is not None, name


def test_no_alias_at_the_top_level():
    """No object is public under two top-level names, and none of the 0.1 aliases is left."""
    seen: dict[int, str] = {}
    for name in cg.__all__:
        value = getattr(cg, name)
        assert id(value) not in seen, f"cgtalg.{name} is cgtalg.{seen.get(id(value))}"
        seen[id(value)] = name
    for name in ALIASES:
        assert name not in cg.__all__ and not hasattr(cg, name), name
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("cgtalg.ops.aliases")


def test_every_top_level_name_is_in_the_api_reference_once():
    section = _top_level_section()
    # the name lists: paragraphs made of backquoted names only, comma-separated
    lists = [p for p in section.split("\n\n") if re.fullmatch(r"(`\w+`,\s*)*`\w+`", p.strip())]
    listed = [name for p in lists for name in re.findall(r"`(\w+)`", p)]
    counts = {name: listed.count(name) for name in cg.__all__}
    assert {n: c for n, c in counts.items() if c != 1} == {}
    assert set(listed) <= set(cg.__all__) | set(ALIASES), sorted(set(listed) - set(cg.__all__))


def test_dropped_names_are_public_in_their_subpackage():
    for package, names in MOVED.items():
        module = importlib.import_module(package)
        assert f"### `{package}`" in API, package
        for name in names.split():
            assert name not in cg.__all__, name
            assert name in module.__all__, (package, name)
            assert getattr(module, name) is not None, (package, name)
            assert re.search(rf"`{name}`", API[API.index(f"### `{package}`"):]), (package, name)


def test_version_is_0_2_0_everywhere():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert cg.__version__ == project["version"] == "0.2.0"


def test_the_store_writes_the_version_as_made_by():
    from cgtalg.store import open_store

    store = open_store(":memory:")
    g = cg.parse("{*2, *3}")
    store.memo(g, "grundy", lambda: cg.grundy(g))
    assert store.provenance(g, "grundy").made_by == "0.2.0"


def test_nimber_references_are_apart_and_agree():
    """The references leave the fast package's public list; they agree with the doors, and the
    mex definitions agree with the field's table (Conway, ONAG ch. 6): 2⊗2 = 3, 4⊗4 = 6, and
    a ⊕ b is the bitwise exclusive or."""
    import cgtalg.nimbers as N
    from cgtalg.nimbers import reference as R

    for name in R.__all__:
        if name.startswith("ordinal_"):
            assert name not in N.__all__ and not hasattr(N, name), name
    w = N.parse_ordinal("w")
    assert R.ordinal_nim_mul(w, w) == N.nim_mul(w, w) == N.parse_ordinal("w^2")
    assert R.ordinal_nim_mul(w, 2) == N.nim_mul(w, 2)
    assert R.nim_mul_by_definition(2, 2) == 3 and R.nim_mul_by_definition(4, 4) == 6
    for a in range(R.DEFINITION_LIMIT):
        for b in range(R.DEFINITION_LIMIT):
            assert R.nim_add_by_definition(a, b) == a ^ b
            assert R.nim_mul_by_definition(a, b) == N.nim_mul(a, b), (a, b)


def test_nimber_definition_refuses_what_it_does_not_compute():
    from cgtalg.errors import ArgumentError, ArgumentTypeError
    from cgtalg.nimbers import reference as R

    with pytest.raises(ArgumentError, match="cgtalg.nimbers.nim_mul is the fast door"):
        R.nim_mul_by_definition(16, 1)
    with pytest.raises(ArgumentTypeError):
        R.nim_add_by_definition(1.0, 2)


def test_the_changelog_has_the_release():
    """CHANGELOG.md (Keep a Changelog) has a section for this version, below [Unreleased]."""
    import re
    from pathlib import Path

    import cgtalg

    text = (Path(__file__).resolve().parents[1] / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## \[([^\]]+)\]", text, flags=re.M)
    assert versions[0] == "Unreleased" and versions[1] == cgtalg.__version__
