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


def test_the_memory_hint_is_true_on_this_machine(monkeypatch):
    """The advice of a memory error names a ceiling that would let the computation go on here,
    or says that none would (the hint "--memory 16G" was printed beside a need of 44 GiB)."""
    import re

    from cgtalg.cli.quotient_report import _hint
    from cgtalg.cli.wording import cli_wording

    monkeypatch.setattr(budget, "_physical_memory", lambda: 23 << 30)
    # a need this machine can meet: the suggested ceiling covers it and stays below the memory
    with pytest.raises(ComputationLimitError) as info:
        check_fits(10 << 30, "a candidate", max_memory="8G")
    msg = str(info.value)
    got = re.search(r"--memory (\d+G)", msg)
    assert got and "max_memory=" in msg
    assert 10 << 30 <= parse_memory(got.group(1)) <= 23 << 30
    assert f"pass a larger --memory, e.g. --memory {got.group(1)} (or set CGTALG_MAX_MEMORY)" in cli_wording(msg)
    # a need beyond the machine: no ceiling is suggested
    with pytest.raises(ComputationLimitError) as info:
        check_fits(44 << 30, "a candidate", max_memory="14G")
    msg = str(info.value)
    assert "not enough" in msg and "machine's memory (23.0 GiB)" in msg
    assert "--memory" not in msg and "max_memory=" not in msg

    # cgtalg quotient's hint follows the note
    class Q:
        infinite_from = None
        next_bound = None

    Q.note = msg
    assert "no option changes that" in _hint(Q(), None, False) and "--memory" not in _hint(Q(), None, False)
    with pytest.raises(ComputationLimitError) as info:
        check_fits(10 << 30, "a candidate", max_memory="8G")
    Q.note = str(info.value)
    assert f"--memory {got.group(1)}" in _hint(Q(), None, False)
    # stopped while running (need unknown): a ceiling above the current one, if the machine has it
    assert "--memory 12G" in budget.memory_hint(8 << 30)
    assert "not enough" in budget.memory_hint(20 << 30)
