// The score-sheet form at the table, on a phone. The four players are picked from the club's
// roster by wind (East deals the first round); each round's wins and kongs are entered with
// buttons and a keypad of the 27 tiles (the analysis board's faces when
// window.XuezhanTiles is there, else text tiles: tileFace below is the one place that
// knows). Every change is kept in this browser (localStorage) until the sheet is saved, and
// sent to the check API, which answers with each round's payments, the running totals, the
// problems in the page's language, and the next dealer as the engine works it out: the
// form never applies the dealer rule itself, it copies the engine's answer into the next
// round unless the dealer was chosen by hand. Saving posts the sheet as JSON; a sheet the
// engine finds fault with is stored only after "Save it anyway".
"use strict";
(function () {
  var app = document.getElementById("sheet-app");
  var startNode = document.getElementById("sheet-start");
  var textNode = document.getElementById("sheet-text");
  var fallback = document.getElementById("sheet-fallback");
  if (!app || !startNode || !textNode || !fallback || !window.fetch) return;
  var START = JSON.parse(startNode.textContent);
  var L = JSON.parse(textNode.textContent);
  var T = L.text;
  var csrf = fallback.querySelector("input[name=csrfmiddlewaretoken]").value;
  var SUITS = { m: "万", p: "筒", s: "条" };
  var FLAGS = ["rob_kong", "after_kong", "kong_discard", "with_previous"];

  // -- state, kept in the browser until saved ----------------------------------------
  function fresh() {
    var players = (START.players || []).slice(0, 4);
    while (players.length < 4) players.push("");
    return { players: players, ruleset: START.ruleset || "chengdu", played_at: START.played_at,
             rounds: [{ dealer: 0, events: [] }], byHand: [true], open: null };
  }
  function load() {
    try {
      var kept = JSON.parse(window.localStorage.getItem(START.key) || "null");
      if (kept && Array.isArray(kept.rounds) && kept.rounds.length && Array.isArray(kept.players)) {
        kept.byHand = kept.rounds.map(function (_, r) { return r === 0 || !!(kept.byHand || [])[r]; });
        return kept;
      }
    } catch (e) { /* private mode or a stale entry: start afresh */ }
    return null;
  }
  function keep() {
    try { window.localStorage.setItem(START.key, JSON.stringify(state)); } catch (e) { /* full */ }
  }
  function forget() {
    try { window.localStorage.removeItem(START.key); } catch (e) { /* nothing kept */ }
  }
  var state = load();
  var restored = !!state;
  if (!state) state = fresh();
  var lastCheck = null;
  var pending = null;
  var asked = 0;

  // -- small builders --------------------------------------------------------------------
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "className") node.className = attrs[k];
      else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), attrs[k]);
      else if (k in node && k !== "list" && k !== "form") node[k] = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }
  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, k) { return values[k]; });
  }
  function names() {
    return state.players.map(function (p, i) { return (p || "").trim() || L.winds[i]; });
  }
  function signed(n) { return (n > 0 ? "+" : "") + n; }
  function button(label, onClick, cls, pressed) {
    var b = el("button", { type: "button", className: cls || "", text: label, onclick: onClick });
    if (pressed !== undefined) b.setAttribute("aria-pressed", pressed ? "true" : "false");
    return b;
  }
  function choices(label, options, value, onPick, cls) {
    // a row of buttons, one pressed: for seats, kinds (big targets on a phone)
    var row = el("div", { className: "choices " + (cls || ""), role: "group", "aria-label": label });
    options.forEach(function (o) {
      var b = button(o.label, function () { onPick(o.value); }, "choice", o.value === value);
      if (o.disabled) b.disabled = true;
      row.appendChild(b);
    });
    return el("div", { className: "field" }, [el("span", { className: "label", text: label }), row]);
  }
  function seatOptions(skip) {
    return names().map(function (n, i) { return { value: i, label: n, disabled: i === skip }; });
  }

  // -- tiles: the one place that draws a tile ----------------------------------------------
  function tileLabel(code) { return code.charAt(0) + " " + (L.suits[code.charAt(1)] || code.charAt(1)); }
  function tileFace(code) {
    var faces = window.XuezhanTiles;
    if (faces && typeof faces.face === "function") {
      try {
        var drawn = faces.face(code, tileLabel(code));
        if (drawn && drawn.nodeType) return drawn;
        if (typeof drawn === "string") { var holder = el("span", { className: "tile-face" }); holder.innerHTML = drawn; return holder; }
      } catch (e) { /* fall back to the text tile */ }
    }
    return el("span", { className: "tile-text suit-" + code.charAt(1), "aria-hidden": "true" },
      [el("span", { className: "rank", text: code.charAt(0) }), el("span", { className: "suit", text: SUITS[code.charAt(1)] })]);
  }
  function keypad(value, onPick) {
    var pad = el("div", { className: "keypad", role: "group", "aria-label": T.pick_tile });
    START.tiles.forEach(function (code) {
      var key = el("button", { type: "button", className: "tile-key", "aria-label": tileLabel(code),
        "data-tile": code, onclick: function () { onPick(code); } }, [tileFace(code)]);
      key.setAttribute("aria-pressed", code === value ? "true" : "false");
      pad.appendChild(key);
    });
    return el("div", { className: "field" }, [el("span", { className: "label", text: T.tile }), pad]);
  }

  // -- editing -----------------------------------------------------------------------------
  function changed(structure) {
    keep();
    if (structure) render();
    clearTimeout(pending);
    pending = setTimeout(check, 300);
  }
  function set(obj, key, value, structure) {
    if (value === null || value === undefined || value === "" || value === false) delete obj[key];
    else obj[key] = value;
    changed(structure);
  }
  function isOpen(r, e) { return state.open && state.open[0] === r && state.open[1] === e; }

  function winEditor(round, ev, r, e) {
    var box = el("div", { className: "editor" });
    box.appendChild(choices(T.winner, seatOptions(), ev.seat, function (v) { set(ev, "seat", v, true); }, "seats"));
    var from = [{ value: null, label: T.self_drawn }].concat(seatOptions(ev.seat));
    box.appendChild(choices(T.from, from, ev.from === undefined ? null : ev.from, function (v) { set(ev, "from", v, true); }, "seats"));
    box.appendChild(keypad(ev.tile, function (code) { set(ev, "tile", code, true); }));
    var pattern = el("select", { name: "pattern", onchange: function () { set(ev, "pattern", pattern.value, true); } },
      [el("option", { value: "", text: T.choose })]);
    Object.keys(L.patterns).forEach(function (k) { pattern.appendChild(el("option", { value: k, text: L.patterns[k] })); });
    pattern.value = typeof ev.pattern === "string" ? ev.pattern : "";
    box.appendChild(el("label", { className: "field" }, [el("span", { className: "label", text: T.pattern }), pattern]));
    var fan = el("input", { type: "number", min: "0", max: "64", inputMode: "numeric", name: "fan",
      oninput: function () { set(ev, "fan", fan.value === "" ? null : +fan.value, false); } });
    fan.value = ev.fan === undefined ? "" : String(ev.fan);
    box.appendChild(el("label", { className: "field" }, [el("span", { className: "label", text: T.fan }), fan]));
    var flags = el("div", { className: "flags" });
    FLAGS.forEach(function (f) {
      if (f === "with_previous" && !(e > 0 && round.events[e - 1].type === "win")) return;
      var box2 = el("input", { type: "checkbox", checked: !!ev[f], onchange: function () { set(ev, f, box2.checked, false); } });
      flags.appendChild(el("label", { className: "check" }, [box2, " " + T[f]]));
    });
    box.appendChild(flags);
    var addOns = el("div", { className: "add-ons" });
    Object.keys(L.add_ons).forEach(function (k) {
      var n = el("input", { type: "number", min: "0", max: "8", inputMode: "numeric", name: "add_on_" + k,
        oninput: function () {
          ev.add_ons = ev.add_ons || {};
          if (n.value && +n.value > 0) ev.add_ons[k] = +n.value; else delete ev.add_ons[k];
          if (!Object.keys(ev.add_ons).length) delete ev.add_ons;
          changed(false);
        } });
      n.value = (ev.add_ons || {})[k] || "";
      addOns.appendChild(el("label", { className: "field small" }, [el("span", { className: "label", text: L.add_ons[k] }), n]));
    });
    box.appendChild(el("details", { open: !!ev.add_ons }, [el("summary", { text: T.add_ons }), addOns]));
    return box;
  }
  function kongEditor(ev) {
    var box = el("div", { className: "editor" });
    box.appendChild(choices(T.who, seatOptions(), ev.seat, function (v) { set(ev, "seat", v, true); }, "seats"));
    var kinds = Object.keys(T.kinds).map(function (k) { return { value: k, label: T.kinds[k] }; });
    box.appendChild(choices(T.kind, kinds, ev.kind, function (v) {
      ev.kind = v; if (v !== "direct") delete ev.from; changed(true);
    }, "kinds"));
    box.appendChild(keypad(ev.tile, function (code) { set(ev, "tile", code, true); }));
    if (ev.kind === "direct") {
      box.appendChild(choices(T.from, seatOptions(ev.seat), ev.from, function (v) { set(ev, "from", v, true); }, "seats"));
    }
    return box;
  }
  function summary(ev) {
    var who = names();
    if (ev.type === "win") {
      var line = ev.seat === undefined ? T.win_title :
        (ev.from === undefined ? fmt(T.win_self, { winner: who[ev.seat] }) : fmt(T.win_line, { winner: who[ev.seat], from: who[ev.from] }));
      var bits = [line];
      if (ev.pattern) bits.push(L.patterns[ev.pattern] || ev.pattern);
      if (ev.fan !== undefined) bits.push(ev.fan + " " + T.fan.split(" ")[0]);
      return { text: bits.join(" · "), tile: ev.tile };
    }
    var kong = ev.seat === undefined ? T.kong_title : fmt(T.kong_line, { who: who[ev.seat], kind: T.kinds[ev.kind] || "" });
    return { text: kong, tile: ev.tile };
  }
  function eventRow(round, ev, r, e) {
    var s = summary(ev);
    var head = el("div", { className: "event-line" }, [
      el("span", { className: "event-kind " + ev.type, text: ev.type === "win" ? T.win_title : T.kong_title }),
      s.tile ? el("span", { className: "tile-small" }, [tileFace(s.tile)]) : null,
      el("span", { className: "event-text", text: s.text }),
      button(isOpen(r, e) ? T.done : T.edit, function () { state.open = isOpen(r, e) ? null : [r, e]; changed(true); }, "link"),
      button(T.remove, function () { round.events.splice(e, 1); state.open = null; changed(true); }, "link")
    ]);
    var item = el("li", { className: "sheet-event " + ev.type, "data-event": String(e) }, [head]);
    if (isOpen(r, e)) item.appendChild(ev.type === "win" ? winEditor(round, ev, r, e) : kongEditor(ev));
    return item;
  }
  function drawChecks(round) {
    var list = el("ul", { className: "draw-checks" });
    names().forEach(function (name, seat) {
      var ready = (round.ready || []).filter(function (x) { return x.seat === seat; })[0];
      var pig = (round.flower_pigs || []).indexOf(seat) >= 0;
      var state2 = ready ? "ready" : pig ? "flower_pig" : "";
      var select = el("select", { "aria-label": name, onchange: function () {
        round.ready = (round.ready || []).filter(function (x) { return x.seat !== seat; });
        round.flower_pigs = (round.flower_pigs || []).filter(function (x) { return x !== seat; });
        if (select.value === "ready") round.ready.push({ seat: seat, fan: 0 });
        if (select.value === "flower_pig") round.flower_pigs.push(seat);
        if (!round.ready.length) delete round.ready;
        if (!round.flower_pigs.length) delete round.flower_pigs;
        changed(true);
      } }, [el("option", { value: "", text: T.still_in }), el("option", { value: "ready", text: T.ready }),
            el("option", { value: "flower_pig", text: T.flower_pig })]);
      select.value = state2;
      var row = el("li", {}, [el("span", { className: "who", text: name }), select]);
      if (ready) {
        var fan = el("input", { type: "number", min: "0", max: "64", inputMode: "numeric", "aria-label": T.fan,
          oninput: function () { ready.fan = fan.value === "" ? 0 : +fan.value; changed(false); } });
        fan.value = String(ready.fan);
        row.appendChild(el("label", { className: "inline-field" }, [T.fan.split(" ")[0] + " ", fan]));
      }
      list.appendChild(row);
    });
    return el("div", { className: "draw" }, [el("h4", { text: T.at_the_draw }), list]);
  }
  function roundBlock(round, r) {
    var dealerPick = choices(T.dealer, seatOptions(), round.dealer, function (v) {
      round.dealer = v; state.byHand[r] = true; changed(true);
    }, "seats dealer");
    var rule = el("p", { className: "rule hint", id: "dealer-rule-" + r });
    var events = el("ol", { className: "sheet-events" });
    round.events.forEach(function (ev, e) { events.appendChild(eventRow(round, ev, r, e)); });
    var drawn = el("input", { type: "checkbox", checked: !!round.drawn, onchange: function () {
      if (drawn.checked) round.drawn = true; else { delete round.drawn; delete round.ready; delete round.flower_pigs; }
      changed(true);
    } });
    var block = el("section", { className: "sheet-round", "data-round": String(r) }, [
      el("h2", { text: fmt(T.round, { n: r + 1 }) }), dealerPick, rule, events,
      el("p", { className: "actions add-event" }, [
        button("+ " + T.add_win, function () { round.events.push({ type: "win" }); state.open = [r, round.events.length - 1]; changed(true); }),
        button("+ " + T.add_kong, function () { round.events.push({ type: "kong", kind: "concealed" }); state.open = [r, round.events.length - 1]; changed(true); })
      ]),
      el("label", { className: "check" }, [drawn, " " + T.drawn])
    ]);
    if (round.drawn) block.appendChild(drawChecks(round));
    block.appendChild(el("div", { className: "round-preview", id: "round-preview-" + r, "aria-live": "polite" }));
    if (state.rounds.length > 1) {
      block.appendChild(button(T.remove_round, function () {
        state.rounds.splice(r, 1); state.byHand.splice(r, 1); state.open = null; changed(true);
      }, "link"));
    }
    return block;
  }
  function playerRow(i) {
    var value = state.players[i] || "";
    var known = START.roster.indexOf(value) >= 0;
    var select = el("select", { name: "player" + i, "aria-label": L.winds[i] }, [el("option", { value: "", text: T.choose })]);
    START.roster.forEach(function (h) { select.appendChild(el("option", { value: h, text: h })); });
    select.appendChild(el("option", { value: "\u0000new", text: T.new_player }));
    select.value = known ? value : (value ? "\u0000new" : "");
    var typed = el("input", { type: "text", name: "new" + i, maxLength: 64, autocomplete: "off",
      placeholder: T.new_player_name, "aria-label": T.new_player_name + " (" + L.winds[i] + ")",
      oninput: function () { state.players[i] = typed.value; changed(false); renamed(); } });
    typed.value = known ? "" : value;
    typed.hidden = select.value !== "\u0000new";
    select.addEventListener("change", function () {
      var isNew = select.value === "\u0000new";
      typed.hidden = !isNew;
      state.players[i] = isNew ? typed.value : select.value;
      if (isNew) typed.focus();
      changed(true);
    });
    return el("div", { className: "player-row" }, [el("span", { className: "wind", text: L.winds[i] }), select, typed]);
  }
  function renamed() {
    // names typed in place change the buttons' labels without rebuilding the inputs
    var who = names();
    Array.prototype.forEach.call(app.querySelectorAll(".choices.seats"), function (row) {
      Array.prototype.forEach.call(row.querySelectorAll("button.choice"), function (b, i) {
        var offset = row.querySelectorAll("button.choice").length === 5 ? 1 : 0;
        if (i >= offset) b.textContent = who[i - offset];
      });
    });
  }

  var problemsBox = el("section", { className: "sheet-problems", id: "sheet-problems", "aria-live": "polite" });
  var totalsBox = el("p", { className: "sheet-totals", id: "sheet-totals" });
  var status = el("p", { className: "sheet-status hint", id: "sheet-status", "aria-live": "polite" });
  var saveArea = el("div", { className: "save-area" });

  function render() {
    app.textContent = "";
    if (restored) {
      app.appendChild(el("p", { className: "note" }, [T.kept + " ", button(T.start_afresh, function () {
        if (!window.confirm(T.afresh_sure)) return;
        forget(); state = fresh(); restored = false; lastCheck = null; changed(true);
      }, "link")]));
    }
    var players = el("fieldset", { className: "players" }, [el("legend", { text: T.players })]);
    for (var i = 0; i < 4; i++) players.appendChild(playerRow(i));
    app.appendChild(players);
    var ruleset = el("select", { name: "ruleset", onchange: function () { state.ruleset = ruleset.value; changed(false); } });
    START.rulesets.forEach(function (r) { ruleset.appendChild(el("option", { value: r[0], text: r[1] })); });
    ruleset.value = state.ruleset;
    var when = el("input", { type: "datetime-local", name: "played_at", value: state.played_at || "",
      onchange: function () { state.played_at = when.value; changed(false); } });
    app.appendChild(el("div", { className: "row sheet-meta" }, [
      el("label", { className: "field" }, [el("span", { className: "label", text: T.ruleset }), ruleset]),
      el("label", { className: "field" }, [el("span", { className: "label", text: T.played_at }), when])
    ]));
    state.rounds.forEach(function (round, r) { app.appendChild(roundBlock(round, r)); });
    app.appendChild(el("p", { className: "actions" }, [button("+ " + T.add_round, addRound, "next-round")]));
    app.appendChild(problemsBox);
    app.appendChild(totalsBox);
    app.appendChild(status);
    app.appendChild(saveArea);
    if (!saveArea.firstChild) saveArea.appendChild(button(fallback.querySelector("button[type=submit]").textContent, function () { save(false); }, "primary save"));
    if (lastCheck) show(lastCheck);
  }
  function addRound() {
    var r = state.rounds.length;
    var before = lastCheck && lastCheck.rounds[r - 1];
    var dealer = before && before.next_dealer !== null && before.next_dealer !== undefined ? before.next_dealer : state.rounds[r - 1].dealer;
    state.rounds.push({ dealer: dealer, events: [] });
    state.byHand.push(false);
    state.open = null;
    changed(true);
    var added = app.querySelector('[data-round="' + r + '"]');
    if (added && added.scrollIntoView) added.scrollIntoView({ block: "start" });
  }

  // -- the check API ---------------------------------------------------------------------
  function sheet() {
    return { format: "xuezhan-sheet", version: 1, ruleset: state.ruleset,
             players: state.players.map(function (p) { return (p || "").trim(); }), rounds: state.rounds };
  }
  function check() {
    var mine = ++asked;
    status.textContent = T.checking;
    fetch(START.check, { method: "POST", credentials: "same-origin", body: JSON.stringify(sheet()),
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf } })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
      .then(function (result) {
        if (mine !== asked) return;
        status.textContent = "";
        lastCheck = result;
        if (followDealers(result)) { changed(true); return; }
        show(result);
      }, function () {
        if (mine === asked) status.textContent = T.offline;
      });
  }
  function followDealers(result) {
    // the engine's next dealer goes into each following round not chosen by hand
    var moved = false;
    for (var r = 1; r < state.rounds.length; r++) {
      var before = result.rounds[r - 1];
      if (state.byHand[r] || !before || !before.settled) continue;
      if (before.next_dealer !== null && before.next_dealer !== undefined && state.rounds[r].dealer !== before.next_dealer) {
        state.rounds[r].dealer = before.next_dealer;
        moved = true;
      }
    }
    return moved;
  }
  function show(result) {
    var who = names();
    state.rounds.forEach(function (round, r) {
      var slot = document.getElementById("round-preview-" + r);
      var rule = document.getElementById("dealer-rule-" + r);
      var got = result.rounds[r];
      if (rule) {
        var before = r > 0 ? result.rounds[r - 1] : null;
        rule.textContent = r === 0 ? "" : state.byHand[r] ? T.dealer_by_hand :
          before && before.settled ? before.rule + " " + T.dealer_rule : T.dealer_waiting;
      }
      if (!slot) return;
      slot.textContent = "";
      if (!got || !got.settled) return;
      var list = el("ul", { className: "payments" });
      got.payments.forEach(function (p) {
        list.appendChild(el("li", {}, [who[p.payer] + " → " + who[p.payee] + " " + p.amount + " ",
          el("span", { className: "reason", title: p.text, text: p.label })]));
      });
      if (!got.payments.length) list.appendChild(el("li", { text: T.no_payments }));
      slot.appendChild(el("h3", { text: T.payments }));
      slot.appendChild(list);
      slot.appendChild(el("p", { className: "running" }, [el("strong", { text: fmt(T.after_round, { n: r + 1 }) + ": " }),
        got.totals.map(function (t, i) { return who[i] + " " + signed(t); }).join(" · ")]));
    });
    problemsBox.textContent = "";
    Array.prototype.forEach.call(app.querySelectorAll(".has-problem"), function (n) { n.classList.remove("has-problem"); });
    if (result.problems.length) {
      var items = el("ul", { className: "problems" });
      result.problems.forEach(function (p) {
        items.appendChild(el("li", { className: p.blocking ? "blocking" : "finding", text: p.text }));
        if (p.round !== null && p.round !== undefined) {
          var block = app.querySelector('[data-round="' + p.round + '"]');
          var target = block && p.event !== null && p.event !== undefined ? block.querySelector('[data-event="' + p.event + '"]') : block;
          if (target) target.classList.add("has-problem");
        }
      });
      problemsBox.appendChild(el("h3", { text: T.problems }));
      problemsBox.appendChild(items);
    } else {
      problemsBox.appendChild(el("p", { className: "good", text: T.all_good }));
    }
    totalsBox.textContent = "";
    totalsBox.appendChild(el("strong", { text: T.totals + ": " }));
    totalsBox.appendChild(document.createTextNode(result.totals.map(function (t, i) { return who[i] + " " + signed(t); }).join(" · ")));
  }

  // -- saving ---------------------------------------------------------------------------
  function save(confirmed) {
    var body = { players: sheet().players, ruleset: state.ruleset, played_at: state.played_at, rounds: state.rounds };
    if (confirmed) body.confirmed = true;
    status.textContent = T.saving;
    var url = START.save + (START.night ? "?night=" + START.night : "");
    fetch(url, { method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf } })
      .then(function (r) { return r.json().then(function (data) { return { status: r.status, data: data }; }); })
      .then(function (answer) {
        status.textContent = "";
        if (answer.data.ok) { forget(); window.location.assign(answer.data.url); return; }
        saveArea.textContent = "";
        var list = el("ul", { className: "problems" });
        answer.data.problems.forEach(function (p) { list.appendChild(el("li", { text: p.text })); });
        saveArea.appendChild(el("p", { className: "refused", text: T.save_refused }));
        saveArea.appendChild(list);
        if (answer.data.confirm) saveArea.appendChild(button(T.save_anyway, function () { save(true); }, "danger save-anyway"));
        saveArea.appendChild(button(fallback.querySelector("button[type=submit]").textContent, function () { save(false); }, "primary save"));
      }, function () { status.textContent = T.offline; });
  }

  fallback.hidden = true;
  app.hidden = false;
  window.addEventListener("online", check);
  render();
  check();
})();
