"""An interactive game-tree explorer: click a position to expand its options, coloured by outcome.

Two front doors, one front end (``explorer.js`` and ``explorer.css`` beside this module):

- :class:`GameExplorer`, a notebook widget (anywidget, https://anywidget.dev; installed with ``pip install
  "cgtalg[notebook]"``). Expansion is lazy: when a position is opened, the browser asks Python
  for its options by a custom message (``{"type": "expand", "id": ...}``) and Python answers
  with the options and their outcomes and values (:meth:`ExplorerSource.handle`), so a game of
  any size can be explored one position at a time.
- :func:`explorer_html` (and :meth:`GameExplorer.to_html`), a self-contained HTML page running
  the same front end with a small in-page model, the game's DAG expanded to ``depth`` moves in
  advance: for the documentation site and for tests, without a Jupyter server.

What is shown, by kind of game (the doors of :mod:`cgtalg.ops` compute every figure):

- impartial forms and positions of impartial rulesets (heap games: a position is a tuple of
  heaps; boards): P/N outcome colours in normal and in misère play (a toggle switches the
  play), the Grundy value (normal play) or the genus (misère play) beside the position;
- partizan forms and positions of partizan rulesets (Domineering, Konane, ...): L/R/N/P
  outcome colours (normal play, and misère play as a second view), the canonical value beside
  the position, Left's and Right's options in two groups (an option of both players is in both);
- positions of rulesets with their own end rule (Guy's parity game): the outcome only.

Positions are identified by their form id (forms are hash-consed) or by the ruleset's position
(heap tuples are sorted), so a position reached by two routes is one node of the DAG: it has one
id, its options are asked for once, and the front end marks each further place it appears.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any, Hashable

from cgtalg.errors import (ArgumentError, ArgumentTypeError, CgtalgError, ComputationLimitError, GameKindError,
                           NodeNotFoundError)
from cgtalg.viz.game_tree import OUTCOME_COLOURS, _MOVER_COLOURS, _OUTCOME_NAMES

__all__ = ["GameExplorer", "ExplorerSource", "ExplorerPage", "explorer_html", "asset_text"]

#: the front end's files, shipped inside the package (cgtalg/viz/)
ASSETS = ("explorer.js", "explorer.css")


def asset_text(name: str) -> str:
    """The text of one of the front end's files (:data:`ASSETS`), read with importlib.resources
    (so it is found in a wheel as in a checkout).

    Raises
    ------
    ArgumentError
        If ``name`` is not one of :data:`ASSETS`.
    """
    if name not in ASSETS:
        raise ArgumentError(f"asset_text: no front-end file {name!r}; the files are {', '.join(ASSETS)}")
    return resources.files("cgtalg.viz").joinpath(name).read_text(encoding="utf-8")


#: a row of a board position's text (Domineering ``..#|...``, Konane ``xo.|ox.``)
_BOARD_ROW = re.compile(r"[^\s\d+{}(),;:]+")


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: max(1, n - 3)] + "..."


def _sides(left: list, right: list) -> list[tuple[Any, str]]:
    """Options of both players as ``(option, mover)``, mover ``"L"``, ``"R"`` or ``"LR"`` (an
    option of both players), Left's first: the marking of
    :func:`cgtalg.rulesets.solver.build_dag`'s edges."""
    rset, lset = set(right), set(left)
    out = [(q, "LR" if q in rset else "L") for q in left]
    return out + [(q, "R") for q in right if q not in lset]


