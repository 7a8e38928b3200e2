"""The memory half of cgtalg.budget: sizes, the process default, and Deadline's ceiling."""

import pytest

from cgtalg import budget
from cgtalg.budget import Deadline, check_fits, parse_memory, rss_bytes, set_default_max_memory
from cgtalg.errors import BudgetError, ComputationLimitError


@pytest.mark.parametrize("text, expected", [
    ("512M", 512 << 20), ("8G", 8 << 30), ("1.5GB", 3 << 29), ("4096", 4096), (4096, 4096), ("2k", 2048),
])
def test_parse_memory(text, expected):
    assert parse_memory(text) == expected


@pytest.mark.parametrize("bad", ["", "G", "8Q", "-1G", "nan", True, float("nan"), 0, -5, "0"])
def test_parse_memory_refuses(bad):
    with pytest.raises(BudgetError):
        parse_memory(bad)


def test_default_follows_environment_and_setter(monkeypatch):
    monkeypatch.setenv("CGTALG_MAX_MEMORY", "3G")
    assert budget.default_max_memory() == 3 << 30
    set_default_max_memory("1G")
    try:
        assert budget.default_max_memory() == 1 << 30
        assert Deadline(None).max_memory == 1 << 30
    finally:
        set_default_max_memory(None)
    monkeypatch.delenv("CGTALG_MAX_MEMORY")
    assert 0 < budget.default_max_memory() <= 16 << 30


def test_deadline_stops_past_the_ceiling():
    used = rss_bytes()
    assert used > 1 << 20  # a Python process holds more than a megabyte
    d = Deadline(None, max_memory=used // 2)
    with pytest.raises(ComputationLimitError, match="memory ceiling.*--memory"):
        d.check("the test")
    Deadline(None, max_memory=used * 4).check("the test")  # well under: no error


def test_check_fits():
    check_fits(1 << 20, "a small table", max_memory="1G")
    with pytest.raises(ComputationLimitError, match=r"would need about 2\.0 GiB.*1\.0 GiB"):
        check_fits(2 << 30, "a big table", max_memory="1G")


def test_cli_memory_option_sets_the_ceiling():
    from cgtalg.cli.main import main

    try:
        assert main(["--memory", "8G", "nim", "add", "3", "5"]) == 0
        assert budget.default_max_memory() == 8 << 30
        assert main(["--memory", "lots", "nim", "add", "3", "5"]) == 2
    finally:
        set_default_max_memory(None)


def test_max_seconds_beyond_float_range():
    from cgtalg.budget import check_max_seconds

    with pytest.raises(BudgetError, match="too large"):
        check_max_seconds(10**5000)
