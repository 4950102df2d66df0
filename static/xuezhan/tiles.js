// XuezhanTiles: tiles drawn from the project's sprite (static/xuezhan/tiles.svg, one <symbol>
// per tile: tile-5p …), with the text tile ("5" over "筒") kept inside every tile as the
// fallback. The sprite is fetched once and put into the page, so <use href="#tile-5p">
// resolves everywhere; only when that worked does <html> get the class "tile-faces", which
// turns the faces on (static/xuezhan/tiles.css). No SVG, no fetch, or a failed fetch: the
// text tiles stay. Load it with data-sprite="{% static 'xuezhan/tiles.svg' %}" on the
// script tag; pages that draw tiles server-side use {% tile %} (analysis/templatetags/tiles.py).
"use strict";
(function () {
  var SVG = "http://www.w3.org/2000/svg";
  var SUIT_CHAR = { m: "万", p: "筒", s: "条" };
  var script = document.currentScript;
  var listeners = [];
  var api = {
    SUIT_CHAR: SUIT_CHAR,
    names: {},          // "5p" → "五筒" / "5 Dots", set by the page (its language)
    ready: false,       // the sprite is in the page
    supported: !!(document.createElementNS && window.DOMParser &&
                  document.createElementNS(SVG, "svg").createSVGRect),
    isTile: function (tile) { return typeof tile === "string" && /^[1-9][mps]$/.test(tile); },
    text: function (tile) {
      return api.isTile(tile) ? tile[0] + SUIT_CHAR[tile[1]] : "?";
    },
    label: function (tile) { return api.names[tile] || api.text(tile); },
    // A tile: <span class="tile suit-p" role="img" aria-label="五筒"><svg class="face">…
    // </svg><b>5</b><i>筒</i></span>; ``extra`` more classes, ``title`` a note after the name.
    node: function (tile, extra, title) {
      var good = api.isTile(tile);
      var node = document.createElement("span");
      node.className = "tile suit-" + (good ? tile[1] : "x") + (extra ? " " + extra : "");
      node.setAttribute("role", "img");
      node.setAttribute("aria-label", api.label(tile) + (title ? " — " + title : ""));
      if (title) node.title = title;
      if (good && api.supported) node.appendChild(faceSvg("tile-" + tile));
      var rank = document.createElement("b");
      rank.textContent = good ? tile[0] : "?";
      var suit = document.createElement("i");
      suit.textContent = good ? SUIT_CHAR[tile[1]] : "";
      node.appendChild(rank);
      node.appendChild(suit);
      return node;
    },
    back: function (extra) {
      var node = document.createElement("span");
      node.className = "tile back" + (extra ? " " + extra : "");
      node.setAttribute("aria-hidden", "true");
      return node;
    },
    // ``callback()`` once the faces are on (at once if they are already)
    onReady: function (callback) { if (api.ready) callback(); else listeners.push(callback); }
  };
  function faceSvg(id) {
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "face");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    var use = document.createElementNS(SVG, "use");
    use.setAttribute("href", "#" + id);
    svg.appendChild(use);
    return svg;
  }
  // A face alone, sized by the caller's font, for a page with its own tile boxes (the score
  // sheet's keypad, static/xuezhan/sheet.js): null until the sprite is in the page, and
  // the caller then draws its text tile.
  api.face = function (tile, label) {
    if (!api.ready || !api.isTile(tile)) return null;
    var svg = faceSvg("tile-" + tile);
    svg.setAttribute("class", "tile-face-svg");
    svg.removeAttribute("aria-hidden");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label || api.label(tile));
    svg.style.width = "1.5em";
    svg.style.height = "2em";
    return svg;
  };
  window.XuezhanTiles = api;

  // the sprite: data-sprite on the script tag, else tiles.svg beside tiles.js
  var url = script && script.getAttribute("data-sprite");
  if (!url && script && /tiles(\.[0-9a-f]+)?\.js(\?.*)?$/.test(script.src)) {
    url = script.src.replace(/tiles(\.[0-9a-f]+)?\.js(\?.*)?$/, "tiles.svg");
  }
  if (!url || !api.supported || !window.fetch) return;
  fetch(url, { credentials: "same-origin" })
    .then(function (response) {
      if (!response.ok) throw new Error("tiles: HTTP " + response.status);
      return response.text();
    })
    .then(function (text) {
      var sprite = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
      if (!sprite || sprite.nodeName !== "svg" || !sprite.querySelector("symbol")) return;
      sprite = document.importNode(sprite, true);
      sprite.setAttribute("aria-hidden", "true");
      sprite.setAttribute("class", "tile-sprite");
      document.body.insertBefore(sprite, document.body.firstChild);
      api.ready = true;
      document.documentElement.classList.add("tile-faces");
      listeners.splice(0).forEach(function (callback) { callback(); });
    })
    .catch(function () { /* the text tiles stay */ });
})();
