"""The game-tree explorer (issue 23, item 1): cgtalg.GameExplorer and cgtalg.explorer_html.

Python side: the message protocol's options, outcomes and values against brute-force play
written here from the rules (Kayles: knock down one pin or two adjacent pins; Domineering:
Left places vertical dominoes, Right horizontal ones, Winning Ways ch. 1-2), the first row of
Kayles' Grundy values from Winning Ways (ch. 4, the Kayles table: 0 1 2 3 1 4 3 2 1 4 2 6), DAG
sharing, lazy expansion of huge games, the named refusals.

Browser side: headless Chromium (Debian's /usr/bin/chromium) driven by Playwright opens the
exported page, clicks positions open and shut, reads their colours and labels, switches to misère
play; and a page whose model forwards the custom messages to a Python responder (a localhost
HTTP endpoint calling the widget's own handler) explores lazily. Without Chromium or Playwright
these skip, unless the environment variable CI is set: then they fail.
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import cgtalg as cg
from cgtalg.errors import GameKindError, NodeNotFoundError
from cgtalg.viz.explorer import ExplorerSource, asset_text, explorer_html
from cgtalg.viz.game_tree import OUTCOME_COLOURS

ROOT = pathlib.Path(__file__).resolve().parents[1]

# --- brute force, from the rules -------------------------------------------------------------


def kayles_options(heaps: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Kayles: from one row knock down one pin or two adjacent pins, leaving two rows."""
    out = set()
    for i, h in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1:]
        for take in (1, 2):
            for left in range(0, h - take + 1):
                right = h - take - left
                out.add(tuple(sorted(x for x in rest + (left, right) if x)))
    return out


@functools.lru_cache(maxsize=None)
def kayles_outcome(heaps: tuple[int, ...], misere: bool) -> str:
    opts = kayles_options(heaps)
    if not opts:
        return "N" if misere else "P"
    return "N" if any(kayles_outcome(o, misere) == "P" for o in opts) else "P"


@functools.lru_cache(maxsize=None)
def kayles_grundy_single(n: int) -> int:
    """Grundy value of one row by mex over the options (XOR of the two parts)."""
    vals = {kayles_grundy_single(a) ^ kayles_grundy_single(n - t - a) for t in (1, 2) for a in range(n - t + 1)}
    return next(k for k in range(len(vals) + 1) if k not in vals)


def kayles_grundy(heaps: tuple[int, ...]) -> int:
    g = 0
    for h in heaps:
        g ^= kayles_grundy_single(h)
    return g


@functools.lru_cache(maxsize=None)
def kayles_misere_grundy(heaps: tuple[int, ...]) -> int:
    """Misère Grundy value from the definition: 1 at the end, else mex of the options'."""
    opts = kayles_options(heaps)
    if not opts:
        return 1
    vals = {kayles_misere_grundy(o) for o in opts}
    return next(k for k in range(len(vals) + 1) if k not in vals)


def heaps_of(text: str) -> tuple[int, ...]:
    return tuple(sorted(int(t) for t in text.split("+") if int(t))) if text not in ("0", "") else ()


def grid_of(text: str) -> frozenset[tuple[int, int]]:
    """The empty cells of a Domineering board text (rows joined by ``|``, ``.`` empty)."""
    if text == "empty":
        return frozenset()
    return frozenset((r, c) for r, row in enumerate(text.split("|")) for c, ch in enumerate(row) if ch == ".")


def domineering_moves(cells: frozenset, player: str) -> set[frozenset]:
    dr, dc = (1, 0) if player == "L" else (0, 1)  # Left vertical, Right horizontal
    return {cells - {(r, c), (r + dr, c + dc)} for (r, c) in cells if (r + dr, c + dc) in cells}


@functools.lru_cache(maxsize=None)
def domineering_wins(cells: frozenset, mover: str, misere: bool = False) -> bool:
    """Whether ``mover`` wins moving first (normal play: who cannot move loses; misère: wins)."""
    other = "R" if mover == "L" else "L"
    moves = domineering_moves(cells, mover)
    if not moves:
        return misere
    return any(not domineering_wins(o, other, misere) for o in moves)


def domineering_outcome(cells: frozenset, misere: bool = False) -> str:
    left_first, right_first = domineering_wins(cells, "L", misere), domineering_wins(cells, "R", misere)
    if left_first and right_first:
        return "N"
    return "L" if left_first else "R" if right_first else "P"


