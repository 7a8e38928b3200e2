"""One SQLite code path (issue 33): a store named by a ``sqlite:///`` URL opens the light store
exactly as its plain path does, and the light store and the full store judge rows by the same
code (:mod:`cgtalg.store.rows`), so that both raise the same errors in the same words.

The URL rules are checked against SQLAlchemy's own reading of each URL
(:func:`cgtalg.store.location.resolve_store_url`, ``sqlalchemy.engine.make_url``): whenever the
light store names a file for a URL, it is the file the full store opens. Which store a command
opened is read from ``sys.modules`` in a fresh interpreter (SQLAlchemy imported or not); no
timing asserts (the times are in ``benchmarks/bench_startup.py --url``).
"""

from __future__ import annotations

import json
import os
import pathlib
import sqlite3
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
_RUN = (
    "import io, json, sys, contextlib\n"
    "from cgtalg.cli.main import main\n"
    "out = io.StringIO()\n"
    "with contextlib.redirect_stdout(out):\n"
    "    code = main({args!r})\n"
    "print(json.dumps({{'code': code, 'out': out.getvalue(), 'sqlalchemy': 'sqlalchemy' in sys.modules}}))\n"
)


def _cli(args: list[str], env_store: str) -> tuple[dict, bool]:
    """A command's JSON answer (without its timing and store) and whether SQLAlchemy loaded."""
    env = {**os.environ, "CGTALG_STORE": env_store,
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", _RUN.format(args=[*args, "--json"])], capture_output=True,
                         text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["code"] == 0, got
    res = json.loads(got["out"])
    for key in ("seconds", "store"):
        res.pop(key, None)
    return res, got["sqlalchemy"]


URLS = ["sqlite:///{abs}", "sqlite:///{rel}", "sqlite:///./{rel}", "sqlite:///sub/../{rel}", "sqlite:///~/{rel}",
        "sqlite:///{abs}?mode=ro", "sqlite:///{abs}?timeout=5", "sqlite+pysqlite:///{abs}", "sqlite://localhost/{rel}",
        "sqlite:///a%20b.sqlite", "sqlite:///", "sqlite://", "sqlite:///:memory:", "sqlite:///with space.sqlite",
        "sqlite:///odd#name.sqlite", "sqlite:///at@sign:colon.sqlite", "postgresql://db/cgt", "{abs}", "{rel}",
        ":memory:"]


@pytest.mark.parametrize("form", URLS)
def test_a_url_names_the_file_sqlalchemy_opens(tmp_path, monkeypatch, form):
    """Where the light store reads a file for a store name, it is the file of SQLAlchemy's URL
    (made absolute as the full store makes it); every form it does not read goes to the full
    store. The plain ``sqlite:///`` forms, relative and absolute, are read."""
    from cgtalg.errors import StoreError
    from cgtalg.store.location import plain_store_path, resolve_store_url, sqlite_file

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    name = form.format(abs=tmp_path / "s.sqlite", rel="s.sqlite")
    mine = plain_store_path(name)
    try:
        theirs = sqlite_file(resolve_store_url(name))
    except StoreError:
        theirs = None
    if mine is not None:
        assert mine.is_absolute() and mine == theirs, (name, mine, theirs)
    if form in ("sqlite:///{abs}", "sqlite:///{rel}", "sqlite:///./{rel}", "sqlite:///~/{rel}", "{abs}", "{rel}"):
        assert mine == tmp_path / "s.sqlite", name
    if "?" in form or "+" in form or "//localhost" in form or "%" in form or "memory" in form or form in (
            "sqlite:///", "sqlite://", "postgresql://db/cgt"):
        assert mine is None, name
    monkeypatch.setenv("CGTALG_STORE", name)  # the same from the environment
    assert plain_store_path(None) == mine


def test_a_url_store_opens_the_light_store_and_shares_its_rows(tmp_path):
    from cgtalg.store import light, open_store

    path = tmp_path / "s.sqlite"
    url = f"sqlite:///{path}"  # sqlite:////tmp/...: an absolute path
    assert type(light.open_light_store(url)).__name__ == "LightStore"  # a new file: created by sqlite3 (issue 35)
    lite = light.open_light_store(url)
    assert type(lite) is light.LightStore
    full = open_store(path)
    lite.put_position("demo", "7 5", "answer", [1, 2])
    assert full.get_position("demo", "7 5", "answer") == [1, 2]
    assert lite.url == full.url == open_store(url).url and lite.location == str(path)
    assert lite.full_store().url == full.url  # the full store behind it opens the same URL


@pytest.mark.parametrize("args", [["grundy", "0.77", "-n", "100"], ["outcome", "0.77", "13", "9", "2", "9", "--misere"],
                                  ["period", "0.07"]])
def test_light_commands_on_a_url_store_load_no_sqlalchemy_and_answer_alike(tmp_path, args):
    """A light command, warm, on a store named by its path, by ``--store sqlite:///path`` and by
    ``CGTALG_STORE=sqlite:///path``: SQLAlchemy loaded by none, the same answer from each (and
    from a store opened with SQLAlchemy, ``sqlite+pysqlite://``, and without a store)."""
    from cgtalg.store import open_store

    path = tmp_path / "s.sqlite"
    open_store(path).close()  # at the newest schema
    url = f"sqlite:///{path}"
    answers = []
    for option, env in (([], str(path)), (["--store", url], str(tmp_path / "other.sqlite")), ([], url)):
        _cli([*option, *args], env)  # warm: the store holds what the command stores
        res, loaded = _cli([*option, *args], env)
        assert not loaded, (option, env)
        answers.append(res)
    full, loaded = _cli(["--store", f"sqlite+pysqlite:///{path}", *args], url)
    assert loaded
    plain, _ = _cli([*args, "--no-store"], url)
    for res in (*answers, full, plain):
        res.pop("method", None)  # misère: searched, or the answer stored
        res.pop("note", None)  # period: computed, or the stored certificate re-verified ...
        res.pop("values_checked", None)  # ... on the few values its certificate needs
    assert answers[0] == answers[1] == answers[2] == full == plain, args
    assert not (tmp_path / "other.sqlite").exists()  # --store wins over $CGTALG_STORE


def _stores(path: pathlib.Path, serve_stale: bool = False):
    from cgtalg.store import light, open_store

    full = open_store(path, serve_stale=serve_stale)
    lite = light.open_light_store(f"sqlite:///{path}", serve_stale=serve_stale)
    assert type(lite) is light.LightStore
    return full, lite


def _same_error(*calls):
    """The message of the StoreError every call raises, checked to be one message."""
    from cgtalg.errors import StoreError

    messages = []
    for call in calls:
        with pytest.raises(StoreError) as error:
            call()
        messages.append((type(error.value), str(error.value)))
    assert len(set(messages)) == 1, messages
    return messages[0][1]


def test_damaged_position_rows_are_refused_alike(tmp_path):
    """A position row whose text does not match its hash, and answers that contradict each
    other (a P-position with a winning move), are refused by both stores in one wording."""
    path = tmp_path / "s.sqlite"
    full, lite = _stores(path)
    full.put_position("misere:x", "4", "misere_outcome", "N")
    full.put_position("misere:x", "4", "misere_winning_moves", [[4, 1, [3]]])
    full.put_position("demo", "9", "answer", "N")
    with sqlite3.connect(path) as con:
        con.execute("UPDATE position_properties SET value = '\"P\"' WHERE name = 'misere_outcome'")
        con.execute("UPDATE positions SET position = '8' WHERE position = '9'")
    message = _same_error(lambda: lite.get_position("misere:x", "4", "misere_outcome"),
                          lambda: full.get_position("misere:x", "4", "misere_outcome"))
    assert "misere_winning_moves" in message and "'4' of 'misere:x'" in message
    message = _same_error(lambda: lite.get_position("demo", "9", "answer"),
                          lambda: full.get_position("demo", "9", "answer"),
                          lambda: lite.put_position("demo", "9", "answer", "N"),
                          lambda: full.put_position("demo", "9", "answer", "N"))
    assert message.endswith("is inconsistent: position 2 of 'demo' is 8, not 9")


def test_damaged_form_and_sequence_rows_are_refused_alike(tmp_path):
    import cgtalg as cg

    path = tmp_path / "s.sqlite"
    full, lite = _stores(path)
    g = cg.parse("{*2}")
    full.put(g, "note", [1])
    full.extend_sequence("grundy:0.07", 0, [0, 0, 1, 1, 2, 0, 3, 1])
    full.extend_sequence("grundy:0.07", 8, [1, 0, 3, 3])  # a second chunk row
    with sqlite3.connect(path) as con:
        con.execute("UPDATE form_properties SET value = '[1' WHERE name = 'note'")
        con.execute("UPDATE sequence_chunks SET data = x'00' WHERE start = 8")
    full.close()
    full, lite = _stores(path)
    message = _same_error(lambda: lite.get(g, "note"), lambda: full.get(g, "note"))
    assert "is not valid JSON" in message
    assert lite.sequence("grundy:0.07", 0, 8).tolist() == [0, 0, 1, 1, 2, 0, 3, 1]
    assert lite.sequence_values("grundy:0.07", 2, 6) == [1, 1, 2, 0]
    message = _same_error(lambda: lite.sequence("grundy:0.07"), lambda: full.sequence("grundy:0.07"),
                          lambda: lite.sequence_values("grundy:0.07"))
    assert "chunk 8 of sequence 'grundy:0.07' is unreadable" in message
    with sqlite3.connect(path) as con:
        con.execute("DELETE FROM sequence_chunks WHERE start = 8")
    message = _same_error(lambda: lite.sequence("grundy:0.07", 9), lambda: full.sequence("grundy:0.07", 9))
    assert "has no stored chunk for index 8" in message


def test_stale_sequences_are_counted_once_and_served_alike(tmp_path):
    """A sequence written by an older version of its algorithm: absent for both stores, counted
    once per read in ``stats``; served and recorded with ``serve_stale``."""
    path = tmp_path / "s.sqlite"
    full, lite = _stores(path)
    full.extend_sequence("grundy:0.07", 0, [0, 0, 1, 1])
    full.put_sequence_meta("grundy:0.07", {"periodicity": {"period": 34}})
    with sqlite3.connect(path) as con:
        con.execute("UPDATE sequences SET algorithm = 0")
    full.close()
    full, lite = _stores(path)
    for store in (full, lite):
        assert store.sequence_length("grundy:0.07") == 0 and store.sequence_meta("grundy:0.07") is None
        assert store.sequence("grundy:0.07").tolist() == []
        assert not store.sequence_provenance("grundy:0.07").current
    assert lite.sequence_values("grundy:0.07") == []
    assert full.stats == {"hits": 0, "misses": 0, "stale": 3}
    assert lite.stats == {"hits": 0, "misses": 0, "stale": 4}
    full, lite = _stores(path, serve_stale=True)
    for store in (full, lite):
        assert store.sequence("grundy:0.07").tolist() == [0, 0, 1, 1]
        assert store.sequence_meta("grundy:0.07") == {"periodicity": {"period": 34}}
    assert lite.sequence_values("grundy:0.07", 1) == [0, 1, 1]
    assert [(t, k) for t, k, _p in full.stale_served] == [("sequences", "sequence 'grundy:0.07'")] * 2
    assert [(t, k) for t, k, _p in lite.stale_served] == [("sequences", "sequence 'grundy:0.07'")] * 3
