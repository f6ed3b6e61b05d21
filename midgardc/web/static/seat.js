/* midgardc serve: one seat's page. Knows no rules: the server sends the drawing (SVG whose
   cells carry data-cell), the seat's observation and, on its turn, its legal moves with the
   cells each one names in order (a compound move, c3xe5xc7: every step's). A move on the
   board is built by clicking those cells one after the other, and sent once it is complete
   and no longer move goes on from it; a move naming no cell is a button. */
(function () {
  "use strict";
  var body = document.body;
  var stateUrl = body.getAttribute("data-state-url");
  var moveUrl = body.getAttribute("data-move-url");
  var current = null; // the last payload
  var path = []; // cells clicked so far towards a move
  var busy = false;
  var lastSvg = null;
  var openCounters = {}; // player -> its counters are unfolded

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function say(text) { document.getElementById("message").textContent = text || ""; }

  function cellElements() {
    return Array.prototype.slice.call(document.querySelectorAll("#board [data-cell]"));
  }

  function candidates() {
    if (!current || !current.your_turn) return [];
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

  function moveButton(text, cls) {
    var b = el("button", { type: "button", "data-move": text, "class": cls }, text);
    b.addEventListener("click", function () { submit(text); });
    return b;
  }

  function updateMoves() {
    var next = nextCells();
    var complete = path.length ? candidates().filter(function (m) { return m.cells.length === path.length; }) : [];
    cellElements().forEach(function (e) {
      var c = e.getAttribute("data-cell");
      e.classList.remove("movable", "target", "chosen");
      if (path.indexOf(c) >= 0) e.classList.add("chosen");
      // (a compound move may land again on a cell it passed: chosen, and a target again)
      if (next[c]) e.classList.add(path.length ? "target" : "movable");
    });
    var choices = document.getElementById("choices");
    var others = document.getElementById("other-moves");
    choices.textContent = "";
    others.textContent = "";
    var hint = document.getElementById("hint");
    if (!current || !current.your_turn) { hint.textContent = ""; return; }
    if (path.length && complete.length === 1 && Object.keys(next).length === 0) { submit(complete[0].text); return; }
    complete.forEach(function (m) { choices.appendChild(moveButton(m.text, "choice")); });
    if (path.length) {
      var cancel = el("button", { type: "button", id: "cancel" }, "cancel");
      cancel.addEventListener("click", function () { path = []; say(""); updateMoves(); });
      choices.appendChild(cancel);
    }
    current.legal.forEach(function (m) { if (m.cells.length === 0) others.appendChild(moveButton(m.text, "other")); });
    var onBoard = current.legal.some(function (m) { return m.cells.length > 0; });
    if (path.length === 0) hint.textContent = onBoard ? "Click a highlighted cell" + (others.childNodes.length ? ", or choose:" : ".") : "Choose:";
    else if (Object.keys(next).length) hint.textContent = "Selected " + path.join(", ") + ": click a highlighted cell" + (complete.length ? ", or choose:" : ".");
    else hint.textContent = "Selected " + path.join(", ") + ": choose:";
  }

  function onBoardClick(event) {
    var target = event.target.closest ? event.target.closest("[data-cell]") : null;
    if (!target || busy || !current || !current.your_turn) return;
    var c = target.getAttribute("data-cell");
    say("");
    if (path.length && path[path.length - 1] === c) { path.pop(); updateMoves(); return; }
    if (nextCells()[c]) { path.push(c); updateMoves(); return; }
    path = [];
    if (nextCells()[c]) { path.push(c); } else { say("no move of yours starts at " + c); }
    updateMoves();
  }

  function itemsText(zone) {
    var span = el("span");
    if (zone.size === 0) {
      span.appendChild(el("span", {}, "empty"));
    } else if (zone.items === null) {
      span.appendChild(el("span", { "class": "item back", title: "hidden" }, zone.size + " hidden"));
    } else {
      zone.items.forEach(function (it) { span.appendChild(el("span", { "class": "item" }, it)); });
    }
    return span;
  }

  function valueText(v) { return v === null || v === undefined ? "?" : String(v); }

  function renderPlayers(p) {
    var box = document.getElementById("players");
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
      if (p.show_hand !== false) Object.keys(pl.hand || {}).forEach(function (k) { if (pl.hand[k]) row(k + " in hand", valueText(pl.hand[k])); });
      Object.keys(pl.score || {}).forEach(function (k) { row("score: " + k, valueText(pl.score[k])); });
      Object.keys(pl.zones || {}).forEach(function (k) { row(k, itemsText(pl.zones[k])); });
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
    var box = document.getElementById("zones");
    box.textContent = "";
    var zones = p.observation.zones || {};
    var names = Object.keys(zones);
    if (names.length) box.appendChild(el("h2", {}, "Cards and tokens"));
    names.forEach(function (z) {
      Object.keys(zones[z]).forEach(function (owner) {
        var d = el("div", { "class": "zone", "data-zone": z, "data-owner": owner });
        d.appendChild(el("strong", {}, z + (owner === "game" ? "" : " of " + owner) + ": "));
        d.appendChild(itemsText(zones[z][owner]));
        box.appendChild(d);
      });
    });
    var gc = document.getElementById("game-counters");
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

  function render(p) {
    var newStep = !current || current.step !== p.step;
    current = p;
    if (newStep) path = [];
    if (p.svg !== lastSvg) { document.getElementById("board").innerHTML = p.svg; lastSvg = p.svg; }
    var turn = document.getElementById("turn");
    turn.className = p.your_turn ? "yours" : "";
    turn.textContent = p.result ? "The game is over." : p.your_turn ? "Your turn." : (p.to_move ? p.to_move + " is to move." : "");
    var note = document.getElementById("engine-note");
    note.hidden = !p.engine_note;
    note.textContent = p.engine_note || "";
    renderPlayers(p);
    renderZones(p);
    var hist = document.getElementById("history");
    hist.textContent = "";
    p.history.forEach(function (h) { hist.appendChild(el("li", { "class": "move" }, (h.player ? h.player + ": " : "") + h.move)); });
    hist.scrollTop = hist.scrollHeight;
    var res = document.getElementById("result");
    if (p.result) { res.hidden = false; res.textContent = p.result.text + " (" + p.result.plies + " moves)"; } else { res.hidden = true; }
    body.setAttribute("data-step", String(p.step));
    body.setAttribute("data-your-turn", p.your_turn ? "1" : "0");
    body.setAttribute("data-over", p.result ? "1" : "0");
    updateMoves();
  }

  function refresh() {
    return fetch(stateUrl, { cache: "no-store" }).then(function (r) {
      if (!r.ok) throw new Error("the server answered " + r.status);
      return r.json();
    }).then(render).catch(function (e) { say("cannot reach the server: " + e.message); });
  }

  function submit(text) {
    if (busy || !current) return;
    busy = true;
    body.setAttribute("data-busy", "1");
    say("");
    fetch(moveUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ step: current.step, move: text }) })
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, json: j }; }); })
      .then(function (a) {
        busy = false;
        body.setAttribute("data-busy", "0");
        if (a.ok) { render(a.json); } else { say(a.json.error || "refused"); path = []; refresh(); }
      })
      .catch(function (e) { busy = false; body.setAttribute("data-busy", "0"); say("cannot reach the server: " + e.message); });
  }

  document.getElementById("board").addEventListener("click", onBoardClick);
  // Poll while others are to move: a second after the last answer came (never on a fixed
  // clock, so a slow server is not sent a new request before it answered the last one).
  function poll() {
    var asking = !busy && current && (!current.your_turn || current.engine_note) && !current.result ? refresh() : Promise.resolve();
    asking.then(function () { setTimeout(poll, 1000); });
  }
  refresh().then(function () { setTimeout(poll, 1000); });
})();