# --- Python side ------------------------------------------------------------------------------


def test_front_end_files_ship_in_the_package():
    # read through importlib.resources, as an installed wheel reads them
    from importlib import resources

    for name in ("explorer.js", "explorer.css"):
        assert resources.files("cgtalg.viz").joinpath(name).is_file()
        assert asset_text(name)
    assert "export default" in asset_text("explorer.js")
    # and hatch puts them into the wheel (the same file selection as `pip wheel`, without building)
    from hatchling.builders.wheel import WheelBuilder

    files = {f.distribution_path for f in WheelBuilder(str(ROOT)).recurse_included_files()}
    assert {"cgtalg/viz/explorer.js", "cgtalg/viz/explorer.css", "cgtalg/viz/explorer.py"} <= files


def test_import_cgtalg_does_not_load_anywidget():
    code = ("import sys, cgtalg as cg; cg.explorer_html('{*2}', 1); "
            "assert 'anywidget' not in sys.modules; cg.GameExplorer; assert 'anywidget' in sys.modules")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]


def _walk(src: ExplorerSource, depth: int) -> dict[str, dict]:
    """Every node within ``depth`` moves, expanded through the message protocol."""
    replies, frontier = {}, [src.root]
    for _ in range(depth):
        nxt = []
        for nid in frontier:
            if nid in replies:
                continue
            reply = src.handle({"type": "expand", "id": nid})
            assert reply["type"] == "options", reply
            replies[nid] = reply
            nxt += [o["id"] for o in reply["options"]]
        frontier = nxt
    return replies


def test_kayles_options_outcomes_and_values_against_brute_force():
    src = ExplorerSource(cg.position("0.77", 4, 7))
    replies = _walk(src, 3)
    assert len(replies) > 30
    seen_ids: dict[tuple, str] = {}
    for nid, reply in replies.items():
        heaps = src.position_of(nid)
        assert heaps_of(src.info(nid)["title"]) == heaps
        kids = {src.position_of(o["id"]): o["id"] for o in reply["options"]}
        assert set(kids) == kayles_options(heaps)            # every option, none twice
        assert len(set(kids.values())) == len(kids)
        assert all(o["mover"] is None for o in reply["options"])
        for pos, oid in kids.items():
            assert seen_ids.setdefault(pos, oid) == oid      # one id per position (the DAG)
            info = reply["nodes"][oid]
            assert info["outcome"] == {"normal": kayles_outcome(pos, False), "misere": kayles_outcome(pos, True)}
            assert info["value"]["normal"] == f"G = {kayles_grundy(pos)}"
            # the genus g^(g- g0 g1 ...): its base is the Grundy value, its first exponent the
            # misère Grundy value
            genus = info["value"]["misere"].removeprefix("genus ")
            assert genus.split("^")[0] == str(kayles_grundy(pos))
            assert genus.split("^")[1].lstrip("(")[0] == str(kayles_misere_grundy(pos))
            assert info["terminal"] == (not kayles_options(pos))


def test_kayles_single_rows_carry_winning_ways_grundy_values():
    # Winning Ways ch. 4, the Kayles table, first row: K(0..11) = 0 1 2 3 1 4 3 2 1 4 2 6
    src = ExplorerSource(cg.position("0.77", 13))
    reply = src.handle({"type": "expand", "id": src.root})
    single = {src.position_of(o["id"]): reply["nodes"][o["id"]]["value"]["normal"] for o in reply["options"]}
    assert [single[(n,)] for n in (11, 12)] == ["G = 6", "G = 4"]
    row = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    assert all(kayles_grundy_single(n) == row[n] for n in range(12))


def test_dag_sharing_one_id_per_position():
    src = ExplorerSource(cg.position("0.77", 6))
    replies = _walk(src, 3)
    parents: dict[str, set] = {}
    for nid, reply in replies.items():
        for o in reply["options"]:
            parents.setdefault(o["id"], set()).add(nid)
    # (1, 2) is reached from (1, 4) and from (2, 3) (and more): one node
    shared = src.node_id((1, 2))
    assert len(parents[shared]) >= 2
    # as many nodes as distinct positions within 3 moves of 6, by brute force
    reach, level = {(6,)}, {(6,)}
    for _ in range(3):
        level = {o for p in level for o in kayles_options(p)}
        reach |= level
    assert {src.position_of(n) for n in {src.root} | set(parents)} == reach
    assert len({src.root} | set(parents)) == len(reach)
    # the static state holds each node once
    state = src.state(3)
    assert set(state["nodes"]) == {src.root} | set(parents)


