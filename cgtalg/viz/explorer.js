// cgtalg's game-tree explorer: the front end of cgtalg.GameExplorer (an anywidget ESM module),
// also run by the static pages of cgtalg.explorer_html through a small in-page model.
//
// The model holds: root (node id), nodes ({id: info}), expansions ({id: {options, more}}: the
// positions expanded in advance), kind, sided (Left's and Right's options apart), plays, play,
// title, colours, legend, mover_colours.
// Opening a position that is not expanded yet sends {type: "expand", id} to Python, which
// answers {type: "options", id, options: [{id, mover}], more, nodes} (or {type: "error", id,
// message}). Node ids are positions: a position met again is the same node (a DAG).

function make(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

const SIDE_NAMES = { L: "Left", R: "Right" };

function render({ model, el }) {
  const nodes = Object.assign({}, model.get("nodes"));
  const expansions = Object.assign({}, model.get("expansions"));
  const colours = model.get("colours") || {};
  const moverColours = model.get("mover_colours") || {};
  const plays = model.get("plays") || ["normal"];
  const sided = !!model.get("sided");
  const pending = {};   // id -> rows waiting for its options
  const rowsById = {};  // id -> rows showing it
  let play = model.get("play") || plays[0];

  const box = make("div", "cgx");
  const header = make("div", "cgx-header");
  header.appendChild(make("span", "cgx-title", model.get("title")));
  const toggle = make("button", "cgx-play");
  toggle.type = "button";
  const legend = make("span", "cgx-legend");
  const legendNames = model.get("legend") || {};
  for (const k of Object.keys(legendNames)) {
    const item = make("span", "cgx-legend-item", legendNames[k]);
    item.style.setProperty("--cgx-swatch", colours[k] || colours["?"]);
    legend.appendChild(item);
  }
  if (plays.length > 1) header.appendChild(toggle);
  header.appendChild(legend);
  box.appendChild(header);
  const tree = make("ul", "cgx-tree");
  box.appendChild(tree);
  el.appendChild(box);

  function showPlay() {
    toggle.textContent = play === "misere" ? "misère play (switch to normal)" : "normal play (switch to misère)";
    box.dataset.play = play;
  }

  function paint(row) {
    const info = nodes[row.dataset.id];
    const outcome = (info.outcome && info.outcome[play]) || "?";
    row.dataset.outcome = outcome;
    const face = row.querySelector(":scope > .cgx-head > .cgx-box");
    face.style.backgroundColor = colours[outcome] || colours["?"];
    const value = row.querySelector(":scope > .cgx-head > .cgx-value");
    value.textContent = (info.value && info.value[play]) || "";
    value.title = (info.notes && info.notes[play]) || "";
  }

  function makeRow(id, mover) {
    const info = nodes[id];
    const row = make("li", "cgx-node");
    row.dataset.id = id;
    row.dataset.expanded = "false";
    if (mover) {
      row.dataset.mover = mover;
      row.style.setProperty("--cgx-mover", moverColours[mover] || "#444");
    }
    const head = make("div", "cgx-head");
    head.tabIndex = 0;
    head.setAttribute("role", "button");
    head.appendChild(make("span", "cgx-toggle", info.terminal ? "\u00b7" : "\u25b8"));
    if (mover) head.appendChild(make("span", "cgx-mover", mover));
    const face = make("span", "cgx-box");
    face.title = info.title;
    if (info.board) {
      const pre = make("pre", "cgx-board", info.board.join("\n"));
      face.appendChild(pre);
    }
    face.appendChild(make("span", "cgx-label", info.label));
    head.appendChild(face);
    head.appendChild(make("span", "cgx-value"));
    const seen = rowsById[id] || (rowsById[id] = []);
    if (seen.length) {
      row.classList.add("cgx-again");
      const mark = make("span", "cgx-shared", "\u21ba shared");
      mark.title = "this position is also reached by another line of play: one node of the DAG";
      head.appendChild(mark);
    }
    seen.push(row);
    row.appendChild(head);
    if (info.terminal) {
      row.classList.add("cgx-terminal");
    } else {
      head.addEventListener("click", () => toggleRow(row));
      head.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); toggleRow(row); }
      });
    }
    head.addEventListener("mouseenter", () => rowsById[id].forEach((r) => r.classList.add("cgx-same")));
    head.addEventListener("mouseleave", () => rowsById[id].forEach((r) => r.classList.remove("cgx-same")));
    paint(row);
    return row;
  }

  function fill(row) {
    const exp = expansions[row.dataset.id];
    const kids = make("ul", "cgx-children");
    if (sided) {
      for (const side of ["L", "R"]) {
        const group = make("li", "cgx-side");
        group.dataset.side = side;
        group.appendChild(make("span", "cgx-side-name", SIDE_NAMES[side] + "'s options"));
        const list = make("ul", "cgx-children");
        const mine = exp.options.filter((o) => o.mover === side || o.mover === "LR");
        if (!mine.length) list.appendChild(make("li", "cgx-none", "none"));
        for (const o of mine) list.appendChild(makeRow(o.id, side));
        group.appendChild(list);
        kids.appendChild(group);
      }
    } else {
      for (const o of exp.options) kids.appendChild(makeRow(o.id, null));
    }
    if (exp.more) kids.appendChild(make("li", "cgx-more", "\u2026 and " + exp.more + " more options"));
    row.appendChild(kids);
    row.dataset.expanded = "true";
    row.querySelector(":scope > .cgx-head > .cgx-toggle").textContent = "\u25be";
  }

  function toggleRow(row) {
    const id = row.dataset.id;
    if (row.dataset.expanded === "true") {
      const kids = row.querySelector(":scope > .cgx-children");
      if (kids) kids.remove();
      row.dataset.expanded = "false";
      row.querySelector(":scope > .cgx-head > .cgx-toggle").textContent = "\u25b8";
      return;
    }
    if (row.dataset.expanded === "waiting") return;
    if (expansions[id]) { fill(row); return; }
    const old = row.querySelector(":scope > .cgx-error");
    if (old) old.remove();
    row.dataset.expanded = "waiting";
    const list = pending[id];
    if (list) { list.push(row); return; }
    pending[id] = [row];
    model.send({ type: "expand", id });
  }

  function onMessage(msg) {
    if (!msg || !msg.id || !pending[msg.id]) return;
    const rows = pending[msg.id];
    delete pending[msg.id];
    if (msg.type === "options") {
      Object.assign(nodes, msg.nodes);
      expansions[msg.id] = { options: msg.options, more: msg.more };
      rows.forEach((r) => { if (r.isConnected) fill(r); else r.dataset.expanded = "false"; });
    } else {
      rows.forEach((r) => {
        r.dataset.expanded = "false";
        r.appendChild(make("div", "cgx-error", msg.message || "no answer"));
      });
    }
  }

  function onPlay() {
    play = model.get("play") || plays[0];
    showPlay();
    Object.values(rowsById).forEach((rows) => rows.forEach(paint));
  }

  toggle.addEventListener("click", () => {
    model.set("play", play === "misere" ? "normal" : "misere");
    model.save_changes();
  });
  model.on("msg:custom", onMessage);
  model.on("change:play", onPlay);
  showPlay();

  const root = makeRow(model.get("root"), null);
  tree.appendChild(root);
  // open what was expanded in advance, one level under the root
  if (expansions[root.dataset.id]) fill(root);
  if (!model.get("complete")) {
    box.appendChild(make("div", "cgx-note", "Only part of the game was expanded in advance."));
  }
  return () => {
    model.off("msg:custom", onMessage);
    model.off("change:play", onPlay);
  };
}

export default { render };