class ExplorerSource:
    """The Python side of the explorer: node ids for positions, what each node shows, and the
    answer to the front end's messages. :class:`GameExplorer` holds one; tests and
    :func:`explorer_html` use it without a widget.

    Parameters
    ----------
    game
        An impartial form (:class:`cgtalg.Game`), a partizan form (:class:`cgtalg.PartizanGame`),
        game text (read by :func:`cgtalg.parse`), a finite nimber, or a position of a ruleset
        (:func:`cgtalg.position`: heap games, boards such as Domineering).
    misere : bool
        Show misère play first (the other play is a click away where both have meaning).
    max_options : int
        Send at most this many options of one position (the rest are counted: ``*10**18`` has
        10^18 options).
    label_chars : int
        Cut position texts and values to this many characters (the full text is the tooltip).

    Raises
    ------
    GameKindError
        For a loopy game, a misère canonical form, a transfinite nimber or anything that is not
        a game; for ``misere=True`` with a ruleset that decides the winner by its own end rule.
    ArgumentError
        For ``max_options`` or ``label_chars`` below 1.

    Examples
    --------
    >>> import cgtalg as cg
    >>> src = ExplorerSource(cg.parse("{*2, *}"))
    >>> reply = src.handle({"type": "expand", "id": src.root})
    >>> [reply["nodes"][o["id"]]["label"] for o in reply["options"]]
    ['*', '*2']
    >>> src.info(src.root)["outcome"], src.info(src.root)["value"]
    ({'normal': 'P', 'misere': 'N'}, {'normal': 'G = 0', 'misere': 'genus 0^120'})
    """

    def __init__(self, game: Any, *, misere: bool = False, max_options: int = 200,
                 label_chars: int = 60) -> None:
        from cgtalg.core.game import Game
        from cgtalg.core.partizan import PartizanGame
        from cgtalg.ops.kinds import Position, kind_of, read

        for name, v in (("max_options", max_options), ("label_chars", label_chars)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise ArgumentTypeError(f"ExplorerSource: {name} must be an int, got {type(v).__name__}")
            if v < 1:
                raise ArgumentError(f"ExplorerSource: {name} must be at least 1, got {v}")
        self.max_options = max_options
        self.label_chars = label_chars
        g = read(game)
        kind = kind_of(g, "GameExplorer")
        if kind == "nimber":
            from cgtalg.ops.kinds import finite_nimber_value

            n = finite_nimber_value(g)
            if n is None:
                raise GameKindError(f"GameExplorer({g}): a transfinite nimber has infinitely many "
                                    "options of every size below it; explore a finite one")
            from cgtalg.core.game import nim

            g = nim(n)
        elif kind in ("loopy", "misere class"):
            raise GameKindError(
                f"GameExplorer({_clip(str(g), 60)}): a {kind} is not a game tree to expand (the "
                "explorer takes forms, game text, finite nimbers and ruleset positions)")
        if isinstance(g, Game):
            self.kind, self.ruleset = "impartial", None
        elif isinstance(g, PartizanGame):
            self.kind, self.ruleset = "partizan", None
        else:
            assert isinstance(g, Position)
            self.ruleset = g.ruleset
            self.kind = ("end rule" if g.has_end_rule else "partizan" if g.is_partizan
                         else "impartial")
            g = g.value
        #: whether Left's and Right's options are given apart (partizan forms and rulesets)
        self.sided = self.kind == "partizan" or (self.ruleset is not None and self._ruleset_sided())
        self._Position = Position
        self.plays = ["normal"] if self.kind == "end rule" else ["normal", "misere"]
        if misere and "misere" not in self.plays:
            raise GameKindError(f"GameExplorer({self._text(g)}): {self.ruleset.name} decides the "
                                "winner by its own end rule, so it has no misère play; explore "
                                "it with misere=False")
        self.play = "misere" if misere else "normal"
        self.title = (f"{self.ruleset.name} {self._text(g)}" if self.ruleset is not None
                      else _clip(self._text(g), 120))
        self._ids: dict[Hashable, str] = {}
        self._objs: dict[str, Any] = {}
        self._infos: dict[str, dict] = {}
        self.root = self._id(g)

    # --- what a node is -------------------------------------------------------------------

    def _key(self, obj: Any) -> Hashable:
        if self.ruleset is not None:
            # a ruleset's text names its position (the store keys positions by it), so boards
            # that print alike (a shape moved along the board) are one node
            return ("position", self._text(obj))
        return (self.kind, obj.id)

    def _id(self, obj: Any) -> str:
        key = self._key(obj)
        nid = self._ids.get(key)
        if nid is None:
            nid = self._ids[key] = f"n{len(self._ids)}"
            self._objs[nid] = obj
        return nid

    def _text(self, obj: Any) -> str:
        if self.ruleset is not None:
            from cgtalg.rulesets.protocol import format_position

            return format_position(self.ruleset, obj)
        if self.kind == "impartial":
            from cgtalg.core.notation import format_game

            return format_game(obj, max_chars=2000)
        return _clip(str(obj), 2000)

    def _ruleset_sided(self) -> bool:
        from cgtalg.rulesets.protocol import is_partizan

        return is_partizan(self.ruleset)

    def _door_arg(self, obj: Any) -> Any:
        return self._Position(self.ruleset, obj) if self.ruleset is not None else obj

    def _options(self, obj: Any) -> tuple[list[tuple[Any, str | None]], int]:
        """The options of ``obj`` as ``(option, mover)`` (at most ``max_options``), and how many
        more there are."""
        cap = self.max_options
        if self.ruleset is not None:
            from cgtalg.rulesets.protocol import player_moves

            if self.sided:
                opts = _sides(player_moves(self.ruleset, obj, "L"), player_moves(self.ruleset, obj, "R"))
            else:
                opts = [(q, None) for q in player_moves(self.ruleset, obj)]
        elif self.sided:
            opts = _sides(list(obj.left), list(obj.right))
        else:
            n = obj.nim_heap_size()
            if n is not None:  # *n: the options *0..*(n-1), made only as far as they are shown
                from cgtalg.core.game import nim

                return [(nim(k), None) for k in range(min(n, cap))], max(0, n - cap)
            opts = [(q, None) for q in obj.options]
        return opts[:cap], max(0, len(opts) - cap)

    def _has_options(self, obj: Any) -> bool:
        if self.ruleset is not None:
            try:
                if self.sided:
                    return any(True for _ in self.ruleset.left_moves(obj)) or any(
                        True for _ in self.ruleset.right_moves(obj))
                return any(True for _ in self.ruleset.moves(obj))
            except ComputationLimitError:  # too many moves to list (heaps past 10^7): not an end
                return True
        if self.sided:
            return bool(obj.left or obj.right)
        n = obj.nim_heap_size()
        return bool(n) if n is not None else bool(obj.options)

    def _values(self, obj: Any) -> tuple[dict, dict, dict]:
        """Outcomes and values by play, and the reason for each figure past cgtalg's limits (a
        misère canonical form too large to build, say), which is shown as ``?``."""
        import cgtalg as cg

        x = self._door_arg(obj)
        notes: dict[str, str] = {}

        def figure(play: str, fn: Any, fmt: str = "{}") -> str:
            try:
                return _clip(fmt.format(fn()), self.label_chars)
            except ComputationLimitError as exc:
                notes[play] = (notes.get(play, "") + " " + str(exc)).strip()
                return fmt.format("?")

        outcome = {p: figure(p, lambda p=p: cg.outcome(x, misere=(p == "misere"))) for p in self.plays}
        if self.kind == "impartial":
            value = {"normal": figure("normal", lambda: cg.grundy(x), "G = {}"),
                     "misere": figure("misere", lambda: cg.genus(x), "genus {}")}
        elif self.kind == "partizan":
            value = {"normal": figure("normal", lambda: cg.canonical_form(x)), "misere": ""}
        else:
            value = {"normal": ""}
        return outcome, value, notes

    def info(self, node_id: str) -> dict:
        """What node ``node_id`` shows: ``label`` (its text, cut), ``title`` (the full text),
        ``board`` (the rows of a board position, else None), ``outcome`` and ``value`` by play
        (``{"normal": ..., "misere": ...}``; ``?`` for a figure past cgtalg's limits, whose
        reason is in ``notes`` by play), ``terminal``.

        Raises
        ------
        NodeNotFoundError
            If no node has that id.
        """
        got = self._infos.get(node_id)
        if got is not None:
            return got
        obj = self._obj(node_id)
        text = self._text(obj)
        outcome, value, notes = self._values(obj)
        board = None
        if self.ruleset is not None and not hasattr(self.ruleset, "heap_options"):
            rows = text.split("|")
            if (len({len(r) for r in rows}) == 1 and len(text) <= 400
                    and all(_BOARD_ROW.fullmatch(r) for r in rows) and any(c in text for c in ".#")):
                board = rows
        got = self._infos[node_id] = {
            "label": _clip(text, self.label_chars), "title": text, "board": board,
            "outcome": outcome, "value": value, "notes": notes, "terminal": not self._has_options(obj),
        }
        return got

    def _obj(self, node_id: Any) -> Any:
        try:
            return self._objs[node_id]
        except (KeyError, TypeError):
            raise NodeNotFoundError(f"the explorer of {self.title} has no node {node_id!r} "
                                    f"(its nodes so far: n0 .. n{len(self._objs) - 1})") from None

    def position_of(self, node_id: str) -> Any:
        """The form or ruleset position of node ``node_id``.

        Raises
        ------
        NodeNotFoundError
            If no node has that id.
        """
        return self._obj(node_id)

    def node_id(self, position: Any) -> str:
        """The id of a form or ruleset position (made if new): one id per distinct position."""
        return self._id(position)

    # --- the protocol ---------------------------------------------------------------------

    def expand(self, node_id: str) -> dict:
        """The reply to ``{"type": "expand", "id": node_id}``: ``{"type": "options", "id",
        "options": [{"id", "mover"}], "more", "nodes": {id: info}}`` (``mover`` is None for
        impartial games, else ``"L"``, ``"R"`` or ``"LR"``; ``more`` counts options not sent).

        Raises
        ------
        NodeNotFoundError
            If no node has that id.
        """
        opts, more = self._options(self._obj(node_id))
        movers: dict[str, str | None] = {}  # options that print alike are one node
        for q, m in opts:
            nid = self._id(q)
            had = movers.get(nid, m)
            movers[nid] = m if had == m else "LR"
        options = [{"id": nid, "mover": m} for nid, m in movers.items()]
        return {"type": "options", "id": node_id, "options": options, "more": more,
                "nodes": {o["id"]: self.info(o["id"]) for o in options}}

    def handle(self, msg: Any) -> dict:
        """Answer one message of the front end. ``{"type": "expand", "id": ...}`` is answered by
        :meth:`expand`; anything else, and any cgtalg error on the way (an unknown node, a
        computation past its limit), by ``{"type": "error", "id", "message"}``, shown beside the
        node."""
        node_id = msg.get("id") if isinstance(msg, dict) else None
        if not isinstance(msg, dict) or msg.get("type") != "expand":
            return {"type": "error", "id": node_id,
                    "message": f"the explorer answers {{'type': 'expand', 'id': ...}}, not {_clip(repr(msg), 80)}"}
        try:
            return self.expand(node_id)
        except CgtalgError as exc:
            return {"type": "error", "id": node_id, "message": str(exc)}

    def state(self, depth: int = 1, max_nodes: int = 2000) -> dict:
        """The front end's initial state: the root, its DAG expanded ``depth`` moves deep (at
        most ``max_nodes`` nodes: past them the rest stays to be asked for), colours, plays.

        Raises
        ------
        ArgumentError
            If ``depth`` or ``max_nodes`` is negative.
        """
        for name, v in (("depth", depth), ("max_nodes", max_nodes)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise ArgumentTypeError(f"explorer: {name} must be an int, got {type(v).__name__}")
            if v < 0:
                raise ArgumentError(f"explorer: {name} must be non-negative, got {v}")
        nodes = {self.root: self.info(self.root)}
        expansions: dict[str, dict] = {}
        frontier, complete = [self.root], True
        for _ in range(depth):
            nxt = []
            for nid in frontier:
                if nid in expansions or nodes[nid]["terminal"]:
                    continue
                if len(nodes) >= max_nodes:
                    complete = False
                    break
                reply = self.expand(nid)
                expansions[nid] = {"options": reply["options"], "more": reply["more"]}
                for oid, inf in reply["nodes"].items():
                    if oid not in nodes:
                        nodes[oid] = inf
                        nxt.append(oid)
            frontier = nxt
        kinds = ["L", "R", "N", "P"] if self.kind in ("partizan", "end rule") else ["P", "N"]
        return {
            "root": self.root, "nodes": nodes, "expansions": expansions, "depth": depth,
            "complete": complete, "kind": self.kind, "sided": self.sided, "plays": list(self.plays),
            "play": self.play, "title": self.title,
            "colours": {k: OUTCOME_COLOURS[k] for k in [*kinds, "?"]},
            "legend": {k: _OUTCOME_NAMES[k] for k in kinds},
            "mover_colours": {k: _MOVER_COLOURS[k] for k in ("L", "R")},
        }


# --- the static page -------------------------------------------------------------------------

_SHIM = r"""
const handlers = {};
const emit = (ev, ...args) => (handlers[ev] || []).slice().forEach((f) => f(...args));
const model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; emit("change:" + k, { name: k, new: v }); },
  on: (ev, f) => { (handlers[ev] = handlers[ev] || []).push(f); },
  off: (ev, f) => {
    if (ev === undefined) { for (const k in handlers) delete handlers[k]; return; }
    handlers[ev] = f ? (handlers[ev] || []).filter((g) => g !== f) : [];
  },
  save_changes: () => {},
  send: (msg) => {
    const deliver = (reply) => emit("msg:custom", reply, []);
    if (responder) {
      fetch(responder, { method: "POST", headers: { "Content-Type": "application/json" },
                         body: JSON.stringify(msg) })
        .then((r) => r.json())
        .then(deliver, (e) => deliver({ type: "error", id: msg.id, message: String(e) }));
    } else {
      setTimeout(() => deliver({ type: "error", id: msg.id, message:
        "this page holds the game " + state.depth + " moves deep; open it in a notebook " +
        "(cgtalg.GameExplorer) or export it deeper to go further" }), 0);
    }
  },
};
const url = URL.createObjectURL(new Blob([esm], { type: "text/javascript" }));
const mod = await import(url);
mod.default.render({ model, el: document.getElementById("cgx-root") });
document.body.dataset.ready = "true";
"""


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element."""
    return (json.dumps(value, ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\!--")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _page(state: dict, responder: str | None) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(state['title'])}</title>\n<style>{asset_text('explorer.css')}</style>"
        "</head>\n<body><div id=\"cgx-root\"></div>\n<script type=\"module\">\n"
        f"const state = {_script_json(state)};\nconst esm = {_script_json(asset_text('explorer.js'))};\n"
        f"const responder = {_script_json(responder)};\n{_SHIM}</script>\n</body></html>\n"
    )


def explorer_html(game: Any, depth: int = 2, *, path: str | None = None, misere: bool = False,
                  max_nodes: int = 2000, max_options: int = 200, responder: str | None = None) -> str:
    """A self-contained HTML page exploring ``game``: the widget's front end run by a small
    in-page model, with the DAG expanded ``depth`` moves deep in advance.

    Parameters
    ----------
    game
        What :class:`ExplorerSource` takes (a form, game text, a ruleset position), or an
        :class:`ExplorerSource` (then ``misere`` and ``max_options`` are its own).
    depth : int
        How many moves deep the page holds the game (positions past it say so when opened).
    path : str, optional
        Also write the page to this file.
    misere : bool
        Show misère play first.
    max_nodes : int
        Hold at most about this many positions (the expansion stops at the first level that
        passes it).
    max_options : int
        At most this many options of one position.
    responder : str, optional
        A URL to which the page POSTs the front end's messages (JSON) for the positions past
        ``depth``; it answers with :meth:`ExplorerSource.handle`'s reply (the tests serve one).

    Returns
    -------
    str
        The page.

    Raises
    ------
    GameKindError, ArgumentError
        As :class:`ExplorerSource` and :meth:`ExplorerSource.state`.

    Examples
    --------
    >>> import cgtalg as cg
    >>> page = explorer_html(cg.position("0.77", 4), depth=2)
    >>> page.startswith("<!DOCTYPE html>") and '"label": "1+2"' in page
    True
    """
    src = game if isinstance(game, ExplorerSource) else ExplorerSource(
        game, misere=misere, max_options=max_options)
    page = _page(src.state(depth, max_nodes), responder)
    if path is not None:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(page)
    return page


class ExplorerPage:
    """A static explorer page shown in a notebook or a rendered notebook (the docs site) in an
    iframe: what :meth:`GameExplorer.static_view` returns.

    Attributes
    ----------
    html : str
        The self-contained page (:func:`explorer_html`).
    """

    def __init__(self, page: str, title: str = "game tree", height: int = 440) -> None:
        self.html = page
        self.title = title
        self.height = height

    def _repr_html_(self) -> str:
        return (f'<iframe class="cgtalg-explorer" srcdoc="{html.escape(self.html, quote=True)}" '
                f'style="width:100%;height:{self.height}px;border:1px solid #ddd" '
                f'title="{html.escape(self.title, quote=True)}"></iframe>')

    def __repr__(self) -> str:
        return f"ExplorerPage({self.title}, {len(self.html):,} characters)"


# --- the widget (anywidget is imported when the class is first asked for) --------------------

_WIDGET_CLASS = None


def _widget_class() -> type:
    global _WIDGET_CLASS
    if _WIDGET_CLASS is not None:
        return _WIDGET_CLASS
    try:
        import anywidget
        import traitlets
    except ImportError as exc:  # pragma: no cover - the notebook extra is not installed
        raise ImportError('cgtalg.GameExplorer needs anywidget: pip install "cgtalg[notebook]" '
                          f"({exc}); cgtalg.explorer_html writes the same explorer as a page without it") from exc

    class GameExplorer(anywidget.AnyWidget):
        __doc__ = _GAME_EXPLORER_DOC
        _esm = traitlets.Unicode(asset_text("explorer.js")).tag(sync=True)
        _css = traitlets.Unicode(asset_text("explorer.css")).tag(sync=True)
        root = traitlets.Unicode().tag(sync=True)
        nodes = traitlets.Dict().tag(sync=True)
        expansions = traitlets.Dict().tag(sync=True)
        depth = traitlets.Int().tag(sync=True)
        complete = traitlets.Bool(True).tag(sync=True)
        kind = traitlets.Unicode().tag(sync=True)
        sided = traitlets.Bool(False).tag(sync=True)
        plays = traitlets.List().tag(sync=True)
        play = traitlets.Unicode("normal").tag(sync=True)
        title = traitlets.Unicode().tag(sync=True)
        colours = traitlets.Dict().tag(sync=True)
        legend = traitlets.Dict().tag(sync=True)
        mover_colours = traitlets.Dict().tag(sync=True)

        def __init__(self, game: Any, *, depth: int = 1, misere: bool = False, max_options: int = 200,
                     html_depth: int | None = None, **kwargs: Any) -> None:
            source = game if isinstance(game, ExplorerSource) else ExplorerSource(
                game, misere=misere, max_options=max_options)
            super().__init__(**source.state(depth), **kwargs)
            self.source = source
            self.html_depth = depth if html_depth is None else html_depth
            self.on_msg(self._on_custom_message)

        def _on_custom_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
            self.send(self.handle_message(content))

        def handle_message(self, msg: Any) -> dict:
            """The reply to one front-end message (:meth:`ExplorerSource.handle`)."""
            return self.source.handle(msg)

        def to_html(self, path: str | None = None, depth: int | None = None,
                    responder: str | None = None) -> str:
            """The explorer as a self-contained page (:func:`explorer_html`), ``depth`` moves
            deep (default: ``html_depth``), with this explorer's node ids."""
            return explorer_html(self.source, self.html_depth if depth is None else depth,
                                 path=path, responder=responder)

        def static_view(self, depth: int | None = None) -> ExplorerPage:
            """The explorer as a static page in an iframe (``depth`` moves deep, default
            ``html_depth``): it shows where no Python answers, as on the docs site."""
            return ExplorerPage(self.to_html(depth=depth), self.title)

        def _repr_mimebundle_(self, **kwargs: Any) -> Any:
            # the live widget where a widget manager runs (Jupyter), and the static page in an
            # iframe for renderers without the widget's state (nbconvert without it)
            data = super()._repr_mimebundle_(**kwargs)
            if isinstance(data, tuple):
                data = data[0]
            data = dict(data or {})
            data["text/html"] = self.static_view()._repr_html_()
            return data

        def __repr__(self) -> str:
            return f"GameExplorer({self.title})"

    GameExplorer.__module__ = __name__
    GameExplorer.__qualname__ = "GameExplorer"
    _WIDGET_CLASS = GameExplorer
    return GameExplorer


_GAME_EXPLORER_DOC = """A notebook widget exploring a game tree: click a position to expand its
options (asked of Python as they are opened), coloured by outcome.

Parameters
----------
game
    A form, game text, a finite nimber, or a ruleset position (:func:`cgtalg.position`), or
    an :class:`ExplorerSource`.
depth : int
    Moves expanded in advance (sent with the widget; deeper ones are asked for).
misere : bool
    Show misère play first.
max_options : int
    At most this many options of one position are sent.
html_depth : int, optional
    Depth of the static page shown where no widget manager runs (default ``depth``).

Raises
------
GameKindError
    As :class:`ExplorerSource`.
ImportError
    If anywidget is not installed (``pip install "cgtalg[notebook]"``).

Examples
--------
>>> import cgtalg as cg
>>> w = cg.GameExplorer(cg.position("domineering", "2x3"))
>>> w.kind, w.nodes[w.root]["outcome"]["normal"], w.nodes[w.root]["value"]["normal"]
('partizan', 'N', '{2|-1/2}')
"""


def __getattr__(name: str) -> Any:
    if name == "GameExplorer":
        return _widget_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