def test_domineering_sides_and_outcomes_against_brute_force():
    src = ExplorerSource(cg.position("domineering", "3x3"))
    replies = _walk(src, 2)
    assert src.info(src.root)["board"] == ["...", "...", "..."]
    for nid, reply in replies.items():
        cells = grid_of(src.info(nid)["title"])
        assert src.info(nid)["outcome"] == {"normal": domineering_outcome(cells),
                                            "misere": domineering_outcome(cells, misere=True)}
        for side in ("L", "R"):
            mine = [o["id"] for o in reply["options"] if o["mover"] in (side, "LR")]
            # the same outcomes for the options as the rules give (the ruleset trims and
            # normalises boards, so options are compared by what they are worth)
            brute = sorted(domineering_outcome(c) for c in domineering_moves(cells, side))
            shown = sorted(domineering_outcome(grid_of(src.info(o)["title"])) for o in mine)
            assert set(shown) == set(brute) and len(shown) <= len(brute)
            assert bool(shown) == bool(brute)
    root = src.info(src.root)
    assert root["outcome"]["normal"] == "N" and root["value"]["normal"] == str(
        cg.canonical_form(cg.position("domineering", "3x3")))


def test_partizan_form_options_by_side():
    src = ExplorerSource("{1, *|-1}")
    reply = src.handle({"type": "expand", "id": src.root})
    by_side = {(reply["nodes"][o["id"]]["label"], o["mover"]) for o in reply["options"]}
    assert by_side == {("1", "L"), ("*", "L"), ("-1", "R")}
    assert {reply["nodes"][o["id"]]["outcome"]["normal"] for o in reply["options"]} == {"L", "N", "R"}
    both = ExplorerSource("{0, 1|0}")
    reply = both.handle({"type": "expand", "id": both.root})
    assert {(reply["nodes"][o["id"]]["label"], o["mover"]) for o in reply["options"]} == {("0", "LR"), ("1", "L")}
    state = src.state(1)
    assert state["sided"] and set(state["legend"]) == {"L", "R", "N", "P"}
    assert state["colours"]["L"] == OUTCOME_COLOURS["L"]


def test_huge_games_are_expanded_lazily():
    src = ExplorerSource(cg.nim(10**18), max_options=5)
    reply = src.handle({"type": "expand", "id": src.root})
    assert [reply["nodes"][o["id"]]["label"] for o in reply["options"]] == ["0", "*", "*2", "*3", "*4"]
    assert reply["more"] == 10**18 - 5
    big = ExplorerSource(cg.position("0.77", 10**9, 10**9))
    assert big.info(big.root)["outcome"]["normal"] == "P"  # two equal heaps: the mirror strategy
    # the genus of such heaps needs their misère forms, past the memory ceiling: shown as ?, why kept
    assert big.info(big.root)["value"]["misere"] == "genus ?"
    assert "memory ceiling" in big.info(big.root)["notes"]["misere"]
    assert big.info(big.root)["outcome"]["misere"] == "P"  # from Kayles' final misère quotient
    assert len(big.state(0)["nodes"]) == 1
    refused = big.handle({"type": "expand", "id": big.root})  # too many moves to list: said so
    assert refused["type"] == "error" and "not listed one by one" in refused["message"]


def test_errors_are_named():
    src = ExplorerSource("{*2}")
    bad = src.handle({"type": "expand", "id": "n77"})
    assert bad["type"] == "error" and "has no node 'n77'" in bad["message"]
    with pytest.raises(NodeNotFoundError, match="no node 'n77'"):
        src.expand("n77")
    assert src.handle({"type": "nonsense"})["type"] == "error"
    with pytest.raises(GameKindError, match="own end rule"):
        ExplorerSource(cg.position("parity", 5), misere=True)
    with pytest.raises(GameKindError, match="not a game tree"):
        ExplorerSource("on")
    par = ExplorerSource(cg.position("parity", 5))
    assert par.state(1)["plays"] == ["normal"] and par.sided


