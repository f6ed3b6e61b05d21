/* midgardc serve: one seat's page (or the spectator's). Knows no rules: the server sends the
   drawing (SVG whose cells carry data-cell), the seat's observation, what happened last and,
   on its turn, its legal moves, each with the cells it names in order (a compound move,
   c3xe5xc7: every step's) and its other choices as the spec names them (its action and
   [label, value] per parameter). A move on the board is built by clicking those cells one
   after the other; the moves that share those cells are then told apart by controls, one
   group per parameter (a picker of at most twelve buttons, or a slider or a list when a
   parameter has more values), and sent as soon as one move is left. A move naming no cell
   is chosen the same way from buttons. */
(function () {
  "use strict";
  var body = document.body;
  var stateUrl = body.getAttribute("data-state-url");
  var moveUrl = body.getAttribute("data-move-url");
  var baseUrl = body.getAttribute("data-base-url");
  var MAX_CONTROLS = 12; // never more controls than this at once (a move's and cancel included)
  var MAX_PICKS = MAX_CONTROLS - 2; // for the pickers: a play button and cancel may follow
  var MIN_PIECE = 24; // px: a cell is never drawn smaller (the board scrolls instead)
  var NODE_ROOM = 0.4; // a grown node's radius at most this share of the way to its nearest node
  var current = null; // the last payload
  var path = []; // cells clicked so far towards a move
  var picks = {}; // group -> value chosen so far (for the moves the path leaves)
  var busy = false;
  var lastSvg = null;
  var openCounters = {}; // player -> its counters are unfolded
  var flipped = null; // null: as the server suggests (my seat at the bottom)
  var reviewing = null; // the number of moves of the position shown in review, or null

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function byId(id) { return document.getElementById(id); }

  function say(text) { byId("message").textContent = text || ""; }

  function cellElements() {
    return Array.prototype.slice.call(document.querySelectorAll("#board [data-cell]"));
  }

  function candidates() {
    if (!current || !current.your_turn || reviewing !== null) return [];
    return current.legal.filter(function (m) {
      if (m.cells.length < path.length || m.cells.length === 0) return false;
      for (var i = 0; i < path.length; i++) if (m.cells[i] !== path[i]) return false;
      return true;
    });
  }

  function nextCells() {
    var out = {};
    candidates().forEach(function (m) { if (m.cells.length > path.length) out[m.cells[path.length]] = true; });
    return out;
  }

  // -- choices as the game says them ------------------------------------------------------

  // a move's value in a group ("action", or a parameter's label)
  function valueOf(m, group) {
    if (group === "action") return m.action;
    for (var i = 0; i < m.params.length; i++) if (m.params[i][0] === group) return m.params[i][1];
    return null;
  }

  // how a value is shown: a card by its name (a parameter's third element), else as written
  function shownValue(moves, group, v) {
    for (var i = 0; i < moves.length; i++) {
      var ps = moves[i].params;
      for (var j = 0; j < ps.length; j++) if (ps[j][0] === group && ps[j][1] === v) return ps[j][2] || v;
    }
    return v;
  }

  function groupsOf(moves) {
    var out = [];
    if (moves.some(function (m) { return m.action !== moves[0].action; })) out.push("action");
    moves.forEach(function (m) { m.params.forEach(function (p) { if (out.indexOf(p[0]) < 0) out.push(p[0]); }); });
    return out;
  }

  function matching(moves, except) {
    return moves.filter(function (m) {
      return Object.keys(picks).every(function (g) { return g === except || valueOf(m, g) === picks[g]; });
    });
  }

  function distinct(moves, group) {
    var seen = [];
    moves.forEach(function (m) { var v = valueOf(m, group); if (v !== null && seen.indexOf(v) < 0) seen.push(v); });
    return seen;
  }

  function numeric(values) { return values.every(function (v) { return /^-?\d+$/.test(v); }); }

  function playButton(m, cls) {
    var label = [m.action].concat(m.params.map(function (p) { return p[2] || p[1]; })).join(" ");
    var b = el("button", { type: "button", "data-move": m.text, "class": cls, title: m.text }, m.params.length || cls === "other" ? label : m.text);
    b.addEventListener("click", function () { submit(m.text); });
    return b;
  }

  /* The controls that tell ``moves`` apart, into ``box``. Groups with one value left are
     settled; a slider or list holds a value (its first) until changed; a button group waits
     for a click. Once every button group is settled and one move is left it is sent, if the
     last thing done was a click on a button; otherwise a button plays it. */
  function drawChoices(moves, box, cls, clicked) {
    box.textContent = "";
    if (!moves.length) return;
    var groups = groupsOf(moves);
    Object.keys(picks).forEach(function (g) { // a value no longer possible is forgotten
      if (groups.indexOf(g) < 0 || distinct(matching(moves, g), g).indexOf(picks[g]) < 0) delete picks[g];
    });
    var waiting = 0, shown = 0;
    var sliders = [], buttons = [];
    groups.forEach(function (g) {
      var values = distinct(matching(moves, g), g);
      if (values.length <= 1) return;
      if (values.length > MAX_PICKS) sliders.push([g, values]); else buttons.push([g, values]);
    });
    function held(g, values) { // a slider (numbers) or a list: it holds a value, its first at first
      if (numeric(values)) values.sort(function (a, b) { return Number(a) - Number(b); });
      if (!(g in picks)) picks[g] = values[0];
      var row = el("div", { "class": "pick-group", "data-group": g });
      var name = el("label", {}, g + ": ");
      var out = el("output", { "class": "pick-value" }, shownValue(moves, g, picks[g]));
      var input;
      if (numeric(values)) {
        input = el("input", { type: "range", min: "0", max: String(values.length - 1), step: "1", "class": "pick-range", "data-group": g, "aria-label": g });
        input.value = String(values.indexOf(picks[g]));
        input.addEventListener("input", function () { picks[g] = values[Number(input.value)]; out.textContent = shownValue(moves, g, picks[g]); });
        input.addEventListener("change", function () {
          picks[g] = values[Number(input.value)];
          drawChoices(moves, box, cls, false); // (the other groups may offer other values now)
          var again = box.querySelector('input.pick-range[data-group="' + g + '"]');
          if (again) again.focus(); // the arrow keys go on moving it
        });
      } else {
        input = el("select", { "class": "pick-list", "data-group": g, "aria-label": g });
        values.forEach(function (v) { var o = el("option", { value: v }, shownValue(moves, g, v)); if (v === picks[g]) o.selected = true; input.appendChild(o); });
        input.addEventListener("change", function () { picks[g] = input.value; out.textContent = shownValue(moves, g, picks[g]); drawChoices(moves, box, cls, false); });
      }
      row.appendChild(name);
      row.appendChild(input);
      row.appendChild(out);
      box.appendChild(row);
      shown += 1;
    }
    sliders.forEach(function (gv) { held(gv[0], gv[1]); }); // held values first: a click on a button then plays
    var pickers = 0;
    buttons.forEach(function (gv) {
      var g = gv[0], values = gv[1];
      if (shown + values.length > MAX_PICKS) {
        if (!pickers) { held(g, values); return; } // (too many beside the sliders: a list)
        if (!(g in picks)) waiting += 1;
        return; // shown once the others are chosen
      }
      if (!(g in picks)) waiting += 1;
      pickers += 1;
      var row = el("div", { "class": "pick-group", "data-group": g });
      row.appendChild(el("span", { "class": "pick-label" }, (g === "action" ? "move" : g) + ": "));
      values.forEach(function (v) {
        var shownV = shownValue(moves, g, v);
        var b = el("button", { type: "button", "class": "pick" + (picks[g] === v ? " picked" : ""), "data-group": g, "data-value": v, title: v }, shownV === v ? v : shownV + " (" + v + ")");
        b.addEventListener("click", function () {
          if (picks[g] === v) delete picks[g]; else picks[g] = v;
          drawChoices(moves, box, cls, true);
        });
        row.appendChild(b);
      });
      box.appendChild(row);
      shown += values.length;
    });
    if (groups.indexOf("action") < 0 && box.firstChild) { // one kind of move: say which
      box.insertBefore(el("div", { "class": "pick-action" }, moves[0].action + ":"), box.firstChild);
    }
    var left = matching(moves);
    if (waiting === 0 && left.length === 1) {
      if (clicked) { submit(left[0].text); return; }
      box.appendChild(playButton(left[0], cls));
    }
  }

  function updateMoves(clicked) {
    var next = nextCells();
    var complete = path.length ? candidates().filter(function (m) { return m.cells.length === path.length; }) : [];
    cellElements().forEach(function (e) {
      var c = e.getAttribute("data-cell");
      e.classList.remove("movable", "target", "chosen");
      if (path.indexOf(c) >= 0) e.classList.add("chosen");
      // (a compound move may land again on a cell it passed: chosen, and a target again)
      if (next[c]) e.classList.add(path.length ? "target" : "movable");
      // a ringed cell is drawn after its neighbours, which would cover half its ring (the
      // last move's tint, the last of the layer, stays over it)
      if (e.classList.length > 1 && /movable|target|chosen/.test(e.getAttribute("class"))) e.parentNode.insertBefore(e, e.parentNode.querySelector(".last-move-ground"));
    });
    var choices = byId("choices");
    var others = byId("other-moves");
    var hint = byId("hint");
    choices.textContent = "";
    others.textContent = "";
    if (!current || !current.your_turn || reviewing !== null) { hint.textContent = ""; return; }
    if (path.length && complete.length === 1 && Object.keys(next).length === 0) { submit(complete[0].text); return; }
    if (path.length) {
      drawChoices(complete, choices, "choice", clicked);
      if (!busy) {
        var cancel = el("button", { type: "button", id: "cancel" }, "cancel");
        cancel.addEventListener("click", function () { path = []; picks = {}; say(""); updateMoves(false); });
        choices.appendChild(cancel);
      }
    } else {
      drawChoices(current.legal.filter(function (m) { return m.cells.length === 0; }), others, "other", clicked);
    }
    var onBoard = current.legal.some(function (m) { return m.cells.length > 0; });
    var more = others.childNodes.length || choices.querySelector(".pick-group, button.choice");
    if (busy) hint.textContent = "";
    else if (path.length === 0) hint.textContent = onBoard ? "Click a highlighted cell" + (more ? ", or choose:" : ".") : "Choose:";
    else if (Object.keys(next).length) hint.textContent = "Selected " + path.join(", ") + ": click a highlighted cell" + (complete.length ? ", or choose:" : ".");
    else hint.textContent = "Selected " + path.join(", ") + ": " + howToChoose(choices);
  }

  // "set height, then choose card (that plays it):" when a held value and pickers are shown
  function howToChoose(box) {
    function groups(q) {
      var out = [];
      Array.prototype.slice.call(box.querySelectorAll(q)).forEach(function (e) { var g = e.getAttribute("data-group"); if (out.indexOf(g) < 0) out.push(g); });
      return out;
    }
    var held = groups(".pick-range, .pick-list"), picked = groups("button.pick");
    if (held.length && picked.length) return "set " + held.join(", ") + ", then choose " + picked.join(", ") + " (that plays the move):";
    return "choose:";
  }

  // why a click on the board does nothing now, in words
  function whyNot() {
    if (reviewing !== null) return "you are looking at an earlier position: 'back to the game' to play";
    if (!current) return "the page is still loading";
    if (current.result) return "the game is over";
    if (busy) return "your move is on its way to the server";
    if (body.getAttribute("data-spectator") === "1") return "you are watching: the players move";
    if (current.thinking) return current.thinking + " is thinking: your turn comes after its move";
    if (!current.your_turn) return "it is not your turn: " + current.to_move + " is to move";
    return null;
  }

  function onBoardClick(event) {
    var target = event.target.closest ? event.target.closest("[data-cell]") : null;
    if (!target) return;
    var why = whyNot();
    if (why) { say(why); return; }
    var c = target.getAttribute("data-cell");
    say("");
    picks = {};
    if (path.length && path[path.length - 1] === c) { path.pop(); updateMoves(false); return; }
    if (nextCells()[c]) { path.push(c); updateMoves(true); return; }
    path = [];
    if (nextCells()[c]) { path.push(c); } else { say("no move of yours starts at " + c); }
    updateMoves(true);
  }

  // -- the board: drawn apart from its panel, flipped, what happened last ------------------

  var SVG_NS = "http://www.w3.org/2000/svg";

  function drawBoard(svgText, last) {
    var board = byId("board");
    board.innerHTML = svgText;
    var svg = board.querySelector("svg");
    var panel = byId("board-panel");
    panel.textContent = "";
    if (!svg) return;
    var box = svg.getAttribute("data-board-box");
    var whole = (svg.getAttribute("viewBox") || "").split(" ").map(Number);
    if (box && whole.length === 4) {
      var b = box.split(" ").map(Number);
      if (whole[2] > b[2] + 1) { // the panel beside the board: shown in the side column
        var copy = svg.cloneNode(true);
        copy.removeAttribute("id");
        Array.prototype.slice.call(copy.querySelectorAll("[id]")).forEach(function (e) { e.removeAttribute("id"); });
        Array.prototype.slice.call(copy.querySelectorAll("[data-cell]")).forEach(function (e) { e.removeAttribute("data-cell"); });
        Array.prototype.slice.call(copy.querySelectorAll(".status")).forEach(function (e) { e.parentNode.removeChild(e); }); // (the board's line, said in the header)
        copy.setAttribute("viewBox", [b[2], 0, whole[2] - b[2], whole[3]].join(" "));
        copy.setAttribute("width", String(whole[2] - b[2]));
        copy.setAttribute("height", String(whole[3]));
        copy.setAttribute("class", (svg.getAttribute("class") || "") + " board-panel"); // (its style sheet is scoped to its class)
        if (svg.querySelectorAll("[data-cell]").length <= 1) {
          // one spot on the table (a card or dice game): the panel, with the hands, dice
          // and score card, is the table, drawn in the board's place at up to twice its size
          board.textContent = "";
          board.appendChild(copy);
          copy.style.maxWidth = 2 * (trimPanel(copy, whole[2] - b[2]) || whole[2] - b[2]) + "px";
          return;
        }
        panel.appendChild(copy);
        var w = trimPanel(copy, whole[2] - b[2]);
        if (w) copy.style.maxWidth = "min(36em, " + Math.round(1.6 * w) + "px)"; // its text readable, a short panel not blown up
      }
      svg.setAttribute("viewBox", box);
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      // as wide as the page allows and no taller than the window, in the board's own
      // proportions (so nothing beyond the board shows beside it, turned or not)
      svg.style.setProperty("--board-ratio", String(b[2] / b[3]));
      growNodes(svg, b);
      cropBoard(svg, b);
    }
    markLast(svg, last);
    applyFlip();
    keepPiecesBig(svg);
    markDarkCells(svg);
  }

  // the green ring of a playable cell hardly shows on a dark or green cell (a baize-green
  // board, a blue frame): such cells are marked so the ring is drawn in a light green
  var RING = [30, 132, 73], RING_LIGHT = [171, 235, 198]; // #1e8449, #abebc6 (seat.css)

  function luminance(rgb) {
    var c = rgb.map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  }

  function contrast(a, b) {
    var x = luminance(a), y = luminance(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }

  function markDarkCells(svg) {
    Array.prototype.slice.call(svg.querySelectorAll("[data-cell]")).forEach(function (cell) {
      var m = /rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)/.exec(getComputedStyle(cell).fill || "");
      if (!m || (m[4] !== undefined && Number(m[4]) === 0)) return; // no paint of its own (a point of a lines board)
      var fill = [Number(m[1]), Number(m[2]), Number(m[3])];
      if (contrast(RING, fill) < 2 && contrast(RING_LIGHT, fill) > contrast(RING, fill)) cell.setAttribute("data-dark", "1");
    });
  }

  // a graph's nodes (circles at placed points) drawn smaller than MIN_PIECE px on a narrow
  // page: grown where there is room between them (NODE_ROOM), so the board keeps the page's
  // width and every node stays big enough to tap; only what is still too small makes the
  // board wider (keepPiecesBig). A point of a lines board has no room to grow: it scrolls.
  function growNodes(svg, b) {
    var width = svg.getBoundingClientRect().width;
    if (!width) return;
    var want = MIN_PIECE / 2 / (width / b[2]) + 0.5; // the radius, in the board's units
    var nodes = Array.prototype.slice.call(svg.querySelectorAll("circle[data-cell]")).map(function (e) {
      return { e: e, x: Number(e.getAttribute("cx")), y: Number(e.getAttribute("cy")), r: Number(e.getAttribute("r")) };
    });
    if (!nodes.length || !nodes.some(function (n) { return n.r < want; })) return;
    nodes.forEach(function (n) {
      if (n.r >= want) return;
      var nearest = Infinity;
      nodes.forEach(function (m) { if (m !== n) nearest = Math.min(nearest, Math.sqrt((m.x - n.x) * (m.x - n.x) + (m.y - n.y) * (m.y - n.y))); });
      var r = Math.min(want, NODE_ROOM * nearest);
      if (r > n.r) n.e.setAttribute("r", r.toFixed(1));
    });
  }

  // the board's box keeps room for a status line (said in the header here) and, on a small
  // board, for the panel's width: cut it round what is drawn, so the board takes the width
  function cropBoard(svg, b) {
    var box = svg.getBoundingClientRect();
    if (!box.width || !box.height) return;
    var scale = box.width / b[2], l = Infinity, t = Infinity, r = -Infinity, bottom = -Infinity;
    Array.prototype.slice.call(svg.querySelectorAll("text, rect, circle, ellipse, line, path, polygon, polyline, use, image")).forEach(function (e) {
      var q = e.getBoundingClientRect();
      if (!(q.width > 0 || q.height > 0) || q.right <= box.left || q.left >= box.right || q.bottom <= box.top || q.top >= box.bottom) return;
      l = Math.min(l, q.left); t = Math.min(t, q.top); r = Math.max(r, q.right); bottom = Math.max(bottom, q.bottom);
    });
    if (!(r > l && bottom > t)) return;
    var x = Math.max(b[0], b[0] + (l - box.left) / scale - 4), y = Math.max(b[1], b[1] + (t - box.top) / scale - 4);
    var w = Math.min(b[0] + b[2], b[0] + (r - box.left) / scale + 4) - x, h = Math.min(b[1] + b[3], b[1] + (bottom - box.top) / scale + 4) - y;
    svg.setAttribute("viewBox", [x, y, w, h].map(function (v) { return v.toFixed(1); }).join(" "));
    svg.style.setProperty("--board-ratio", String(w / h));
  }

  // the panel's picture is as tall as the whole one (the board's height, or more) and starts
  // where a small board's room ends: cut it round what is drawn in the panel's column, so
  // no empty space is left above, beside or below it
  function trimPanel(copy, width) {
    var box = copy.getBoundingClientRect();
    if (!box.width) return;
    var scale = box.width / width, left = Infinity, right = 0, bottom = 0;
    Array.prototype.slice.call(copy.querySelectorAll("text, rect, circle, ellipse, line, path, polygon, polyline, use, image")).forEach(function (e) {
      var r = e.getBoundingClientRect();
      if (!(r.width > 0 && r.right > box.left + 0.5 && r.left < box.right)) return;
      left = Math.min(left, r.left - box.left);
      right = Math.max(right, r.right - box.left);
      bottom = Math.max(bottom, r.bottom - box.top);
    });
    if (!bottom) return;
    var v = copy.getAttribute("viewBox").split(" ").map(Number);
    var x = v[0] + Math.max(0, Math.floor(left / scale) - 6);
    var w = Math.min(v[0] + v[2], v[0] + Math.ceil(right / scale) + 6) - x;
    var h = Math.min(v[3], Math.ceil(bottom / scale) + 6);
    copy.setAttribute("viewBox", [x, v[1], w, h].join(" "));
    copy.setAttribute("width", String(w));
    copy.setAttribute("height", String(h));
    return w;
  }

  function centre(e) {
    var b = e.getBBox();
    return [b.x + b.width / 2, b.y + b.height / 2, Math.min(b.width, b.height)];
  }

  function markLast(svg, last) {
    if (!last || !svg.getBBox) return;
    var g = document.createElementNS(SVG_NS, "g");
    g.setAttribute("class", "what-happened");
    (last.cells || []).forEach(function (name, i) {
      var cell = svg.querySelector('[data-cell="' + name + '"]');
      if (!cell) return;
      var mark = cell.cloneNode(false);
      var how = i === 0 && last.cells.length > 1 ? " from" : " to";
      mark.removeAttribute("data-cell");
      mark.removeAttribute("data-index");
      mark.removeAttribute("style");
      mark.setAttribute("fill", "none");
      var edge = mark.cloneNode(false); // a dark ring under the gold one: seen on every colour, gold too
      edge.setAttribute("class", "last-move-edge" + how);
      g.appendChild(edge);
      mark.setAttribute("class", "last-move" + how);
      mark.setAttribute("data-at", name);
      g.appendChild(mark);
      // a square of a checkered board is also tinted, under the piece on it (as the last of
      // the cells' layer), as a chessboard shows it; other cells (a colour a piece fills, a
      // frame's hole, a point) are only ringed, so they keep their colours
      if (!/(^|\s)checkered(\s|$)/.test(cell.parentNode.getAttribute("class") || "")) return;
      var tint = mark.cloneNode(false);
      tint.removeAttribute("data-at");
      tint.setAttribute("class", "last-move-ground" + how);
      cell.parentNode.appendChild(tint);
    });
    (last.removed || []).forEach(function (r) {
      var cell = svg.querySelector('[data-cell="' + r.cell + '"]');
      if (!cell) return;
      var c = centre(cell);
      var ghost = document.createElementNS(SVG_NS, "circle");
      ghost.setAttribute("cx", c[0]);
      ghost.setAttribute("cy", c[1]);
      ghost.setAttribute("r", Math.max(4, c[2] * 0.32));
      ghost.setAttribute("fill", r.colour);
      ghost.setAttribute("class", "removed-piece");
      ghost.setAttribute("data-at", r.cell);
      var t = document.createElementNS(SVG_NS, "title");
      t.textContent = "removed by the last move: " + r.cell;
      ghost.appendChild(t);
      g.appendChild(ghost);
    });
    svg.appendChild(g);
  }

  function applyFlip() {
    var on = flipped === null ? Boolean(current && current.flip) : flipped;
    byId("board").classList.toggle("flipped", on);
    body.setAttribute("data-flipped", on ? "1" : "0");
  }

  // a cell smaller than MIN_PIECE px: the board is drawn wider and scrolls
  function keepPiecesBig(svg) {
    svg.style.minWidth = "";
    var first = svg.querySelector("[data-cell]");
    if (!first || !first.getBoundingClientRect) return;
    var r = first.getBoundingClientRect();
    var size = Math.min(r.width, r.height);
    var width = svg.getBoundingClientRect().width;
    if (size > 0 && size < MIN_PIECE) svg.style.minWidth = Math.ceil(width * MIN_PIECE / size) + "px";
  }

  // -- the side panel --------------------------------------------------------------------

  function itemsText(zone) {
    var span = el("span");
    if (zone.size === 0) {
      span.appendChild(el("span", {}, "empty"));
    } else if (zone.items === null) {
      span.appendChild(el("span", { "class": "item back", title: "hidden" }, zone.size + " hidden"));
    } else {
      zone.items.forEach(function (it) { span.appendChild(el("span", { "class": "item", title: it }, shownName(it))); });
    }
    return span;
  }

  // a name of the spec (a piece, a zone, an item) as the rulebook says it (render.labels)
  function shownName(name) { return (current && current.names && current.names[name]) || name; }

  function valueText(v) { return v === null || v === undefined ? "?" : String(v); }

  function renderPlayers(p) {
    var box = byId("players");
    box.textContent = "";
    var obs = p.observation;
    obs.players.forEach(function (pl, i) {
      var seat = p.players[i];
      var t = el("table", { "class": "player" + (p.to_move === pl.name ? " to-move" : ""), "data-player": pl.name });
      var head = el("tr");
      var th = el("th", { colspan: "2" });
      th.appendChild(el("span", { "class": "swatch", style: "background:" + seat.colour }));
      th.appendChild(document.createTextNode(pl.name + " (" + seat.label + ")" + (i === p.seat ? ": you" : "")));
      head.appendChild(th);
      t.appendChild(head);
      function row(label, value, into) {
        var tr = el("tr");
        tr.appendChild(el("td", {}, label));
        var td = el("td");
        if (value instanceof Node) td.appendChild(value); else td.textContent = value;
        tr.appendChild(td);
        (into || t).appendChild(tr);
      }
      if (p.show_hand !== false) Object.keys(pl.hand || {}).forEach(function (k) { if (pl.hand[k]) row(shownName(k) + " in hand", valueText(pl.hand[k])); });
      // a key that means something only at the end (a won flag) is not listed: the end
      // banner gives it beside the ranks
      var finals = obs.final_keys || [];
      var keyNames = p.score_labels || {};
      Object.keys(pl.score || {}).forEach(function (k) { if (finals.indexOf(k) < 0) row("score: " + (keyNames[k] || k), valueText(pl.score[k])); });
      Object.keys(pl.zones || {}).forEach(function (k) { row(shownName(k), itemsText(pl.zones[k])); });
      box.appendChild(t);
      var shown = p.counter_labels || {}; // internal counters are never listed
      var names = Object.keys(pl.counters || {}).filter(function (k) { return k in shown; });
      if (names.length) { // drawn on the board's panel too: folded here
        var more = el("details", { "class": "counters", "data-player": pl.name });
        more.open = openCounters[pl.name] || false;
        more.addEventListener("toggle", function () { openCounters[pl.name] = more.open; });
        more.appendChild(el("summary", {}, pl.name + "'s counters"));
        var ct = el("table", { "class": "player" });
        names.forEach(function (k) { row(shown[k], valueText(pl.counters[k]), ct); });
        more.appendChild(ct);
        box.appendChild(more);
      }
    });
  }

  function renderZones(p) {
    var box = byId("zones");
    box.textContent = "";
    var zones = p.observation.zones || {};
    var names = Object.keys(zones);
    if (names.length) box.appendChild(el("h2", {}, "Cards and tokens"));
    names.forEach(function (z) {
      Object.keys(zones[z]).forEach(function (owner) {
        var d = el("div", { "class": "zone", "data-zone": z, "data-owner": owner });
        d.appendChild(el("strong", {}, shownName(z) + (owner === "game" ? "" : " of " + owner) + ": "));
        d.appendChild(itemsText(zones[z][owner]));
        box.appendChild(d);
      });
    });
    var gc = byId("game-counters");
    gc.textContent = "";
    var labels = p.counter_labels || {}, counters = {};
    Object.keys(p.observation.counters || {}).forEach(function (k) { if (k in labels) counters[labels[k]] = p.observation.counters[k]; });
    var roll = p.observation.roll;
    if (Object.keys(counters).length || (roll && roll.length)) gc.appendChild(el("h2", {}, "Game"));
    if (roll && roll.length) {
      var d = el("div", { id: "roll" }, "roll: ");
      roll.forEach(function (f) { d.appendChild(el("span", { "class": "die" }, f)); });
      gc.appendChild(d);
    }
    if (Object.keys(counters).length) {
      var more = el("details", { "class": "counters", "data-player": "game" });
      more.open = openCounters.game || false;
      more.addEventListener("toggle", function () { openCounters.game = more.open; });
      more.appendChild(el("summary", {}, "the game's counters"));
      Object.keys(counters).forEach(function (k) { more.appendChild(el("div", { "class": "zone" }, k + ": " + valueText(counters[k]))); });
      gc.appendChild(more);
    }
  }

  function renderHistory(p) {
    var hist = byId("history");
    hist.textContent = "";
    p.history.forEach(function (h, i) {
      var li = el("li", { "class": "move" + (reviewing === i + 1 ? " reviewed" : ""), "data-moves": String(i + 1) });
      var a = el("button", { type: "button", "class": "history-move", title: "show the position after this move" }, (h.player ? h.player + ": " : "") + h.move);
      a.addEventListener("click", function () { review(i + 1); });
      li.appendChild(a);
      hist.appendChild(li);
    });
    if (reviewing === null) hist.scrollTop = hist.scrollHeight;
  }

  function setTurn(p) {
    var turn = byId("turn");
    var spin = byId("spinner");
    turn.className = p.your_turn ? "yours" : "";
    spin.hidden = !(p.thinking && !p.result);
    if (p.result) turn.textContent = "The game is over.";
    else if (p.bot_error) turn.textContent = p.bot_error;
    else if (p.thinking) turn.textContent = p.thinking + " is thinking…";
    else turn.textContent = p.your_turn ? "Your turn." : (p.to_move ? p.to_move + " is to move." : "");
    body.setAttribute("data-thinking", p.thinking ? "1" : "0");
    var last = byId("last-text");
    last.textContent = p.last && !p.result ? "Last move: " + (p.last.player ? p.last.player + " " : "") + p.last.move + (p.last.removed.length ? " (took " + p.last.removed.map(function (r) { return r.cell; }).join(", ") + ")" : "") + "." : "";
  }

  // the end: who won and why, in how many moves, every seat's rank and score, the tie-break
  function renderResult(r) {
    var box = byId("result");
    box.textContent = "";
    box.hidden = !r;
    if (!r) return;
    box.setAttribute("data-outcome", r.outcome);
    box.appendChild(el("div", { id: "result-text", "class": "result-head" }, r.headline));
    var t = el("table", { "class": "ranks" });
    var head = el("tr");
    [r.outcome === "stopped" ? "" : "rank", "player"].concat(r.ranked_by).forEach(function (h) { head.appendChild(el("th", {}, h)); });
    t.appendChild(head);
    var firsts = r.seats.filter(function (s) { return s.rank === 1; }).length;
    r.seats.forEach(function (s) {
      var tr = el("tr", { "class": "seat-rank" + (s.rank === 1 ? " first" : ""), "data-player": s.player, "data-rank": s.rank === null ? "" : String(s.rank) });
      var shared = s.rank === 1 && firsts > 1 && firsts < r.seats.length ? " (shared)" : "";
      tr.appendChild(el("td", { "class": "rank" }, s.rank === null ? "-" : ordinal(s.rank) + shared));
      var who = el("td", { "class": "who" });
      who.appendChild(el("span", { "class": "swatch", style: "background:" + s.colour }));
      who.appendChild(document.createTextNode(s.player + " (" + s.label + ")" + (current && s.seat === current.seat ? ": you" : "")));
      tr.appendChild(who);
      Object.keys(s.score).forEach(function (k) { tr.appendChild(el("td", { "class": "score" }, s.score[k])); });
      t.appendChild(tr);
    });
    box.appendChild(t);
    var how = r.ranked_by.length > 1 ? "Ranked by " + r.ranked_by.join(", then ") + "." : "";
    if (r.tie_break) how += (how ? " " : "") + r.tie_break.text.charAt(0).toUpperCase() + r.tie_break.text.slice(1) + ".";
    if (how) box.appendChild(el("p", { id: "tie-break", "class": "tie-break" }, how));
  }

  function ordinal(n) {
    var tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th";
    return n + tail;
  }

  function render(p) {
    var newStep = !current || current.step !== p.step;
    current = p;
    if (newStep) { path = []; picks = {}; }
    if (p.svg !== lastSvg && reviewing === null) { drawBoard(p.svg, p.last); lastSvg = p.svg; }
    setTurn(p);
    var note = byId("engine-note");
    note.hidden = !p.engine_note;
    note.textContent = p.engine_note || "";
    renderPlayers(p);
    renderZones(p);
    renderHistory(p);
    renderResult(p.result);
    var tb = byId("takeback");
    if (tb) tb.disabled = !p.can_take_back;
    var rm = byId("rematch");
    if (rm) rm.hidden = !p.result;
    body.setAttribute("data-step", String(p.step));
    body.setAttribute("data-your-turn", p.your_turn ? "1" : "0");
    body.setAttribute("data-over", p.result ? "1" : "0");
    updateMoves(false);
  }

  // -- review: an earlier position, read-only -------------------------------------------

  function review(moves) {
    if (!current) return;
    if (moves >= current.history.length) { endReview(); return; }
    if (moves < 0) return;
    fetch(baseUrl + "/at/" + moves, { cache: "no-store" }).then(function (r) { return r.json().then(function (j) { return { ok: r.ok, json: j }; }); })
      .then(function (a) {
        if (!a.ok) { say(a.json.error || "cannot show that position"); return; }
        reviewing = moves;
        path = []; picks = {};
        drawBoard(a.json.svg, a.json.last);
        lastSvg = null;
        byId("review").hidden = false;
        byId("review-text").textContent = moves === 0 ? "The start of the game." : "After move " + moves + " of " + current.history.length + ".";
        body.setAttribute("data-review", String(moves));
        say("");
        renderHistory(current);
        updateMoves(false);
      }).catch(function (e) { say("cannot reach the server: " + e.message); });
  }

  function endReview() {
    reviewing = null;
    byId("review").hidden = true;
    body.setAttribute("data-review", "");
    if (current) { drawBoard(current.svg, current.last); lastSvg = current.svg; renderHistory(current); updateMoves(false); }
  }

  // -- talking to the server ------------------------------------------------------------

  function refresh() {
    return fetch(stateUrl, { cache: "no-store" }).then(function (r) {
      if (!r.ok) throw new Error("the server answered " + r.status);
      return r.json();
    }).then(render).catch(function (e) { say("cannot reach the server: " + e.message); });
  }

  function post(url, data) {
    busy = true;
    body.setAttribute("data-busy", "1");
    say("");
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data || {}) })
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, json: j }; }); })
      .then(function (a) {
        busy = false;
        body.setAttribute("data-busy", "0");
        if (a.ok) { render(a.json); } else { say(a.json.error || "refused"); path = []; picks = {}; refresh(); }
      })
      .catch(function (e) { busy = false; body.setAttribute("data-busy", "0"); say("cannot reach the server: " + e.message); });
  }

  function submit(text) {
    if (busy || !current) return;
    // the answer comes at once with the move drawn; the bots reply meanwhile (polled)
    post(moveUrl, { step: current.step, move: text, wait: false });
    updateMoves(false);
  }

  function control(id, fn) { var b = byId(id); if (b && b.addEventListener) b.addEventListener("click", fn); }

  control("flip", function () {
    flipped = !(flipped === null ? Boolean(current && current.flip) : flipped);
    applyFlip();
  });
  control("takeback", function () { if (!busy) { endReview(); post(baseUrl + "/takeback"); } });
  control("rematch", function () { if (!busy) { endReview(); post(baseUrl + "/rematch"); } });
  control("review-end", endReview);
  control("review-prev", function () { if (reviewing !== null) review(reviewing - 1); });
  control("review-next", function () { if (reviewing !== null) review(reviewing + 1); });

  var entry = byId("move-entry");
  if (entry && entry.addEventListener) {
    entry.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      var text = entry.value.trim();
      if (!text) return;
      var why = whyNot();
      if (why) { say(why); return; }
      var legal = current.legal.map(function (m) { return m.text; });
      if (legal.indexOf(text) >= 0) { entry.value = ""; submit(text); return; }
      var starting = legal.filter(function (t) { return t.indexOf(text) === 0; });
      if (!starting.length) say("'" + text + "' is no legal move and starts none");
      else say("'" + text + "' starts " + starting.length + " moves: " + starting.slice(0, MAX_CONTROLS).join(", ") + (starting.length > MAX_CONTROLS ? ", ..." : ""));
    });
  }

  // left and right arrows walk through the moves (review); Escape goes back to the game
  document.addEventListener("keydown", function (event) {
    if (!current || (event.target && event.target.tagName === "INPUT")) return;
    if (event.key === "ArrowLeft") review((reviewing === null ? current.history.length : reviewing) - 1);
    else if (event.key === "ArrowRight" && reviewing !== null) review(reviewing + 1);
    else if (event.key === "Escape") { if (reviewing !== null) endReview(); else { path = []; picks = {}; updateMoves(false); } }
  });

  var boardBox = byId("board");
  boardBox.addEventListener("click", onBoardClick);
  // Poll while others are to move: a while after the last answer came (never on a fixed
  // clock, so a slow server is not sent a new request before it answered the last one);
  // sooner while a bot thinks, so its move shows soon after it is made.
  function poll() {
    var asking = !busy && current && (!current.your_turn || current.engine_note) && !current.result ? refresh() : Promise.resolve();
    asking.then(function () { setTimeout(poll, current && current.thinking ? 400 : 1000); });
  }
  refresh().then(function () { setTimeout(poll, 1000); });
})();
