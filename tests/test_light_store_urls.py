"""Every SQLite store opens on the light path, and a new one is created without SQLAlchemy or
Alembic (issue 35).

- The statements that create a new store (:data:`cgtalg.store.create.HEAD_DDL`, run through
  ``sqlite3``) make the same file Alembic's upgrade to head makes: the same ``sqlite_master``
  rows, columns, indexes and foreign keys, and the same stamp in ``alembic_version``.
- Stores named by ``sqlite:///`` URLs (relative and absolute, given by ``--store`` and by
  ``$CGTALG_STORE``) open on the light path, including when the command creates the store, and
  ``quotient`` reads a stored quotient there. Which store a command opened is read from
  ``sys.modules`` in a fresh interpreter (no timing asserts).
- Processes creating one store at once create it once; older stores still migrate through
  Alembic; form properties written by the light store read back equal through the full store.
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


def _schema(path: pathlib.Path) -> dict:
    """Everything of a store file's schema SQLite reports, and its ``alembic_version`` rows."""
    con = sqlite3.connect(path)
    try:
        master = [tuple(r) for r in con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid")]
        tables = [r[1] for r in master if r[0] == "table"]
        details = {}
        for t in tables:
            details[t] = {
                "columns": [tuple(r) for r in con.execute(f"PRAGMA table_xinfo({t})")],
                "indexes": [tuple(r[1:]) for r in con.execute(f"PRAGMA index_list({t})")],
                "foreign_keys": [tuple(r) for r in con.execute(f"PRAGMA foreign_key_list({t})")],
            }
            for index in details[t]["indexes"]:
                details[t][index[0]] = [tuple(r) for r in con.execute(f"PRAGMA index_xinfo({index[0]})")]
        return {"master": master, "details": details,
                "revision": [r[0] for r in con.execute("SELECT version_num FROM alembic_version")],
                "journal": con.execute("PRAGMA journal_mode").fetchone()[0]}
    finally:
        con.close()


def _alembic_store(path: pathlib.Path, revision: str = "head") -> None:
    """A store made by Alembic's own upgrade of an empty file to ``revision``."""
    from alembic import command
    from sqlalchemy import create_engine

    from cgtalg.store.migrate import alembic_config

    con = sqlite3.connect(path)  # the mode every store runs in, set before Alembic's run
    con.execute("PRAGMA journal_mode = WAL")
    con.close()
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as conn:
            with conn.begin():
                command.upgrade(alembic_config(connection=conn), revision)
    finally:
        engine.dispose()


def test_new_store_ddl_is_what_alembic_makes(tmp_path):
    """The file :func:`create_head_schema` makes equals the file of Alembic's upgrade to head,
    statement for statement; if this fails after a new migration, regenerate ``HEAD_DDL`` from
    ``SELECT sql FROM sqlite_master ORDER BY rowid`` of a store Alembic upgraded (and bump
    ``HEAD_REVISION``)."""
    from cgtalg.store.create import HEAD_DDL, HEAD_REVISION, create_head_schema

    by_alembic, by_sqlite3 = tmp_path / "alembic.sqlite", tmp_path / "sqlite3.sqlite"
    _alembic_store(by_alembic)
    assert create_head_schema(by_sqlite3) is True
    expected, got = _schema(by_alembic), _schema(by_sqlite3)
    assert got == expected
    assert got["revision"] == [HEAD_REVISION] and got["journal"] == "wal"
    assert [r[3] for r in expected["master"] if r[3] is not None] == list(HEAD_DDL)


def test_full_store_creates_the_same_file_and_later_opens_migrate(tmp_path):
    """The full store creates a new file with the same statements; a store Alembic left at an
    older revision is still migrated by Alembic (through the light opener too), to the same
    schema."""
    from cgtalg.store import open_store
    from cgtalg.store.create import HEAD_REVISION
    from cgtalg.store.light import LightStore, open_light_store
    from cgtalg.store.store import Store

    _alembic_store(tmp_path / "alembic.sqlite")
    open_store(tmp_path / "full.sqlite").close()
    assert _schema(tmp_path / "full.sqlite")["master"] == _schema(tmp_path / "alembic.sqlite")["master"]
    old = tmp_path / "old.sqlite"
    _alembic_store(old, "0002")
    assert _schema(old)["revision"] == ["0002"]
    opened = open_light_store(old)
    assert type(opened) is Store and opened.revision == HEAD_REVISION
    opened.close()
    assert _schema(old)["revision"] == [HEAD_REVISION]
    assert type(open_light_store(old)) is LightStore


def test_new_store_errors_as_the_full_store(tmp_path):
    """An empty file is a new store (created on the light path); a missing folder and a foreign
    database keep the full store's errors, in its words."""
    from cgtalg.errors import StoreCorruptError, StoreError
    from cgtalg.store import open_store
    from cgtalg.store.light import LightStore, open_light_store

    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    assert type(open_light_store(empty)) is LightStore
    missing = tmp_path / "no" / "such" / "s.sqlite"
    with pytest.raises(StoreError) as light_error:
        open_light_store(f"sqlite:///{missing}")
    with pytest.raises(StoreError) as full_error:
        open_store(missing)
    assert str(light_error.value) == str(full_error.value) and "does not exist" in str(full_error.value)
    assert not missing.parent.exists()
    foreign = tmp_path / "foreign.sqlite"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    with pytest.raises(StoreCorruptError) as light_error:
        open_light_store(foreign)
    with pytest.raises(StoreCorruptError) as full_error:
        open_store(foreign)
    assert str(light_error.value) == str(full_error.value)


_CREATE = (
    "import sys, time, pathlib\n"
    "from cgtalg.store.light import open_light_store\n"
    "from cgtalg.store import open_store\n"
    "go = pathlib.Path(sys.argv[2])\n"
    "while not go.exists():\n"
    "    time.sleep(0.001)\n"
    "store = (open_store if sys.argv[3] == 'full' else open_light_store)(sys.argv[1])\n"
    "store.put_position('demo', sys.argv[4], 'answer', int(sys.argv[4]))\n"
    "print(type(store).__name__, 'sqlalchemy' in sys.modules)\n"
)


def test_processes_creating_one_store_at_once_create_it_once(tmp_path):
    """Six processes (four light, two full) wait for one signal, then open the same new store
    and write to it: every one succeeds, the file holds one schema stamped once, and every
    write is there."""
    path, go = tmp_path / "shared.sqlite", tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    kinds = ["light", "full", "light", "light", "full", "light"]
    procs = [subprocess.Popen([sys.executable, "-c", _CREATE, str(path), str(go), kind, str(i)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i, kind in enumerate(kinds)]
    go.touch()
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * len(kinds), [err[-2000:] for _out, err in outs]
    assert [out.split()[0] for out, _err in outs] == ["Store" if k == "full" else "LightStore" for k in kinds]
    from cgtalg.store import open_store
    from cgtalg.store.create import HEAD_DDL, HEAD_REVISION

    schema = _schema(path)
    assert schema["revision"] == [HEAD_REVISION]
    assert [r[3] for r in schema["master"] if r[3] is not None] == list(HEAD_DDL)
    store = open_store(path)
    assert [store.get_position("demo", str(i), "answer") for i in range(len(kinds))] == list(range(len(kinds)))


def test_light_form_writes_read_back_as_the_full_stores(tmp_path):
    """Form properties written by the light store (new forms keyed there) are the rows the full
    store writes: the same forms, found again by the full store's keying, with the same values;
    a different value is refused in the same words."""
    import cgtalg as cg
    from cgtalg.errors import StoreError
    from cgtalg.store import open_store
    from cgtalg.store.light import LightStore, open_light_store

    games = [cg.parse("{*2}"), cg.nim(3) + cg.nim(5), cg.parse("{*, {*2, *3}}"), cg.parse("{{*2}, *}")]
    light = open_light_store(tmp_path / "light.sqlite")
    assert type(light) is LightStore
    full = open_store(tmp_path / "full.sqlite")
    for g in games:
        for store in (light, full):
            store.put(g, "grundy", cg.grundy(g))
            assert store.memo(g, "misere_grundy", lambda: cg.misere_grundy(g)) == cg.misere_grundy(g)
    assert light._full is None  # nothing went to the full store
    light.close()
    full.close()
    rows = {}
    for name in ("light", "full"):  # ids are per store; the forms they name and their values agree
        store = open_store(tmp_path / f"{name}.sqlite")
        before = store.info()["forms"]
        store.form_ids(games)  # the full store finds every form the light store keyed
        assert store.info()["forms"] == before
        con = sqlite3.connect(tmp_path / f"{name}.sqlite")
        rows[name] = (before, sorted((store.game(i).id, n, v, h, a) for i, n, v, h, a in
                                     con.execute("SELECT form_id, name, value, value_hash, algorithm FROM form_properties")))
        con.close()
        store.close()
    assert rows["light"] == rows["full"]
    reread = open_store(tmp_path / "light.sqlite")
    assert [reread.get(g, "grundy") for g in games] == [cg.grundy(g) for g in games]
    errors = []
    for store in (open_light_store(tmp_path / "light.sqlite"), open_store(tmp_path / "full.sqlite")):
        with pytest.raises(StoreError) as err:
            store.put(games[1], "grundy", 99)
        errors.append(str(err.value).replace(str(tmp_path / "full.sqlite"), str(tmp_path / "light.sqlite")))
    assert errors[0] == errors[1] and "refusing to overwrite" in errors[0]


_RUN = (
    "import io, json, sys, contextlib\n"
    "from cgtalg.cli.main import main\n"
    "out = io.StringIO()\n"
    "with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):\n"
    "    code = main(sys.argv[1:])\n"
    "print(json.dumps({'code': code, 'out': out.getvalue(), 'sqlalchemy': 'sqlalchemy' in sys.modules}))\n"
)


def _cli(args: list[str], cwd: pathlib.Path, env_store: str | None = None) -> tuple[dict, bool]:
    """A command's JSON answer (without its timings and store notes) and whether SQLAlchemy loaded."""
    env = {k: v for k, v in os.environ.items() if k != "CGTALG_STORE"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")
    if env_store is not None:
        env["CGTALG_STORE"] = env_store
    out = subprocess.run([sys.executable, "-c", _RUN, *args, "--json"], capture_output=True, text=True, env=env,
                         cwd=cwd)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["code"] == 0, got
    res = json.loads(got["out"])
    for key in ("seconds", "run_seconds", "store", "resumed_from", "hint", "progress", "stored", "from_store"):
        res.pop(key, None)
    return res, got["sqlalchemy"]


@pytest.mark.parametrize("given", ["option", "env"])
@pytest.mark.parametrize("form", ["sqlite:///{rel}", "sqlite:///{abs}", "sqlite:///./{rel}"])
def test_url_stores_take_the_light_path_from_creation(tmp_path, given, form):
    """A command creating its store through a ``sqlite:///`` URL, and the commands reading it
    afterwards, never import SQLAlchemy; their answers equal ``--no-store``'s."""
    name = f"s-{given}.sqlite"
    url = form.format(rel=name, abs=tmp_path / name)
    store = ["--store", url] if given == "option" else []
    env_store = url if given == "env" else None
    for args in (["game", "{*2}"], ["game", "{*2}"], ["value", "domineering", "4x4"], ["outcome", "0.07", "5"]):
        res, heavy = _cli([*store, *args], tmp_path, env_store)
        assert not heavy, (url, args)
        plain, _heavy = _cli([*args, "--no-store"], tmp_path)
        assert res == plain, args
    assert (tmp_path / name).is_file()


def test_quotient_reads_a_stored_quotient_without_sqlalchemy(tmp_path):
    """Once ``quotient`` stored a quotient, running it again reads it on the light path (URL and
    plain path), with the answer ``--no-store`` computes."""
    url = "sqlite:///q.sqlite"
    for code in ("0.77", "0.15", "0.123"):
        first, _heavy = _cli(["--store", url, "quotient", code], tmp_path)
        plain, _heavy = _cli(["quotient", code, "--no-store"], tmp_path)
        assert first == plain
        for store, env_store in ((["--store", url], None), ([], str(tmp_path / "q.sqlite"))):
            again, heavy = _cli([*store, "quotient", code], tmp_path, env_store)
            assert not heavy, code
            assert again == plain, code


def test_a_store_created_by_another_process_between_two_looks_opens_light(tmp_path, monkeypatch):
    """The race CI once met: the first look finds no tables, another process then creates the
    store at the head, so the second look (``new_store_path``) finds tables and declines; the
    store is still opened light, not through the full store."""
    import cgtalg.store.light as light
    from cgtalg.store.create import create_head_schema

    path = tmp_path / "raced.sqlite"
    real = light.new_store_path

    def another_process_got_there_first(url):
        create_head_schema(path)
        return real(url)  # None now: the file has tables

    monkeypatch.setattr(light, "new_store_path", another_process_got_there_first)
    store = light.open_light_store(path)
    assert type(store) is light.LightStore
    store.put_position("demo", "x", "answer", 1)
    assert store.get_position("demo", "x", "answer") == 1
