// The score-sheet form, round by round: fields for the dealer, the wins and kongs in order,
// and at a drawn round who was ready and who was a flower pig. The fields are the sheet
// (xuezhan-sheet v1, xuezhan/schema/sheet-v1.json): every change rewrites the JSON textarea the server
// reads and asks the preview API to settle it, so the payments show as the sheet grows.
// Without this script the page keeps the JSON textarea and the server's preview.
"use strict";
(function () {
  var form = document.getElementById("sheet-form");
  var host = document.getElementById("sheet-rounds");
  var json = document.getElementById("rounds");
  var preview = document.getElementById("sheet-preview");
  var textNode = document.getElementById("sheet-text");
  if (!form || !host || !json || !preview || !textNode || !window.fetch) return;
  var L = JSON.parse(textNode.textContent);
  var T = L.text;
  var csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  var rounds = initialRounds();
  var pending = null;
  var asked = 0;

  function initialRounds() {
    if (form.dataset.posted) {
      try {
        var given = JSON.parse(json.value);
        if (Array.isArray(given) && given.length) return given;
      } catch (e) { /* the server already said why; start afresh */ }
    }
    return [{ dealer: 0, events: [] }];
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k in node && k !== "list") node[k] = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }
  function names() {
    return [0, 1, 2, 3].map(function (i) {
      var v = form.elements["player" + i].value.trim();
      return v || T.seat + " " + i;
    });
  }
  function seatSelect(value, onChange, extra) {
    var select = el("select", { className: "seat-select" });
    if (extra) select.appendChild(el("option", { value: "", text: extra }));
    names().forEach(function (n, i) { select.appendChild(el("option", { value: String(i), text: n })); });
    select.value = value === undefined || value === null ? "" : String(value);
    select.addEventListener("change", function () { onChange(select.value === "" ? null : +select.value); });
    return select;
  }
  function choice(options, value, onChange, blank) {
    var select = el("select");
    if (blank !== undefined) select.appendChild(el("option", { value: "", text: blank }));
    Object.keys(options).forEach(function (k) { select.appendChild(el("option", { value: k, text: options[k] })); });
    select.value = value || "";
    select.addEventListener("change", function () { onChange(select.value); });
    return select;
  }
  function field(label, control) {
    control.setAttribute("aria-label", label);
    return el("label", { className: "field" }, [el("span", { text: label }), control]);
  }
  function flag(label, value, onChange) {
    var box = el("input", { type: "checkbox", checked: !!value });
    box.addEventListener("change", function () { onChange(box.checked); });
    return el("label", { className: "flag" }, [box, document.createTextNode(" " + label)]);
  }
  function number(value, onChange, attrs) {
    var input = el("input", Object.assign({ type: "number", min: "0", max: "64", inputMode: "numeric" }, attrs || {}));
    input.value = value === undefined || value === null ? "" : String(value);
    input.addEventListener("input", function () { onChange(input.value === "" ? null : +input.value); });
    return input;
  }
  function tileInput(value, onChange) {
    var input = el("input", { size: 3, maxLength: 2, placeholder: "9m", pattern: "[1-9][mps]", className: "tile-input" });
    input.value = value || "";
    input.addEventListener("input", function () { onChange(input.value.trim()); });
    return input;
  }
  function set(obj, key, value) {
    if (value === null || value === "" || value === false) delete obj[key]; else obj[key] = value;
    changed();
  }
  function button(label, onClick, cls) {
    var b = el("button", { type: "button", text: label, className: cls || "" });
    b.addEventListener("click", onClick);
    return b;
  }

  function winFields(ev, list, index) {
    var addOns = el("div", { className: "add-ons" });
    Object.keys(L.add_ons).forEach(function (k) {
      addOns.appendChild(field(L.add_ons[k], number((ev.add_ons || {})[k], function (n) {
        ev.add_ons = ev.add_ons || {};
        if (n) ev.add_ons[k] = n; else delete ev.add_ons[k];
        if (!Object.keys(ev.add_ons).length) delete ev.add_ons;
        changed();
      }, { max: "8", name: "add_on_" + k })));
    });
    var details = el("details", { open: !!ev.add_ons }, [el("summary", { text: T.add_ons }), addOns]);
    return [
      field(T.winner, seatSelect(ev.seat, function (v) { set(ev, "seat", v); })),
      field(T.on_discard_of, seatSelect(ev.from, function (v) { set(ev, "from", v); }, T.self_drawn)),
      field(T.tile, tileInput(ev.tile, function (v) { set(ev, "tile", v); })),
      field(T.pattern, choice(L.patterns, ev.pattern, function (v) { set(ev, "pattern", v); }, "—")),
      field(T.fan, number(ev.fan, function (v) { set(ev, "fan", v); })),
      el("div", { className: "flags" }, [
        flag(T.rob_kong, ev.rob_kong, function (v) { set(ev, "rob_kong", v); }),
        flag(T.after_kong, ev.after_kong, function (v) { set(ev, "after_kong", v); }),
        flag(T.kong_discard, ev.kong_discard, function (v) { set(ev, "kong_discard", v); }),
        index > 0 && list[index - 1].type === "win" ?
          flag(T.with_previous, ev.with_previous, function (v) { set(ev, "with_previous", v); }) : null
      ]),
      details
    ];
  }
  function kongFields(ev) {
    return [
      field(T.who, seatSelect(ev.seat, function (v) { set(ev, "seat", v); })),
      field(T.kind, choice(T.kinds, ev.kind, function (v) { set(ev, "kind", v); })),
      field(T.tile, tileInput(ev.tile, function (v) { set(ev, "tile", v); })),
      field(T.from, seatSelect(ev.from, function (v) { set(ev, "from", v); }, "—"))
    ];
  }
  function eventRow(round, ev, index) {
    var title = el("h5", { text: (ev.type === "win" ? T.win : T.kong) });
    var fields = ev.type === "win" ? winFields(ev, round.events, index) : kongFields(ev);
    var remove = button(T.remove, function () { round.events.splice(index, 1); render(); }, "link");
    return el("li", { className: "sheet-event " + ev.type }, [title].concat(fields, [remove]));
  }
  function drawRows(round) {
    var list = el("ul", { className: "draw-checks" });
    names().forEach(function (name, seat) {
      var ready = (round.ready || []).filter(function (r) { return r.seat === seat; })[0];
      var pig = (round.flower_pigs || []).indexOf(seat) >= 0;
      var state = ready ? "ready" : pig ? "flower_pig" : "";
      var row = el("li", {}, [el("span", { className: "who", text: name })]);
      row.appendChild(choice({ ready: T.ready, flower_pig: T.flower_pig }, state, function (v) {
        round.ready = (round.ready || []).filter(function (r) { return r.seat !== seat; });
        round.flower_pigs = (round.flower_pigs || []).filter(function (s) { return s !== seat; });
        if (v === "ready") round.ready.push({ seat: seat, fan: 0 });
        if (v === "flower_pig") round.flower_pigs.push(seat);
        if (!round.ready.length) delete round.ready;
        if (!round.flower_pigs.length) delete round.flower_pigs;
        render();
      }, T.still_in));
      if (ready) {
        row.appendChild(field(T.pattern, choice(L.patterns, ready.pattern, function (v) { set(ready, "pattern", v); }, "—")));
        row.appendChild(field(T.fan, number(ready.fan, function (v) { ready.fan = v === null ? 0 : v; changed(); })));
      }
      list.appendChild(row);
    });
    return el("div", {}, [el("h5", { text: T.at_the_draw }), list]);
  }
  function roundBlock(round, index) {
    var events = el("ol", { className: "sheet-events" });
    round.events.forEach(function (ev, i) { events.appendChild(eventRow(round, ev, i)); });
    var block = el("fieldset", { className: "sheet-round" }, [
      el("legend", { text: T.round + " " + (index + 1) }),
      field(T.dealer, seatSelect(round.dealer, function (v) { round.dealer = v === null ? 0 : v; changed(); })),
      events,
      el("p", { className: "actions" }, [
        button(T.add_win, function () { round.events.push({ type: "win", seat: 0 }); render(); }),
        document.createTextNode(" "),
        button(T.add_kong, function () { round.events.push({ type: "kong", seat: 0, kind: "concealed" }); render(); })
      ]),
      flag(T.drawn, round.drawn, function (v) {
        if (v) round.drawn = true; else { delete round.drawn; delete round.ready; delete round.flower_pigs; }
        render();
      })
    ]);
    if (round.drawn) block.appendChild(drawRows(round));
    if (rounds.length > 1) {
      block.appendChild(button(T.remove_round, function () { rounds.splice(index, 1); render(); }, "link"));
    }
    block.appendChild(el("div", { className: "round-preview", id: "round-preview-" + index }));
    return block;
  }

  function render() {
    host.textContent = "";
    rounds.forEach(function (r, i) { host.appendChild(roundBlock(r, i)); });
    host.appendChild(button(T.add_round, function () {
      var last = rounds[rounds.length - 1];
      rounds.push({ dealer: last ? last.dealer : 0, events: [] });
      render();
    }));
    changed();
  }

  function sheet() {
    var doc = { format: "xuezhan-sheet", version: 1, players: names(), rounds: rounds };
    var ruleset = form.elements.ruleset.value.trim();
    doc.ruleset = ruleset || "chengdu";
    if (form.elements.played_at.value) doc.played_at = form.elements.played_at.value;
    return doc;
  }
  function changed() {
    json.value = JSON.stringify(rounds, null, 1);
    clearTimeout(pending);
    pending = setTimeout(ask, 250);
  }
  function ask() {
    var mine = ++asked;
    preview.hidden = false;
    preview.setAttribute("aria-busy", "true");
    fetch(form.dataset.preview, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(sheet()),
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf }
    }).then(function (r) { return r.json(); }).then(function (report) {
      if (mine === asked) show(report);
    }, function () {
      if (mine === asked) { preview.textContent = ""; preview.appendChild(el("p", { className: "errors", text: T.failed })); }
    });
  }
  function signed(n) { return (n > 0 ? "+" : "") + n; }
  function deltas(list, who) {
    return list.map(function (d, i) { return who[i] + " " + signed(d); }).join(", ");
  }
  function show(report) {
    var who = names();
    Array.prototype.forEach.call(host.querySelectorAll(".round-preview"), function (s) { s.textContent = ""; });
    preview.removeAttribute("aria-busy");
    preview.textContent = "";
    preview.appendChild(el("h3", { text: T.preview }));
    if (report.violations && report.violations.length) {
      var bad = el("ul", { className: "errors" });
      report.violations.forEach(function (v) {
        var where = (v.round !== null && v.round !== undefined ? T.round + " " + (v.round + 1) + " " : "") +
          (v.event !== null && v.event !== undefined ? T.event + " " + (v.event + 1) + " " : "");
        bad.appendChild(el("li", {}, [document.createTextNode(where), el("code", { text: v.code }),
          document.createTextNode(" " + (L.violations[v.code] || "") + " " + v.message)]));
      });
      preview.appendChild(bad);
    } else {
      preview.appendChild(el("p", { text: T.adds_up }));
    }
    (report.rounds || []).forEach(function (r, i) {
      var items = el("ul", { className: "payments" });
      r.payments.forEach(function (p) {
        items.appendChild(el("li", {}, [document.createTextNode(who[p.payer] + " → " + who[p.payee] + " " + p.amount + " "),
          el("span", { className: "reason", title: p.detail, text: L.reasons[p.reason] || p.reason })]));
      });
      if (!r.payments.length) items.appendChild(el("li", { text: T.no_payments }));
      var slot = document.getElementById("round-preview-" + i);
      if (!slot) return;
      slot.textContent = "";
      slot.appendChild(el("h4", { text: T.payments + ": " + deltas(r.deltas, who) }));
      slot.appendChild(items);
    });
    if (report.totals && report.rounds && report.rounds.length) {
      preview.appendChild(el("p", {}, [el("strong", { text: T.totals + ": " }),
        document.createTextNode(deltas(report.totals, who))]));
    }
  }

  document.getElementById("sheet-json").hidden = true;
  host.hidden = false;
  var stale = document.getElementById("sheet-server-report");
  if (stale) stale.hidden = true;
  var serverPreview = form.querySelector("button[value=preview]");
  if (serverPreview) serverPreview.style.display = "none";
  // renamed in place: a full render here would swap the button a click is landing on
  function renamed() {
    var who = names();
    Array.prototype.forEach.call(host.querySelectorAll(".seat-select option"), function (o) {
      if (o.value !== "") o.textContent = who[+o.value];
    });
    Array.prototype.forEach.call(host.querySelectorAll(".draw-checks .who"), function (span, i) {
      span.textContent = who[i % 4];
    });
    changed();
  }
  ["player0", "player1", "player2", "player3"].forEach(function (n) {
    form.elements[n].addEventListener("change", renamed);
  });
  form.elements.ruleset.addEventListener("change", changed);
  render();
})();
