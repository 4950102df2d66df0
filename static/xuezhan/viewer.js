// The replay viewer: draws one round's replay frames (embedded by the page with json_script)
// around a square table and steps through them. Plain JavaScript, no build step. Step 0 is
// the deal, step n the table after event n (events counted from 1). Every frame key is read
// defensively: the engine may add keys, and an older frame may lack some. The table, the
// timeline's marks and the links into it are described in docs/board.md.
"use strict";
(function () {
  var root = document.getElementById("viewer");
  var source = document.getElementById("viewer-data");
  if (!root || !source) return;
  var data = JSON.parse(source.textContent);
  var frames = Array.isArray(data.frames) ? data.frames : [];
  if (!frames.length) return;
  var names = data.names || [];
  var T = data.text || {};
  var labels = data.labels || {};
  var last = frames.length - 1;
  var SUIT_CHAR = { m: "万", p: "筒", s: "条" };
  var SEATS = [0, 1, 2, 3];
  // where a seat sits, counted from the viewing seat in turn order: turn order runs
  // counter-clockwise, so 下家 sits on the right, 对家 at the top, 上家 on the left
  var PLACES = ["bottom", "right", "top", "left"];
  var Tiles = window.XuezhanTiles || null;  // tiles.js: drawn faces; without it, text tiles
  if (Tiles) Tiles.names = data.tile_names || {};

  var state = { step: 0, seeAs: null, timer: null, review: false };
  var $ = function (id) { return document.getElementById(id); };

  function fmt(text, args) {
    return String(text || "").replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(args, key) ? String(args[key]) : whole;
    });
  }
  function nameOf(seat) {
    // isolated (U+2068 … U+2069, as the |name_text filter does): a right-to-left name
    // cannot reorder the sentence it is set in
    return seat !== null && seat !== undefined && names[seat] !== undefined
      ? "\u2068" + names[seat] + "\u2069" : "?";
  }
  function tileText(tile) {
    return typeof tile === "string" && tile.length === 2 ? tile[0] + (SUIT_CHAR[tile[1]] || tile[1]) : "?";
  }
  function tileLabel(tile) {
    if (typeof tile !== "string" || tile.length !== 2) return "?";
    if (data.tile_names && data.tile_names[tile]) return data.tile_names[tile];
    return fmt(T.tile, { rank: tile[0], suit: (labels.suit || {})[tile[1]] || SUIT_CHAR[tile[1]] || tile[1] });
  }
  function make(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function tileNode(tile, extra, title) {
    if (Tiles) return Tiles.node(tile, extra, title);
    var node = make("span", "tile suit-" + (tile ? tile[1] : "x") + (extra ? " " + extra : ""));
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", tileLabel(tile) + (title ? " — " + title : ""));
    if (title) node.title = title;
    node.appendChild(make("b", null, tile ? tile[0] : "?"));
    node.appendChild(make("i", null, tile ? SUIT_CHAR[tile[1]] || tile[1] : ""));
    return node;
  }
  function backNode() {
    if (Tiles) return Tiles.back();
    var node = make("span", "tile back");
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  // -- the one thing the frames do not carry: each winner's winning tile (the tile of its
  // win), to mark in its hand; rivers, the win order and the exchange are the frames' own
  // (xuezhan/frames.py: rivers with claimed_by / won_by, win_order, the exchange's receive)
  var winTiles = [];
  (function () {
    var won = {};
    frames.forEach(function (frame) {
      var action = frame && frame.action;
      if (action && action.type === "hu" && !(action.actor in won)) won[action.actor] = action.tile;
      winTiles.push(Object.assign({}, won));
    });
  })();
  function actionType(step) {
    var action = (frames[step] || {}).action;
    return action ? action.type : null;
  }

  var violationsAt = {};
  (data.violations || []).forEach(function (v) {
    (violationsAt[v.step] = violationsAt[v.step] || []).push(v);
  });


  function describe(step) {
    var frame = frames[step] || {};
    var action = frame.action;
    if (!action || action.type === "deal") { // step 0, the deal
      var dice = Array.isArray(data.dice) ? data.dice.join(" + ") : null;
      return fmt(dice ? T.deal_dice : T.deal, { dealer: nameOf(data.dealer), dice: dice });
    }
    var args = { actor: nameOf(action.actor), target: nameOf(action.target), tile: tileText(action.tile) };
    switch (action.type) {
      case "exchange": return fmt(T.exchange, { die: action.die === undefined ? "?" : action.die });
      case "dingque":
        return fmt(T.dingque, { suits: (action.suits || []).map(function (s, seat) {
          return nameOf(seat) + " " + (SUIT_CHAR[s] || s);
        }).join(", ") });
      case "draw": return fmt(T.draw, args);
      case "discard": return fmt(T.discard, args);
      case "peng": return fmt(T.peng, args);
      case "gang": return fmt(T["gang_" + action.kind] || T.gang_ming, args);
      case "hu": return fmt(action.target === undefined || action.target === null ? T.hu_self : T.hu_discard, args);
      default: return fmt(T.other, { number: step, type: action.type });
    }
  }

  // -- the decision review (docs/review.md), fetched once with the page: its mistakes mark
  // the timeline; the panel shows when the toggle is on. A decision's ``event`` indexes the
  // round's events from 0, so it shows at step event + 1.
  var REVIEW_KEY = "xuezhan.viewer.review";
  var MISTAKES = { worse: true, void_held: true };  // a passed win is counted apart
  var review = { status: "idle", at: {}, decisions: [] };
  function loadReview() {
    if (review.status !== "idle" || !data.review_url || !window.fetch) return;
    review.status = "loading";
    fetch(data.review_url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("review: HTTP " + response.status);
        return response.json();
      })
      .then(function (body) {
        review.decisions = body.decisions || [];
        review.decisions.forEach(function (d) {
          var step = (d.event | 0) + 1;
          (review.at[step] = review.at[step] || []).push(d);
        });
        review.status = "ready";
      }, function () { review.status = "failed"; })
      .then(function () { renderMarks(); renderReview(); });
  }
  function isMistake(d) {
    return !!MISTAKES[d.verdict] && (state.seeAs === null || d.seat === state.seeAs);
  }
  // 1 a small loss, 2 a mistake, 3 a blunder (docs/board.md): by the unseen 进张 lost
  function severity(d) {
    var loss = d.loss | 0;
    if (d.verdict === "void_held" || loss >= 12) return 3;
    return loss >= 5 ? 2 : 1;
  }
  function mistakesAt(step) { return (review.at[step] || []).filter(isMistake); }
  function mistakeSteps() {
    var steps = [];
    for (var s = 0; s <= last; s++) if (mistakesAt(s).length) steps.push(s);
    return steps;
  }
  // "336m" (three tiles), "m" (a suit), "peng 5m", "gang 5m", "hu 5m" or "pass"
  function chosenNodes(chosen) {
    var box = make("span", "chosen");
    var text = String(chosen || ""), words = text.split(" ");
    if (text === "pass") { box.textContent = T.review_pass; return box; }
    if (/^[mps]$/.test(text)) {
      box.appendChild(make("span", "badge void suit-" + text, SUIT_CHAR[text]));
      return box;
    }
    if (words.length === 2) {
      box.appendChild(make("span", null, (T["review_" + words[0]] || words[0]) + " "));
      text = words[1];
    }
    var groups = text.match(/\d+[mps]/g) || [];
    if (!groups.length) box.appendChild(make("span", null, text));
    groups.forEach(function (group) {
      var suit = group[group.length - 1];
      group.slice(0, -1).split("").forEach(function (rank) { box.appendChild(tileNode(rank + suit, "small")); });
    });
    return box;
  }
  function ukeireNodes(entries) {
    var box = make("span", "ukeire");
    (entries || []).forEach(function (u) {
      var item = make("span", "ukeire-tile");
      item.appendChild(tileNode(u.tile, "small"));
      item.appendChild(make("small", null, "×" + u.unseen));
      box.appendChild(item);
    });
    return box;
  }
  function unseenOf(entries) {
    return (entries || []).reduce(function (sum, u) { return sum + (u.unseen | 0); }, 0);
  }
  function ukeireBlock(entries, open) {  // folded when several seats decide at once
    var ukeire = make("details", "decision-ukeire");
    ukeire.open = open;
    ukeire.appendChild(make("summary", null, fmt(T.review_ukeire, { count: unseenOf(entries) })));
    ukeire.appendChild(ukeireNodes(entries));
    return ukeire;
  }
  // what was best and why, in numbers: its shanten and its 进张 with their unseen counts
  function bestNode(d, several) {
    var best = (d.alternatives || [])[0];
    if (!best || best.chosen === d.chosen || !MISTAKES[d.verdict]) return null;
    var box = make("div", "decision-best");
    var line = make("p", "decision-line");
    line.appendChild(make("span", null, T.review_best + " "));
    line.appendChild(chosenNodes(best.chosen));
    line.appendChild(make("span", "shanten", fmt(T.review_shanten, { before: best.shanten_before, after: best.shanten_after })));
    box.appendChild(line);
    if (unseenOf(best.ukeire)) box.appendChild(ukeireBlock(best.ukeire, !several));
    return box;
  }
  function reviewNode(d, several) {
    var node = make("article", "decision verdict-" + d.verdict + (MISTAKES[d.verdict] ? " severity-" + severity(d) : ""));
    var head = make("p", "decision-head");
    head.appendChild(make("strong", null, fmt(T.review_of, { name: nameOf(d.seat), kind: T["kind_" + d.kind] || d.kind })));
    head.appendChild(make("span", "badge verdict", T["verdict_" + d.verdict] || d.verdict));
    if (d.loss > 0) head.appendChild(make("span", "loss", fmt(T.review_loss, { count: d.loss })));
    node.appendChild(head);
    var line = make("p", "decision-line");
    line.appendChild(make("span", null, T.review_chosen + " "));
    line.appendChild(chosenNodes(d.chosen));
    line.appendChild(make("span", "shanten", fmt(T.review_shanten, { before: d.shanten_before, after: d.shanten_after })));
    node.appendChild(line);
    if (unseenOf(d.ukeire)) node.appendChild(ukeireBlock(d.ukeire, !several));
    var best = bestNode(d, several);
    if (best) node.appendChild(best);
    var options = (d.alternatives || []).slice(0, 3);
    if (options.length > 1) {
      var list = make("ol", "alternatives");
      options.forEach(function (o) {
        var item = make("li", o.chosen === d.chosen ? "is-chosen" : "");
        item.appendChild(chosenNodes(o.chosen));
        var after = o.shanten_after < 0 ? "—" : o.shanten_after;
        item.appendChild(make("span", null, " " + fmt(T.review_option, { shanten: after, count: o.unseen })));
        list.appendChild(item);
      });
      node.appendChild(make("p", "decision-line", T.review_alternatives));
      node.appendChild(list);
    }
    return node;
  }
  function renderReview() {
    var box = $("step-review");
    if (!box) return;
    box.textContent = "";
    box.hidden = !state.review;
    if (!state.review) return;
    if (review.status === "loading" || review.status === "idle") {
      box.appendChild(make("p", "muted", T.review_loading));
      return;
    }
    if (review.status === "failed") {
      box.appendChild(make("p", "muted", T.review_failed));
      return;
    }
    var shown = (review.at[state.step] || []).filter(function (d) {
      return state.seeAs === null || d.seat === state.seeAs;
    });
    if (!shown.length) box.appendChild(make("p", "muted", T.review_none));
    shown.forEach(function (d) { box.appendChild(reviewNode(d, shown.length > 1)); });
  }
  function setReview(on) {
    state.review = !!on;
    $("review-toggle").checked = state.review;
    root.classList.toggle("reviewing", state.review);
    try { window.localStorage.setItem(REVIEW_KEY, state.review ? "1" : "0"); } catch (e) { /* private mode */ }
    loadReview();
    renderReview();
  }

  // -- the timeline: marks under the slider and in the step list --------------------------
  function stepMarks(step) {
    var marks = [], type = actionType(step);
    if (type === "hu") marks.push({ kind: "win", text: T.mark_win });
    if (type === "gang") marks.push({ kind: "kong", text: T.mark_kong });
    if (violationsAt[step]) marks.push({ kind: "violation", text: T.mark_violation });
    var worst = null;
    mistakesAt(step).forEach(function (d) { if (!worst || severity(d) > severity(worst)) worst = d; });
    if (worst) {
      marks.push({ kind: "mistake severity-" + severity(worst), text: fmt(T.mark_mistake, {
        name: nameOf(worst.seat), verdict: T["verdict_" + worst.verdict] || worst.verdict, count: worst.loss | 0 }) });
    }
    return marks;
  }
  function renderMarks() {
    var line = $("timeline"), list = $("step-list");
    if (line) line.textContent = "";
    for (var step = 0; step <= last; step++) {
      var marks = stepMarks(step);
      var item = list && list.children[step];
      if (item) {
        var old = item.querySelector(".step-marks");
        if (old) item.removeChild(old);
        item.className = item.className.replace(/\s*mark-\S+/g, "");
      }
      if (!marks.length) continue;
      var box = make("span", "step-marks");
      marks.forEach(function (mark) {
        if (item) item.classList.add("mark-" + mark.kind.split(" ")[0]);
        box.appendChild(make("span", "step-mark mark-" + mark.kind, mark.text));
        if (line) {
          var dot = make("span", "tick mark-" + mark.kind);
          dot.style.left = (last ? step / last * 100 : 0) + "%";
          dot.dataset.step = step;
          dot.title = describe(step) + " — " + mark.text;
          line.appendChild(dot);
        }
      });
      if (item) item.appendChild(box);
    }
    var any = mistakeSteps().length > 0;
    $("prev-mistake").disabled = !any;
    $("next-mistake").disabled = !any;
  }
  function jumpMistake(forward) {
    var steps = mistakeSteps();
    if (!forward) steps.reverse();
    for (var i = 0; i < steps.length; i++) {
      if (forward ? steps[i] > state.step : steps[i] < state.step) return go(steps[i]);
    }
  }

  // -- drawing ---------------------------------------------------------------------------
  function viewingSeat() { return state.seeAs === null ? 0 : state.seeAs; }
  function badgesOf(seat, frame, won) {
    var badges = make("span", "badges");
    if (seat === data.dealer) badges.appendChild(make("span", "badge dealer", T.dealer));
    var voids = frame.voids || [];
    if (voids[seat]) badges.appendChild(make("span", "badge void suit-" + voids[seat], fmt(T.void, { suit: SUIT_CHAR[voids[seat]] || voids[seat] })));
    if (won) badges.appendChild(make("span", "badge won", fmt(T.won, { order: (frame.win_order || []).indexOf(seat) + 1 || "?" })));
    if (frame.to_act === seat && !won) badges.appendChild(make("span", "badge to-act", T.to_act));
    return badges;
  }
  // a meld as it lies on the table: the claimed tile turned toward the seat it came from
  // (上家: first, 对家: second, 下家: last); an added kong's fourth tile lies on the turned
  // one; a concealed kong shows its ends face down
  function meldNode(seat, meld) {
    var kind = meld.kind === "peng" ? "peng" : meld.kind;
    var group = make("span", "meld meld-" + kind);
    var count = kind === "peng" || kind === "jia" ? 3 : 4;
    var source = meld.from !== undefined && meld.from !== null && meld.from !== seat ? meld.from : null;
    var from = source === null ? "" : fmt(T.meld_from, { name: nameOf(source) });
    var title = (T[kind + "_meld"] || kind) + (from ? ", " + from : "");
    var side = source === null ? -1 : (source - seat + 4) % 4;  // 1 下家, 2 对家, 3 上家
    var turned = side === 3 ? 0 : side === 2 ? 1 : side === 1 ? count - 1 : -1;
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", title);
    group.title = title;
    for (var i = 0; i < count; i++) {
      if (kind === "an" && (i === 0 || i === 3)) { group.appendChild(backNode()); continue; }
      if (i !== turned) { group.appendChild(tileNode(meld.tile, "", title)); continue; }
      var lying = make("span", "turned" + (kind === "jia" ? " stacked" : "") + " from-" + PLACES[side]);
      lying.appendChild(tileNode(meld.tile, "claimed", title));
      if (kind === "jia") lying.appendChild(tileNode(meld.tile, "added", title));
      group.appendChild(lying);
    }
    return group;
  }
  function renderHand(seat, frame, panel, won) {
    var hidden = state.seeAs !== null && state.seeAs !== seat && !won;  // a winner shows its hand
    var hand = panel.querySelector(".hand");
    hand.textContent = "";
    var tiles = (frame.hands || [])[seat] || [];
    if (hidden) {
      tiles.forEach(function () { hand.appendChild(backNode()); });
      hand.setAttribute("aria-label", fmt(T.hidden, { count: tiles.length }));
      return hidden;
    }
    hand.removeAttribute("aria-label");
    var winning = winTiles[state.step][seat], marked = false;
    tiles.forEach(function (t) {
      var isWin = won && !marked && t === winning;
      if (isWin) marked = true;
      hand.appendChild(tileNode(t, isWin ? "winning" : ""));
    });
    return hidden;
  }
  function renderSeat(seat, frame) {
    var panel = root.querySelector('.seat[data-seat="' + seat + '"]');
    if (!panel) return;
    var won = Array.isArray(frame.won) && !!frame.won[seat];
    panel.dataset.place = PLACES[(seat - viewingSeat() + 4) % 4];
    panel.classList.toggle("to-act", frame.to_act === seat && !won);
    panel.classList.toggle("has-won", won);
    var header = panel.querySelector("header");
    header.replaceChild(badgesOf(seat, frame, won), header.querySelector(".badges"));
    var score = (frame.scores || [])[seat];
    panel.querySelector(".score").textContent = score === undefined ? "" : (score > 0 ? "+" : "") + score;
    var hidden = renderHand(seat, frame, panel, won);
    var melds = panel.querySelector(".melds");
    melds.textContent = "";
    ((frame.melds || [])[seat] || []).forEach(function (meld) { melds.appendChild(meldNode(seat, meld)); });
    var gave = panel.querySelector(".gave");
    var action = frame.action || {};
    gave.textContent = "";
    if (action.type === "exchange" && action.give && action.give[seat] && !hidden) {
      gave.appendChild(make("span", null, fmt(T.gave, { tiles: "" })));
      action.give[seat].forEach(function (t) { gave.appendChild(tileNode(t, "small")); });
      var got = (action.receive || [])[seat] || [];
      if (got.length) {
        gave.appendChild(make("span", "got", fmt(T.received, { tiles: "" })));
        got.forEach(function (t) { gave.appendChild(tileNode(t, "small")); });
      }
    }
    var river = panel.querySelector(".river");
    river.textContent = "";
    var discards = (frame.rivers || [])[seat] || [];
    discards.forEach(function (entry, i) {
      var winners = entry.won_by || [], taker = entry.claimed_by;
      var mark = winners.length ? "won" : taker !== null && taker !== undefined ? "claimed" : "";
      var title = mark === "won" ? fmt(T.won_by, { name: winners.map(nameOf).join(", ") })
        : mark === "claimed" ? fmt(T.claimed_by, { name: nameOf(taker) }) : "";
      var latest = i === discards.length - 1 && action.type === "discard" && action.actor === seat;
      river.appendChild(tileNode(entry.tile, "small" + (mark ? " " + mark : "") + (latest ? " latest" : ""), title));
    });
  }
  function renderCentre(frame) {
    var wall = frame.wall_remaining;
    $("wall-count").textContent = wall !== undefined && wall !== null ? fmt(T.wall, { count: wall }) : "";
    var facts = $("table-facts");  // each fact whole on its line where the middle is narrow
    facts.textContent = "";
    if (Array.isArray(data.dice)) facts.appendChild(make("span", null, fmt(T.dice, { dice: data.dice.join(" + ") })));
    facts.appendChild(make("span", null, fmt(T.dealer_is, { name: nameOf(data.dealer) })));
    var order = frame.win_order || [];
    $("win-order").textContent = order.length
      ? fmt(T.win_order, { names: order.map(nameOf).join(" → ") }) : T.no_win;
  }

  function renderStepList() {
    var list = $("step-list");
    if (!list) return;
    frames.forEach(function (frame, step) {
      var item = make("li");
      var button = make("button", "link", describe(step));
      button.type = "button";
      button.dataset.step = step;
      if (violationsAt[step]) item.classList.add("has-violation");
      item.appendChild(button);
      list.appendChild(item);
    });
    list.addEventListener("click", function (event) {
      var target = event.target.closest("button[data-step]");
      if (target) go(+target.dataset.step);
    });
  }

  function renderViolations(step) {
    var box = $("step-violations");
    box.textContent = "";
    (violationsAt[step] || []).forEach(function (v) {
      var item = make("li", "violation");
      item.appendChild(make("strong", null, v.label || v.code));
      item.appendChild(document.createTextNode(" " + (v.message || "")));
      if (v.detail) item.title = v.detail;  // the engine's own English, for the curious
      box.appendChild(item);
    });
    box.hidden = !violationsAt[step];
    root.classList.toggle("at-violation", !!violationsAt[step]);
  }
  function showInList(step) {
    var list = $("step-list");
    if (!list) return;
    var previous = list.querySelector("li.current");
    if (previous) previous.classList.remove("current");
    var current = list.children[step];
    if (!current) return;
    current.classList.add("current");
    var box = list.parentElement;
    if (box && (current.offsetTop < box.scrollTop || current.offsetTop > box.scrollTop + box.clientHeight - 30)) {
      box.scrollTop = current.offsetTop - box.clientHeight / 2;
    }
  }
  function render() {
    var step = state.step, frame = frames[step] || {};
    SEATS.forEach(function (seat) { renderSeat(seat, frame); });
    root.classList.toggle("at-end", step === last);
    $("step-slider").value = step;
    $("step-label").textContent = fmt(T.step, { step: step, last: last });
    $("step-text").textContent = describe(step);
    renderCentre(frame);
    renderViolations(step);
    renderReview();
    var settlement = $("settlement");
    if (settlement) settlement.hidden = step !== last;
    showInList(step);
    if (window.history && window.history.replaceState) window.history.replaceState(null, "", "#step=" + step);
  }

  function go(step) {
    state.step = Math.max(0, Math.min(last, step | 0));
    render();
  }
  function jump(test) {
    for (var s = state.step + 1; s <= last; s++) if (test(s)) return go(s);
  }
  function stop() {
    if (state.timer !== null) clearInterval(state.timer);
    state.timer = null;
    $("play").textContent = "▶ " + T.play;
    $("play").setAttribute("aria-pressed", "false");
  }
  function play() {
    if (state.timer !== null) return stop();
    if (state.step >= last) go(0);
    $("play").textContent = "⏸ " + T.pause;
    $("play").setAttribute("aria-pressed", "true");
    state.timer = setInterval(function () {
      if (state.step >= last) return stop();
      go(state.step + 1);
    }, +$("speed").value || 1000);
  }
  // where the page opens: #step=K (the viewer's own links), else ?step=K (the match
  // report's links, with review=1 to open the panel); "end" is the last step
  function stepFrom(text) {
    var m = /(?:^|[#?&])step=(\d+|end)/.exec(text || "");
    return m ? (m[1] === "end" ? last : +m[1]) : null;
  }
  function fromHash() {
    var step = stepFrom(window.location.hash);
    if (step !== null) go(step);
  }

  // -- controls ----------------------------------------------------------------------------
  var slider = $("step-slider");
  slider.max = last;
  slider.addEventListener("input", function () { go(+slider.value); });
  $("first").addEventListener("click", function () { go(0); });
  $("prev").addEventListener("click", function () { go(state.step - 1); });
  $("next").addEventListener("click", function () { go(state.step + 1); });
  $("last").addEventListener("click", function () { go(last); });
  $("play").addEventListener("click", play);
  $("speed").addEventListener("change", function () { if (state.timer !== null) { stop(); play(); } });
  $("next-win").addEventListener("click", function () { jump(function (s) { return actionType(s) === "hu"; }); });
  $("next-kong").addEventListener("click", function () { jump(function (s) { return actionType(s) === "gang"; }); });
  $("next-violation").addEventListener("click", function () { jump(function (s) { return !!violationsAt[s]; }); });
  $("prev-mistake").addEventListener("click", function () { stop(); jumpMistake(false); });
  $("next-mistake").addEventListener("click", function () { stop(); jumpMistake(true); });
  $("to-end").addEventListener("click", function () { go(last); });
  $("timeline").addEventListener("click", function (event) {
    var tick = event.target.closest(".tick");
    if (tick) go(+tick.dataset.step);
  });
  $("see-as").addEventListener("change", function () {
    var value = $("see-as").value;
    state.seeAs = value === "" ? null : +value;
    root.classList.toggle("seeing-as", state.seeAs !== null);
    renderMarks();
    render();
  });
  document.addEventListener("keydown", function (event) {
    var tag = event.target && event.target.tagName;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var own = tag === "INPUT" && (event.target.type === "range" || event.target.type === "checkbox");
    if (tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && !own)) return;
    var keys = {
      ArrowLeft: function () { go(state.step - 1); }, ArrowRight: function () { go(state.step + 1); },
      Home: function () { go(0); }, End: function () { go(last); }, " ": play,
      "[": function () { jumpMistake(false); }, "]": function () { jumpMistake(true); }
    };
    if (event.key === " " && (tag === "BUTTON" || event.target.type === "checkbox")) return; // its own action
    var action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    if (event.key !== " ") stop();
    action();
  });
  // a swipe on the table steps: to the left the next step, to the right the previous one
  (function () {
    var start = null;
    var board = $("board");
    board.addEventListener("pointerdown", function (event) {
      start = event.pointerType === "mouse" ? null : { x: event.clientX, y: event.clientY };
    });
    board.addEventListener("pointercancel", function () { start = null; });
    board.addEventListener("pointerup", function (event) {
      if (!start) return;
      var dx = event.clientX - start.x, dy = event.clientY - start.y;
      start = null;
      if (Math.abs(dx) < 40 || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
      stop();
      go(state.step + (dx < 0 ? 1 : -1));
    });
  })();
  window.addEventListener("hashchange", fromHash);
  $("review-toggle").addEventListener("change", function () { setReview($("review-toggle").checked); });

  renderStepList();
  renderMarks();
  var remembered = null;
  try { remembered = window.localStorage.getItem(REVIEW_KEY); } catch (e) { /* private mode */ }
  var asked = /[?&]review=1(?:&|$)/.test(window.location.search);
  if (asked || remembered === "1") setReview(true);
  else loadReview();  // the timeline's mistake marks
  var opening = stepFrom(window.location.hash);
  if (opening === null) opening = stepFrom(window.location.search);
  go(opening === null ? 0 : opening);
  root.classList.add("ready");
})();
