// The replay viewer: draws one round's replay frames (embedded by the page with json_script)
// and steps through them. Plain JavaScript, no build step. Step 0 is the deal, step n the
// table after event n (events counted from 1). Every frame key is read defensively: the
// engine may add keys, and an older frame may lack some.
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

  var state = { step: 0, seeAs: null, timer: null, review: false };
  var $ = function (id) { return document.getElementById(id); };

  function fmt(text, args) {
    return String(text || "").replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(args, key) ? String(args[key]) : whole;
    });
  }
  function nameOf(seat) {
    return seat !== null && seat !== undefined && names[seat] !== undefined ? names[seat] : "?";
  }
  function tileText(tile) {
    return typeof tile === "string" && tile.length === 2 ? tile[0] + (SUIT_CHAR[tile[1]] || tile[1]) : "?";
  }
  function tileLabel(tile) {
    if (typeof tile !== "string" || tile.length !== 2) return "?";
    return fmt(T.tile, { rank: tile[0], suit: (labels.suit || {})[tile[1]] || SUIT_CHAR[tile[1]] || tile[1] });
  }
  function make(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function tileNode(tile, extra, title) {
    var node = make("span", "tile suit-" + (tile ? tile[1] : "x") + (extra ? " " + extra : ""));
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", tileLabel(tile) + (title ? " — " + title : ""));
    if (title) node.title = title;
    node.appendChild(make("b", null, tile ? tile[0] : "?"));
    node.appendChild(make("i", null, tile ? SUIT_CHAR[tile[1]] || tile[1] : ""));
    return node;
  }
  function backNode() {
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

  // -- the decision review (docs/review.md), fetched once when the toggle is first turned on.
  // A decision's ``event`` indexes the round's events from 0, so it shows at step event + 1.
  var REVIEW_KEY = "xuezhan.viewer.review";
  var review = { status: "idle", at: {} };
  function loadReview() {
    if (review.status !== "idle" || !data.review_url || !window.fetch) return;
    review.status = "loading";
    fetch(data.review_url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("review: HTTP " + response.status);
        return response.json();
      })
      .then(function (body) {
        (body.decisions || []).forEach(function (d) {
          var step = (d.event | 0) + 1;
          (review.at[step] = review.at[step] || []).push(d);
        });
        review.status = "ready";
      }, function () { review.status = "failed"; })
      .then(renderReview);
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
  function reviewNode(d, several) {
    var node = make("article", "decision verdict-" + d.verdict);
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
    var total = (d.ukeire || []).reduce(function (sum, u) { return sum + (u.unseen | 0); }, 0);
    if (total) {  // folded when several seats decide at once (the exchange, 定缺): a long page on a phone
      var ukeire = make("details", "decision-ukeire");
      ukeire.open = !several;
      ukeire.appendChild(make("summary", null, fmt(T.review_ukeire, { count: total })));
      ukeire.appendChild(ukeireNodes(d.ukeire));
      node.appendChild(ukeire);
    }
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
    if (state.review) loadReview();
    renderReview();
  }

  // -- drawing ---------------------------------------------------------------------------
  function renderSeat(seat, frame) {
    var panel = root.querySelector('.seat[data-seat="' + seat + '"]');
    if (!panel) return;
    var hidden = state.seeAs !== null && state.seeAs !== seat;
    var won = Array.isArray(frame.won) && frame.won[seat];
    panel.classList.toggle("to-act", frame.to_act === seat);
    panel.classList.toggle("has-won", !!won);
    var badges = panel.querySelector(".badges");
    badges.textContent = "";
    if (seat === data.dealer) badges.appendChild(make("span", "badge dealer", T.dealer));
    var voids = frame.voids || [];
    if (voids[seat]) badges.appendChild(make("span", "badge void suit-" + voids[seat], fmt(T.void, { suit: SUIT_CHAR[voids[seat]] || voids[seat] })));
    if (won) badges.appendChild(make("span", "badge won", fmt(T.won, { order: (frame.win_order || []).indexOf(seat) + 1 || "?" })));
    if (frame.to_act === seat && !won) badges.appendChild(make("span", "badge to-act", T.to_act));
    var scores = frame.scores || [];
    var score = scores[seat];
    panel.querySelector(".score").textContent = score === undefined ? "" : (score > 0 ? "+" : "") + score;

    var hand = panel.querySelector(".hand");
    hand.textContent = "";
    var tiles = (frame.hands || [])[seat] || [];
    if (hidden) {
      tiles.forEach(function () { hand.appendChild(backNode()); });
      hand.setAttribute("aria-label", fmt(T.hidden, { count: tiles.length }));
    } else {
      hand.removeAttribute("aria-label");
      var winning = winTiles[state.step][seat], marked = false;
      tiles.forEach(function (t) {
        var isWin = won && !marked && t === winning;
        if (isWin) marked = true;
        hand.appendChild(tileNode(t, isWin ? "winning" : ""));
      });
    }
    var melds = panel.querySelector(".melds");
    melds.textContent = "";
    ((frame.melds || [])[seat] || []).forEach(function (meld) {
      var kind = meld.kind === "peng" ? "peng" : meld.kind;
      var group = make("span", "meld meld-" + kind);
      var count = kind === "peng" ? 3 : 4;
      var from = meld.from !== undefined && meld.from !== null && meld.from !== seat ? fmt(T.meld_from, { name: nameOf(meld.from) }) : "";
      var title = (T[kind + "_meld"] || kind) + (from ? ", " + from : "");
      for (var i = 0; i < count; i++) {
        if (kind === "an" && (i === 0 || i === 3)) group.appendChild(backNode());
        else group.appendChild(tileNode(meld.tile, i === 1 && from ? "claimed" : "", title));
      }
      if (from) group.appendChild(make("small", "meld-from", from));
      melds.appendChild(group);
    });
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
    ((frame.rivers || [])[seat] || []).forEach(function (entry) {
      var winners = entry.won_by || [], taker = entry.claimed_by;
      var mark = winners.length ? "won" : taker !== null && taker !== undefined ? "claimed" : "";
      var title = mark === "won" ? fmt(T.won_by, { name: winners.map(nameOf).join(", ") })
        : mark === "claimed" ? fmt(T.claimed_by, { name: nameOf(taker) }) : "";
      river.appendChild(tileNode(entry.tile, "small" + (mark ? " " + mark : ""), title));
    });
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

  function render() {
    var step = state.step, frame = frames[step] || {};
    SEATS.forEach(function (seat) { renderSeat(seat, frame); });
    $("step-slider").value = step;
    $("step-label").textContent = fmt(T.step, { step: step, last: last });
    $("step-text").textContent = describe(step);
    var wall = frame.wall_remaining;
    var facts = [];
    if (wall !== undefined && wall !== null) facts.push(fmt(T.wall, { count: wall }));
    if (Array.isArray(data.dice)) facts.push(fmt(T.dice, { dice: data.dice.join(" + ") }));
    facts.push(fmt(T.dealer_is, { name: nameOf(data.dealer) }));
    $("wall-count").textContent = facts.join(" · ");
    var order = frame.win_order || [];
    $("win-order").textContent = order.length
      ? fmt(T.win_order, { names: order.map(nameOf).join(" → ") }) : T.no_win;
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
    renderReview();
    var settlement = $("settlement");
    if (settlement) settlement.hidden = step !== last;
    var list = $("step-list");
    if (list) {
      var previous = list.querySelector("li.current");
      if (previous) previous.classList.remove("current");
      var current = list.children[step];
      if (current) {
        current.classList.add("current");
        var box2 = list.parentElement;
        if (box2 && (current.offsetTop < box2.scrollTop || current.offsetTop > box2.scrollTop + box2.clientHeight - 30)) {
          box2.scrollTop = current.offsetTop - box2.clientHeight / 2;
        }
      }
    }
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
  function fromHash() {
    var m = /step=(\d+|end)/.exec(window.location.hash || "");
    if (m) go(m[1] === "end" ? last : +m[1]);
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
  $("to-end").addEventListener("click", function () { go(last); });
  $("see-as").addEventListener("change", function () {
    var value = $("see-as").value;
    state.seeAs = value === "" ? null : +value;
    root.classList.toggle("seeing-as", state.seeAs !== null);
    render();
  });
  document.addEventListener("keydown", function (event) {
    var tag = event.target && event.target.tagName;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var own = tag === "INPUT" && (event.target.type === "range" || event.target.type === "checkbox");
    if (tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && !own)) return;
    var keys = {
      ArrowLeft: function () { go(state.step - 1); }, ArrowRight: function () { go(state.step + 1); },
      Home: function () { go(0); }, End: function () { go(last); }, " ": play
    };
    if (event.key === " " && (tag === "BUTTON" || event.target.type === "checkbox")) return; // its own action
    var action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    if (event.key !== " ") stop();
    action();
  });
  window.addEventListener("hashchange", fromHash);
  $("review-toggle").addEventListener("change", function () { setReview($("review-toggle").checked); });

  renderStepList();
  var remembered = null;
  try { remembered = window.localStorage.getItem(REVIEW_KEY); } catch (e) { /* private mode */ }
  if (remembered === "1") setReview(true);
  var opening = /step=(\d+|end)/.exec(window.location.hash || "");
  go(opening ? (opening[1] === "end" ? last : +opening[1]) : 0);
  root.classList.add("ready");
})();