def test_widget_answers_custom_messages_and_displays_everywhere():
    w = cg.GameExplorer(cg.position("0.77", 5), depth=1)
    sent = []
    w.send = sent.append
    w._on_custom_message(w, {"type": "expand", "id": "n1"}, [])
    assert sent[0]["type"] == "options" and sent[0]["id"] == "n1"
    assert {w.source.position_of(o["id"]) for o in sent[0]["options"]} == kayles_options(w.source.position_of("n1"))
    assert w.nodes[w.root]["outcome"]["normal"] == kayles_outcome((5,), False)
    assert set(w.expansions) == {w.root}
    bundle = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/html"].startswith('<iframe class="cgtalg-explorer" srcdoc="&lt;!DOCTYPE html&gt;')
    assert w.play == "normal" and cg.GameExplorer("{*2}", misere=True).play == "misere"
    view = w.static_view(depth=2)
    assert view._repr_html_().startswith('<iframe class="cgtalg-explorer"') and '"expansions"' in view.html


# --- browser side -----------------------------------------------------------------------------

# Debian's chromium, or the browser named by CGTALG_CHROMIUM (a path that does not exist: none)
CHROMIUM = os.environ.get("CGTALG_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM = CHROMIUM if os.path.exists(CHROMIUM) else None
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    missing = ("Playwright for Python (pip install playwright)" if sync_playwright is None
               else "Chromium (apt-get install chromium)" if CHROMIUM is None else None)
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"the explorer's browser tests need {missing}; CI installs it (.ci/run)")
        pytest.skip(f"no {missing} here")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def rgb(hex_colour: str) -> str:
    h = hex_colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[i:i + 2], 16) for i in (0, 2, 4)))


def open_page(browser, url):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]", timeout=10_000)
    return page, errors


def rows_under(page, row_selector):
    """(id, outcome, colour, label, value, mover) of the options shown under a row."""
    return page.eval_on_selector_all(
        f"{row_selector} > .cgx-children .cgx-node",
        """rows => rows.map(r => [r.dataset.id, r.dataset.outcome,
            getComputedStyle(r.querySelector(':scope > .cgx-head > .cgx-box')).backgroundColor,
            r.querySelector(':scope > .cgx-head .cgx-label').textContent,
            r.querySelector(':scope > .cgx-head > .cgx-value').textContent,
            r.dataset.mover || null])""")


def test_static_page_click_expands_and_collapses(browser, tmp_path):
    src = ExplorerSource(cg.position("0.77", 5))
    path = tmp_path / "kayles.html"
    explorer_html(src, depth=2, path=str(path))
    page, errors = open_page(browser, path.as_uri())
    root = f'.cgx-tree > .cgx-node[data-id="{src.root}"]'
    # the root opens expanded: its options, coloured by their brute-force outcomes
    shown = rows_under(page, root)
    assert {heaps_of(r[3]) for r in shown} == kayles_options((5,))
    for _id, outcome, colour, label, value, mover in shown:
        assert outcome == kayles_outcome(heaps_of(label), False)
        assert colour == rgb(OUTCOME_COLOURS[outcome]) and mover is None
        assert value == f"G = {kayles_grundy(heaps_of(label))}"
    # click an option open: its own options appear; click again: they go
    child = next(r for r in shown if heaps_of(r[3]) == (1, 2))
    sel = f'{root} > .cgx-children > .cgx-node[data-id="{child[0]}"]'
    page.click(f"{sel} > .cgx-head")
    grand = rows_under(page, sel)
    assert {heaps_of(r[3]) for r in grand} == kayles_options((1, 2))
    assert all(r[2] == rgb(OUTCOME_COLOURS[kayles_outcome(heaps_of(r[3]), False)]) for r in grand)
    page.click(f"{sel} > .cgx-head")
    assert rows_under(page, sel) == []
    # misère play: every row recoloured by its misère outcome, genus beside it
    page.click(".cgx-play")
    again = rows_under(page, root)
    for _id, outcome, colour, label, value, _m in again:
        assert outcome == kayles_outcome(heaps_of(label), True) and colour == rgb(OUTCOME_COLOURS[outcome])
        assert value.startswith(f"genus {kayles_grundy(heaps_of(label))}^")
    # past the exported depth the page says so instead of guessing
    page.click(f"{sel} > .cgx-head")
    deep = next(r for r in rows_under(page, sel) if heaps_of(r[3]) == (1, 1))
    deep_sel = f'{sel} > .cgx-children > .cgx-node[data-id="{deep[0]}"]'
    page.click(f"{deep_sel} > .cgx-head")
    page.wait_for_selector(f"{deep_sel} > .cgx-error")
    assert "2 moves deep" in page.inner_text(f"{deep_sel} > .cgx-error")
    assert errors == []
    page.close()


