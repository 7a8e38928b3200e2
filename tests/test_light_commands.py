"""Light commands answer without the heavy modules (issue 23, part 4: "a small question should
not pay for a kernel it does not need"), with the answers they gave before.

Checked in fresh interpreters through ``sys.modules`` (no timing asserts; the times are in
``benchmarks/bench_startup.py`` and docs/performance.md). Each command runs twice on one
store, the second run (warm: the store holds what the first stored) is inspected.

Also cross-checked here: the kernels' Python code (what small work runs,
:func:`cgtalg.rulesets.heaps.lazy_jit.python_kernels`) against the compiled kernels, and the plain
Python misère search against a brute force written here from the rules of Kayles.

Reference values: Kayles (0.77) Grundy values and period 12 from heap 71 (Winning Ways ch. 4,
Guy & Smith 1956); Dawson's Kayles (0.07) period 34, last exceptional value G(52) (Winning Ways
ch. 4); ω ⊗ ω = ω² and ω³ = 2 in the nimbers (ONAG ch. 6).

The light store (:mod:`cgtalg.store.light`: a store file at the newest schema read and written
through ``sqlite3``, without SQLAlchemy) is checked against the full store: the same answers,
each reading what the other wrote, the same provenance, errors and refusals; its schema head is
checked against Alembic's. The nimbers' cached GF(2^16) tables are checked against tables
computed afresh.
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
import sqlite3
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
HEAVY = ("numba", "scipy", "sympy", "networkx", "alembic", "matplotlib", "tqdm")
#: heavy modules reported besides HEAVY (a test says which of them a command may load)
REPORTED = HEAVY + ("sqlalchemy", "numpy")
_RUN = (
    "import io, json, sys, contextlib\n"
    "from cgtalg.cli.main import main\n"
    "out = io.StringIO()\n"
    "with contextlib.redirect_stdout(out):\n"
    "    code = main({args!r})\n"
    "print(json.dumps({{'code': code, 'out': out.getvalue(), 'heavy': [m for m in {heavy!r} if m in sys.modules]}}))\n"
)


def _cli(args: list[str], store: pathlib.Path) -> dict:
    env = {**os.environ, "CGTALG_STORE": str(store),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", _RUN.format(args=args, heavy=REPORTED)], capture_output=True,
                         text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["code"] == 0, got
    return got


def _warm(args: list[str], store: pathlib.Path) -> dict:
    _cli(args, store)
    return _cli(args, store)


def test_nim_commands_load_no_sympy_numpy_numba_or_sqlalchemy(tmp_path):
    store = tmp_path / "s.sqlite"
    for args, shown in ((["nim", "mul", "w", "w", "--json"], "ω^2"), (["nim", "pow", "w", "3", "--json"], 2),
                        (["nim", "add", "w+1", "5", "--json"], "ω+4"), (["nim", "mul", "w^w", "w^w", "--json"], None),
                        (["nim", "inv", "w", "--json"], "ω^2·3")):
        got = _warm(args, store)
        assert got["heavy"] == [], (args, got["heavy"])  # numpy too: the GF(2^16) tables are cached
        if shown is not None:
            assert json.loads(got["out"])["result"] == shown, (args, got["out"])


def test_small_heap_commands_load_nothing_heavy(tmp_path):
    """Warm, on a store at the newest schema: no SQLAlchemy (the light store), no numba, no
    numpy (small heaps' values in plain Python: cgtalg.rulesets.heaps.small_grundy)."""
    store = tmp_path / "s.sqlite"
    got = _warm(["outcome", "0.77", "5", "9", "--json"], store)
    assert got["heavy"] == []
    res = json.loads(got["out"])
    assert (res["values"], res["outcome"]) == ([4, 4], "P")  # G(5) = G(9) = 4 (Winning Ways ch. 4)
    got = _warm(["grundy", "0.77", "-n", "100", "--json"], store)
    assert got["heavy"] == []  # the stored values, read without numpy
    values = json.loads(got["out"])["values"]
    assert values[:13] == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
    assert all(values[n] == values[n + 12] for n in range(71, 88))  # period 12 from heap 71
    got = _warm(["period", "0.07", "--json"], store)
    assert got["heavy"] == []  # 176 values re-checked in plain Python
    res = json.loads(got["out"])
    assert (res["period"], res["preperiod"], res["certified"]) == (34, 53, True)
    assert "re-verified" in res["note"]  # the stored certificate was checked again


def test_more_small_heap_questions_load_nothing_heavy(tmp_path):
    """Normal and misère outcomes with winning moves, other codes, Grundy's game: fresh (cold)
    and warm, no numpy, numba or SQLAlchemy; the answers as tests/test_small_grundy.py checks."""
    store = tmp_path / "s.sqlite"
    for args in (["outcome", "0.77", "5", "9", "11", "30"], ["outcome", "0.07", "3", "4", "5"],
                 ["outcome", "grundy", "7", "20"], ["outcome", "0.137", "6", "9", "--misere"],
                 ["grundy", "4.07", "-n", "200"], ["grundy", "S(1,3,4)", "-n", "60"]):
        got = _cli([*args, "--json", "--no-store"], store)
        assert got["heavy"] == [], (args, got["heavy"])
        got = _warm([*args, "--json"], store)
        assert got["heavy"] == [], (args, got["heavy"])
    res = json.loads(_cli(["outcome", "0.77", "5", "9", "11", "30", "--json"], store)["out"])
    assert res["values"] == [4, 4, 6, 7] and res["nim_sum"] == 1  # Winning Ways ch. 4
    assert [m["parts"] for m in res["winning_moves"]] == [[7, 21], [9, 19], [13, 15]]


def test_small_misere_outcome_game_and_value_load_nothing_heavy(tmp_path):
    store = tmp_path / "s.sqlite"
    got = _warm(["outcome", "0.77", "7", "9", "11", "13", "--misere", "--json"], store)
    assert got["heavy"] == []
    res = json.loads(got["out"])
    assert res["outcome"] == _kayles_misere_outcome((7, 9, 11, 13))
    assert res["winning_move_count"] == sum(
        1 for child in _kayles_children((7, 9, 11, 13)) if _kayles_misere_outcome(child) == "P")
    got = _warm(["game", "{*2}", "--json"], store)
    assert got["heavy"] == []  # numpy too: the quotient door loads on use
    got = _warm(["value", "domineering", "2x2", "--json"], store)
    assert got["heavy"] == []
    assert json.loads(got["out"])["canonical_form"] == "±1"  # 2x2 Domineering (Winning Ways ch. 2)


# -- the kernels' Python code against the compiled kernels ----------------------------------


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "4.07", "0.6", "0.123", "0.[3]", "0x0.F"])
def test_python_kernels_agree_with_compiled(code):
    """The values, the sparse split and the rare positions of the first 400 values (and a
    periodicity search over them) are the same whether the kernels run compiled or as Python."""
    from cgtalg.rulesets.heaps import grundy_engine as GE
    from cgtalg.rulesets.heaps.lazy_jit import compile_kernels, python_kernels
    from cgtalg.rulesets.heaps.octal import TakeAndBreak
    from cgtalg.rulesets.heaps import grundy_kernels as K

    def state(small: bool):
        r = TakeAndBreak(code)
        eng = GE.GrundyEngine(r)
        limit = 10**12 if small else -1
        import cgtalg.rulesets.heaps.lazy_jit as LJ

        old, LJ.PYTHON_WORK = LJ.PYTHON_WORK, limit
        try:
            for stop in (37, 150, 400):
                eng.extend(stop, progress=False)
            split = eng.sparse_split()
        finally:
            LJ.PYTHON_WORK = old
        return (eng.G[:eng.n].tolist(), eng.mode, None if split is None else (split.mask, split.cbit0, split.cbit1),
                int(eng.nrare), eng.rare[:eng.nrare].tolist(), int(eng.vmax))

    py = state(True)
    compile_kernels(vars(K))
    assert state(False) == py
    import numpy as np

    G = np.asarray(py[0], dtype=np.int64)
    with python_kernels(10**12):
        z_py = K.tail_match_lengths(G, len(G), np.zeros(len(G) // 2 + 1, dtype=np.int64)).tolist()
        s_py = tuple(int(x) for x in K.saltus_scan(G, len(G), len(G) // 4, 3))
    assert K.tail_match_lengths(G, len(G), np.zeros(len(G) // 2 + 1, dtype=np.int64)).tolist() == z_py
    assert tuple(int(x) for x in K.saltus_scan(G, len(G), len(G) // 4, 3)) == s_py


# -- the plain misère search against a brute force --------------------------------------------


def _kayles_children(heaps: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Kayles (Winning Ways ch. 4): knock down one pin or two adjacent pins of a row."""
    out = set()
    for i, h in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1:]
        for take in (1, 2):
            for left in range(0, h - take + 1):
                right = h - take - left
                out.add(tuple(sorted(rest + tuple(x for x in (left, right) if x))))
    return out


@functools.lru_cache(maxsize=None)
def _kayles_misere_outcome(heaps: tuple[int, ...]) -> str:
    kids = _kayles_children(heaps)
    if not kids:
        return "N"  # misère: the player who cannot move wins
    return "N" if any(_kayles_misere_outcome(k) == "P" for k in kids) else "P"


@functools.lru_cache(maxsize=None)
def _kayles_misere_grundy(heaps: tuple[int, ...]) -> int:
    kids = _kayles_children(heaps)
    if not kids:
        return 1
    seen = {_kayles_misere_grundy(k) for k in kids}
    return min(set(range(len(seen) + 1)) - seen)


def test_plain_misere_search_agrees_with_brute_force_and_kernel():
    import itertools

    from cgtalg.rulesets.heaps import misere_play as M
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    positions = [p for k in (1, 2, 3) for p in itertools.combinations_with_replacement(range(1, 9), k)]
    positions += [(7, 9, 11), (3, 5, 7, 9)]
    r = TakeAndBreak("0.77")
    for classes in (False, True):
        srch = M.MisereSearch(r, classes)
        for p in positions:
            s = srch.normalize(p)
            assert srch._python_search(s, False, 10**6) == (1 if _kayles_misere_outcome(p) == "N" else 0), p
            if sum(p) <= 16:
                assert srch._python_search(s, True, 10**6) == _kayles_misere_grundy(p), p
    kernel = M.MisereSearch(r, True)
    plain = M.MisereSearch(r, True)
    for p in positions:
        s = kernel.normalize(p)
        k_out = kernel._run(s, False, None, None, None) if "cgtalg.rulesets.heaps._misere_kernel" in sys.modules \
            else None
        if k_out is None:
            import cgtalg.rulesets.heaps._misere_kernel  # noqa: F401  (the compiled search from now on)

            k_out = kernel._run(s, False, None, None, None)
        assert k_out == plain._python_search(plain.normalize(p), False, 10**6), p
        assert kernel._run(s, True, None, None, None) == plain._python_search(plain.normalize(p), True, 10**6), p


def test_plain_search_names_the_state_budget():
    from cgtalg.errors import ComputationLimitError
    from cgtalg.rulesets.heaps import misere_play as M
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    srch = M.MisereSearch(TakeAndBreak("0.77"), False)
    with pytest.raises(ComputationLimitError, match="max_states=50 states"):
        srch._python_search(srch.normalize((9, 10, 11)), False, 50)


# -- the light store against the full store -------------------------------------------------


def _answer(args: list[str], store_option: list[str], env_store: pathlib.Path) -> tuple[dict, list[str]]:
    """A command's JSON answer (without its timing) and the heavy modules it loaded."""
    got = _cli([*store_option, *args, "--json"], env_store)
    res = json.loads(got["out"])
    res.pop("seconds", None)
    return res, got["heavy"]


LIGHT_ANSWERS = [
    ["game", "{*2}"],
    pytest.param(["game", "{0, *, {*2, *3}}"], marks=pytest.mark.slow),
    pytest.param(["outcome", "0.77", "7", "9", "11", "13", "--misere"], marks=pytest.mark.slow),
    ["outcome", "0.77", "13", "9", "2", "9", "--misere"],  # moves name the first heap of each size
    ["grundy", "0.77", "-n", "100"],
    ["value", "domineering", "2x3"],
]


@pytest.mark.parametrize("args", LIGHT_ANSWERS)
def test_light_and_full_store_answer_alike_and_read_each_other(tmp_path, args):
    """Each command three ways: without a store; on a store the full store wrote (a URL naming
    the driver, ``sqlite+pysqlite://``, opens the full store), read back by the light store; on a
    store the light store wrote, read back by the full store."""
    from cgtalg.store import open_store

    full_first, light_first = tmp_path / "full.sqlite", tmp_path / "light.sqlite"
    open_store(light_first).close()  # at the newest schema, empty: the light store writes to it
    url = ["--store", f"sqlite+pysqlite:///{full_first}"]
    plain, _ = _answer([*args, "--no-store"], [], full_first)
    wrote_full, heavy = _answer(args, url, full_first)
    assert "sqlalchemy" in heavy, args
    read_light, heavy = _answer(args, [], full_first)
    assert "sqlalchemy" not in heavy, (args, heavy)
    wrote_light, heavy_w = _answer(args, [], light_first)
    read_full, _ = _answer(args, url[:1] + [f"sqlite+pysqlite:///{light_first}"], light_first)
    for res in (read_light, read_full, wrote_full, wrote_light):
        res.pop("store", None)  # the store's URL: two different files
    assert read_light == read_full and wrote_full == wrote_light, args
    if "--misere" in args:  # a repeated small misère question is read back, not searched again
        assert read_light["method"] == read_full["method"] == "stored answer", args
    for res in (plain, read_light, wrote_full):
        res.pop("from_store", None)  # which properties were read from a store (game)
        if "--misere" in args:
            res.pop("method", None)  # how: search, quotient, or the answer stored by either
    assert plain == wrote_full == read_light, args
    if args[0] in ("outcome", "value"):  # only position records written: no full store needed
        assert "sqlalchemy" not in heavy_w, (args, heavy_w)


def test_head_revision_and_tables_are_alembics():
    """The light store knows the head revision and the tables without Alembic or SQLAlchemy;
    here they are checked against Alembic's head of migrations/ and the schema module."""
    from alembic.script import ScriptDirectory

    from cgtalg.store import light
    from cgtalg.store.migrate import alembic_config
    from cgtalg.store.schema import metadata

    assert list(ScriptDirectory.from_config(alembic_config()).get_heads()) == [light.HEAD_REVISION]
    assert set(light.TABLES) == set(metadata.tables)


def _stores(path: pathlib.Path, serve_stale: bool = False):
    from cgtalg.store import light, open_store

    full = open_store(path, serve_stale=serve_stale)
    lite = light.open_light_store(path, serve_stale=serve_stale)
    assert type(lite) is light.LightStore
    return full, lite


def test_light_store_opens_only_a_file_at_the_head(tmp_path):
    from cgtalg.errors import StoreCorruptError, StoreSchemaError
    from cgtalg.store import light, open_store

    path = tmp_path / "s.sqlite"
    assert light.light_store_path(path) is None  # no file yet: created at the head by sqlite3 (issue 35)
    assert type(light.open_light_store(path)) is light.LightStore
    assert light.light_store_path(path) == path
    assert light.light_store_path(f"sqlite:///{path}") == path  # sqlite:////abs/path: the same file
    for other in (":memory:", f"sqlite:///{path}?mode=ro", f"sqlite+pysqlite:///{path}", f"sqlite://localhost/{path}"):
        assert light.light_store_path(other) is None, other
    open_store(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE alembic_version SET version_num = '0042_from_the_future'")
    con.commit()
    con.close()
    assert light.light_store_path(path) is None
    with pytest.raises(StoreSchemaError) as light_error:
        light.open_light_store(path)
    with pytest.raises(StoreSchemaError) as full_error:
        open_store(path)
    assert str(light_error.value) == str(full_error.value)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database" * 100)
    with pytest.raises(StoreCorruptError) as light_error:
        light.open_light_store(junk)
    with pytest.raises(StoreCorruptError) as full_error:
        open_store(junk)
    assert str(light_error.value) == str(full_error.value)


def test_light_store_positions_as_the_full_store(tmp_path):
    import pickle

    from cgtalg.errors import StoreError

    path = tmp_path / "s.sqlite"
    full, lite = _stores(path)
    lite.put_position("demo", "7 5", "answer", {"b": (1, 2), "a": True})
    assert full.get_position("demo", "7 5", "answer") == {"a": True, "b": [1, 2]}
    full.put_position("demo", "9", "answer", "N")
    assert lite.get_position("demo", "9", "answer") == "N"
    assert lite.get_position("demo", "9", "other") is None and lite.get_position("other", "9", "answer") is None
    assert lite.memo_position("demo", "3", "answer", lambda: [3]) == [3]
    assert lite.memo_position("demo", "3", "answer", lambda: 1 / 0) == [3]
    assert lite.stats == {"hits": 1, "misses": 1, "stale": 0}
    assert full.get_position("demo", "3", "answer") == [3]
    assert lite.position_provenance("demo", "3", "answer") == full.position_provenance("demo", "3", "answer")
    lite.put_position("demo", "9", "answer", "N")  # the same value again: nothing happens
    with pytest.raises(StoreError) as light_error:
        lite.put_position("demo", "9", "answer", "P")
    with pytest.raises(StoreError) as full_error:
        full.put_position("demo", "9", "answer", "P")
    assert str(light_error.value) == str(full_error.value)
    assert "refusing to overwrite" in str(light_error.value)
    with sqlite3.connect(path) as con:  # the write was one transaction: nothing of it stayed
        assert con.execute("SELECT count(*) FROM positions").fetchone()[0] == 3
    assert lite.url == full.url and lite.location == full.location and repr(lite) == repr(full)
    assert pickle.loads(pickle.dumps(lite)).url == full.url


def test_light_store_stale_and_unreadable_rows_as_the_full_store(tmp_path):
    from cgtalg.errors import StoreCorruptError

    path = tmp_path / "s.sqlite"
    full, lite = _stores(path)
    full.put_position("demo", "9", "answer", "N")
    full.put_position("demo", "8", "answer", "P")
    with sqlite3.connect(path) as con:  # written by an older version of its algorithm: stale
        con.execute("UPDATE position_properties SET algorithm = 0 WHERE value = '\"N\"'")
        con.execute("UPDATE position_properties SET value = '{oops' WHERE value = '\"P\"'")
    full.close()
    full, lite = _stores(path)
    assert lite.get_position("demo", "9", "answer") is None is full.get_position("demo", "9", "answer")
    assert lite.stats == full.stats == {"hits": 0, "misses": 0, "stale": 1}
    with pytest.raises(StoreCorruptError) as light_error:
        lite.get_position("demo", "8", "answer")
    with pytest.raises(StoreCorruptError) as full_error:
        full.get_position("demo", "8", "answer")
    assert str(light_error.value) == str(full_error.value)
    full, lite = _stores(path, serve_stale=True)
    assert lite.get_position("demo", "9", "answer") == "N" == full.get_position("demo", "9", "answer")
    assert lite.stale_served == full.stale_served and len(lite.stale_served) == 1
    lite.put_position("demo", "9", "answer", "N")  # a stale row is replaced by the current one
    assert full.position_provenance("demo", "9", "answer").current


def test_light_store_forms_and_sequences_as_the_full_store(tmp_path):
    import cgtalg as cg

    path = tmp_path / "s.sqlite"
    full, lite = _stores(path)
    games = [cg.parse("{*2}"), cg.parse("{0, *, *2 | *3}"), cg.nim(10**18), cg.parse("{*, {*2} | 0}"),
             cg.parse_partizan("{1 | {0 | -1}}")]
    for i, g in enumerate(games):
        full.put(g, "note", [i, "x"])
    for i, g in enumerate(games):
        assert lite.get(g, "note") == [i, "x"] == full.get(g, "note")
        assert lite.get(g, "other") is None
    assert lite.get(cg.parse("{*5}"), "note") is None  # a form the store lacks
    assert lite.memo(cg.nim(7), "note", lambda: 7) == 7 == full.get(cg.nim(7), "note")
    full.extend_sequence("grundy:0.07", 0, [0, 0, 1, 1, 2, 0, 3, 1])
    full.extend_sequence("grundy:0.07", 8, [1, 0, 3, 3])  # a second chunk row
    full.put_sequence_meta("grundy:0.07", {"periodicity": {"period": 34}})
    assert lite.sequence_length("grundy:0.07") == 12
    assert lite.sequence("grundy:0.07").tolist() == full.sequence("grundy:0.07").tolist()
    assert lite.sequence("grundy:0.07", 6, 10).tolist() == [3, 1, 1, 0]
    assert lite.sequence_meta("grundy:0.07") == full.sequence_meta("grundy:0.07") == {"periodicity": {"period": 34}}
    assert lite.sequence_provenance("grundy:0.07") == full.sequence_provenance("grundy:0.07")
    assert lite.sequence_length("none") == 0 and lite.sequence_meta("none") is None
    lite.extend_sequence("grundy:0.07", 12, [2])  # handed to the full store
    assert full.sequence("grundy:0.07", 12).tolist() == [2]


def test_light_store_has_every_method_of_the_full_store():
    from cgtalg.store.light import LightStore
    from cgtalg.store.store import Store

    public = {name for name in dir(Store) if not name.startswith("_") and callable(getattr(Store, name))}
    assert public <= set(vars(LightStore)) | {name for name in dir(LightStore) if not name.startswith("_")}


# -- the nimbers' GF(2^16) tables, cached ---------------------------------------------------


def test_cached_gf16_tables_equal_computed_ones_and_damage_is_recomputed(tmp_path, monkeypatch):
    from cgtalg.nimbers import finite
    from cgtalg.nimbers import gf16_tables as tables

    computed = tables._computed_tables()
    assert {name: finite._T16[name] for name in tables.TABLE_NAMES} == computed
    # a ⊗ b on bytes by the definition's recursion (ONAG ch. 6): 2 ⊗ 2 = 3, 4 ⊗ 4 = 6, 16 ⊗ 16 = 24
    assert [computed["bytes"][(a << 8) | a] for a in (2, 4, 16)] == [3, 6, 24]
    paths = [tmp_path / "a" / "t.bin", tmp_path / "b" / "t.bin"]
    monkeypatch.setattr(tables, "_cache_files", lambda: paths)
    assert tables._load_tables() == computed and paths[0].is_file()
    assert tables._read_cache(paths[0]) == computed
    data = bytearray(paths[0].read_bytes())
    data[5000] ^= 1
    paths[0].write_bytes(bytes(data))
    assert tables._read_cache(paths[0]) is None
    paths[0].write_bytes(bytes(data[:7000]))
    assert tables._read_cache(paths[0]) is None
    assert tables._load_tables() == computed  # recomputed and written again
    assert tables._read_cache(paths[0]) == computed


def _light_writer(path: str, worker: int, queue) -> None:
    from cgtalg.store.light import LightStore, open_light_store

    store = open_light_store(path)
    kinds = {type(store) is LightStore}
    for i in range(30):  # the same keys in every process, each write its own transaction
        store.memo_position("demo", str(i), "answer", lambda i=i: {"i": i, "square": i * i})
        store.put_position("demo", f"{worker}-{i}", "answer", worker)
    queue.put(kinds)


def test_light_store_writers_in_several_processes_share_one_file(tmp_path):
    """Four processes memoise the same positions at once (write lock taken at BEGIN IMMEDIATE,
    the busy timeout waiting for it): one row per key, the same value read back everywhere."""
    import multiprocessing

    from cgtalg.store import open_store

    path = tmp_path / "s.sqlite"
    open_store(path).close()
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    workers = [ctx.Process(target=_light_writer, args=(str(path), w, queue)) for w in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
        assert w.exitcode == 0
    assert [queue.get(timeout=10) for _ in workers] == [{True}] * 4
    full = open_store(path)
    assert [full.get_position("demo", str(i), "answer") for i in range(30)] == [{"i": i, "square": i * i} for i in range(30)]
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT count(*) FROM positions").fetchone()[0] == 30 + 4 * 30
        assert con.execute("SELECT count(*) FROM position_properties").fetchone()[0] == 30 + 4 * 30


def test_stored_misere_winning_moves_are_reread_in_the_order_given_and_verified(tmp_path):
    """The winning moves a misère search stores are read back for the heaps in any order (each
    move naming the first heap of its size), equal the brute force's, and `store verify`
    recomputes them and reports a tampered record."""
    from cgtalg.rulesets.heaps import misere_play as M
    from cgtalg.rulesets.heaps.octal import TakeAndBreak
    from cgtalg.store import open_store, verify_store

    path = tmp_path / "s.sqlite"
    store = open_store(path)
    heaps = [9, 2, 13, 9]
    first = M.misere_search_winning_moves(TakeAndBreak("0.77"), heaps, store)
    again = M.misere_search_winning_moves(TakeAndBreak("0.77"), heaps, store)
    other = M.misere_search_winning_moves(TakeAndBreak("0.77"), [13, 9, 9, 2], store)  # the same record
    assert first == again
    assert M.winning_moves_record(other) == M.winning_moves_record(first)
    assert sorted(m.result(heaps) for m in first) == sorted(
        c for c in _kayles_children(tuple(sorted(heaps))) if _kayles_misere_outcome(c) == "P")
    assert {m.heap_index for m in first} <= {0, 1, 2}  # the first 9, never the second
    report = verify_store(store, sample=None)
    assert report["ok"], report["problems"]
    with sqlite3.connect(path) as con:
        con.execute("UPDATE position_properties SET value = '[]' WHERE name = 'misere_winning_moves'")
    report = verify_store(open_store(path), sample=None)
    assert not report["ok"] and "misere_winning_moves" in json.dumps(report["problems"])


def test_small_misere_answers_from_a_quotient_are_stored_in_one_order_and_verified(tmp_path):
    """A small misère question answered from a quotient keeps its outcome and winning moves as
    position answers, in one order whatever found them, and `store verify` re-checks them by
    search (seed 000: 0.123 heaps 9 8 5 3 is misère N; the moves are compared with the search's)."""
    from cgtalg.quotients.construct import misere_quotient
    from cgtalg.rulesets.heaps.play import heap_outcome, heap_winning_moves, stored_misere_answer
    from cgtalg.rulesets.heaps.misere_play import misere_search_winning_moves
    from cgtalg.rulesets.heaps.octal import TakeAndBreak
    from cgtalg.store import open_store
    from cgtalg.store.verify import verify_store

    store = open_store(tmp_path / "q.sqlite")
    try:
        r = TakeAndBreak("0.123")
        misere_quotient(r, store=store)  # final, stored
        heaps = [9, 8, 5, 3]
        assert stored_misere_answer(r, heaps, store) is None
        assert heap_outcome(r, heaps, misere=True, store=store) == "N"
        moves = heap_winning_moves(r, heaps, misere=True, store=store)
        searched = misere_search_winning_moves(TakeAndBreak("0.123"), heaps)
        key = lambda m: (m.heap, m.removed, m.parts)  # noqa: E731
        assert sorted(map(key, moves)) == sorted(map(key, searched)) and moves
        outcome, back = stored_misere_answer(r, [3, 5, 8, 9], store)  # heaps in another order
        assert outcome == "N" and sorted(map(key, back)) == sorted(map(key, moves))
        assert all([3, 5, 8, 9][m.heap_index] == m.heap for m in back)
        result = verify_store(store, sample=None)
        assert not result["problems"], result["problems"]
    finally:
        store.close()
