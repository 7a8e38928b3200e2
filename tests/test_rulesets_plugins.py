"""The ruleset registry never skips a plugin module that fails to import (issue 20, part 6):
the lookup fails with a RulesetError that names the module and the original error."""

from __future__ import annotations

import sys
import types

import pytest

from cgtalg.errors import RulesetError
from cgtalg.rulesets import registry


@pytest.fixture
def fresh_registry(monkeypatch):
    """Plugins loaded anew, with the real plugin list followed by the test's."""
    monkeypatch.setattr(registry, "_plugins_loaded", False)
    yield monkeypatch


def test_plugin_that_fails_to_import_is_an_error_naming_it(fresh_registry, tmp_path):
    pkg = tmp_path / "cgtalg_fake_plugin_broken.py"
    pkg.write_text("import math\nraise ImportError('the fake plugin needs libfoo')\n")
    fresh_registry.syspath_prepend(str(tmp_path))
    fresh_registry.setattr(registry, "PLUGIN_MODULES",
                           registry.PLUGIN_MODULES + ("cgtalg_fake_plugin_broken",))
    with pytest.raises(RulesetError, match=r"'cgtalg_fake_plugin_broken' failed to import "
                                           r"\(ImportError: the fake plugin needs libfoo\)") as info:
        registry.get_ruleset("parity")
    assert isinstance(info.value.__cause__, ImportError)
    # not remembered as loaded: the next lookup fails the same way (never a silent skip)
    with pytest.raises(RulesetError, match="cgtalg_fake_plugin_broken"):
        registry.available_rulesets()


def test_missing_plugin_module_is_an_error_too(fresh_registry):
    fresh_registry.setattr(registry, "PLUGIN_MODULES",
                           registry.PLUGIN_MODULES + ("cgtalg_no_such_plugin_module",))
    with pytest.raises(RulesetError, match=r"'cgtalg_no_such_plugin_module' failed to import "
                                           r"\(ModuleNotFoundError"):
        registry.get_ruleset("0.77")


def test_plugin_with_a_bug_is_an_error_naming_it(fresh_registry):
    mod = "cgtalg_fake_plugin_buggy"
    fresh_registry.setattr(registry, "PLUGIN_MODULES", registry.PLUGIN_MODULES + (mod,))
    fresh_registry.delitem(sys.modules, mod, raising=False)

    class Finder:
        def find_spec(self, name, path=None, target=None):
            if name != mod:
                return None
            import importlib.util

            class Loader:
                def create_module(self, spec):
                    return types.ModuleType(name)

                def exec_module(self, module):
                    1 / 0

            return importlib.util.spec_from_loader(name, Loader())

    fresh_registry.setattr(sys, "meta_path", [Finder()] + sys.meta_path)
    with pytest.raises(RulesetError, match=r"'cgtalg_fake_plugin_buggy' failed to import \(ZeroDivisionError"):
        registry.get_ruleset("parity")


def test_working_plugins_load(fresh_registry):
    assert registry.get_ruleset("parity").name == "parity"