def test_static_page_partizan_sides(browser, tmp_path):
    src = ExplorerSource(cg.position("domineering", "2x3"))
    path = tmp_path / "dom.html"
    path.write_text(explorer_html(src, depth=1))
    page, errors = open_page(browser, path.as_uri())
    root = f'.cgx-tree > .cgx-node[data-id="{src.root}"]'
    cells = grid_of("...|...")
    for side in ("L", "R"):
        rows = page.eval_on_selector_all(
            f'{root} > .cgx-children > .cgx-side[data-side="{side}"] > .cgx-children > .cgx-node',
            """rows => rows.map(r => [r.dataset.mover, r.dataset.outcome,
                getComputedStyle(r.querySelector(':scope > .cgx-head > .cgx-box')).backgroundColor,
                r.querySelector('.cgx-box').title])""")
        assert rows and all(r[0] == side for r in rows)
        assert {r[1] for r in rows} == {domineering_outcome(c) for c in domineering_moves(cells, side)}
        assert all(r[1] == domineering_outcome(grid_of(r[3])) and r[2] == rgb(OUTCOME_COLOURS[r[1]]) for r in rows)
    root_colour = page.eval_on_selector(f"{root} > .cgx-head > .cgx-box", "e => getComputedStyle(e).backgroundColor")
    assert root_colour == rgb(OUTCOME_COLOURS[domineering_outcome(cells)])
    assert page.inner_text(f"{root} > .cgx-head > .cgx-value") == str(cg.canonical_form(cg.position("domineering", "2x3")))
    assert errors == []
    page.close()


def test_lazy_page_asks_python_for_options(browser):
    w = cg.GameExplorer(cg.position("0.77", 7), depth=0)
    asked = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's name
            body = w.to_html(depth=0, responder="/msg").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):  # noqa: N802
            msg = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            asked.append(msg)
            body = json.dumps(w.handle_message(msg)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        page, errors = open_page(browser, f"http://127.0.0.1:{server.server_port}/")
        root = f'.cgx-tree > .cgx-node[data-id="{w.root}"]'
        assert rows_under(page, root) == []           # nothing sent in advance
        page.click(f"{root} > .cgx-head")
        page.wait_for_selector(f"{root}[data-expanded=true]")
        shown = rows_under(page, root)
        assert asked == [{"type": "expand", "id": w.root}]
        assert {heaps_of(r[3]) for r in shown} == kayles_options((7,))
        assert all(r[1] == kayles_outcome(heaps_of(r[3]), False) and r[2] == rgb(OUTCOME_COLOURS[r[1]])
                   for r in shown)
        # a second level, and the same position shown twice is asked for once
        pick = [r for r in shown if heaps_of(r[3]) in ((1, 4), (2, 3))]
        for r in pick:
            sel = f'{root} > .cgx-children > .cgx-node[data-id="{r[0]}"]'
            page.click(f"{sel} > .cgx-head")
            page.wait_for_selector(f"{sel}[data-expanded=true]")
            assert {heaps_of(x[3]) for x in rows_under(page, sel)} == kayles_options(heaps_of(r[3]))
        ones = page.eval_on_selector_all(f'.cgx-node[data-id="{w.source.node_id((1, 3))}"]', "rs => rs.length")
        assert ones == 2 and page.locator(".cgx-again").count() >= 1
        sel = f'.cgx-node[data-id="{w.source.node_id((1, 3))}"]'
        page.click(f"{sel} >> nth=0 >> .cgx-head")
        page.wait_for_selector(f"{sel}[data-expanded=true] >> nth=0")
        page.click(f"{sel} >> nth=1 >> .cgx-head")
        page.wait_for_selector(f"{sel}[data-expanded=true] >> nth=1")
        assert [m["id"] for m in asked].count(w.source.node_id((1, 3))) == 1
        assert errors == []
        page.close()
    finally:
        server.shutdown()
        server.server_close()
