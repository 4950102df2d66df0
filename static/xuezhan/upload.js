// The upload form: several files (chosen, dropped or pasted), sent one request each, one result line
// each, errors with their JSON paths shown in the page. Without this script the form still
// posts every file at once and the page lists the results.
"use strict";
(function () {
  var form = document.getElementById("upload-form");
  var input = document.getElementById("file-input");
  var zone = document.getElementById("dropzone");
  var results = document.getElementById("upload-results");
  var textNode = document.getElementById("upload-text");
  if (!form || !input || !results || !window.fetch || !window.FormData) return;
  var T = textNode ? JSON.parse(textNode.textContent) : {};
  var limit = +form.dataset.limit || Infinity;
  var csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;

  function line(name, cls) {
    var item = document.createElement("li");
    item.className = cls || "";
    item.textContent = name + ": ";
    results.appendChild(item);
    return item;
  }
  function show(item, body) {
    item.className = body.ok ? "ok" : "failed";
    if (body.ok) {
      var link = document.createElement("a");
      link.href = body.url;
      link.textContent = String(T.match || "#{id}").replace("{id}", body.match);
      item.appendChild(link);
      if (!body.created) item.appendChild(document.createTextNode(" (" + T.already + ")"));
      return;
    }
    item.appendChild(document.createTextNode(body.detail || T.failed));
    (body.errors || []).forEach(function (e) {
      var code = document.createElement("code");
      code.textContent = e.path;
      item.appendChild(document.createTextNode(" "));
      item.appendChild(code);
      item.appendChild(document.createTextNode(": " + e.message));
    });
  }
  function send(file) {
    var item = line(file.name, "sending");
    if (file.size > limit) { show(item, { ok: false, detail: T.too_large }); return Promise.resolve(); }
    item.appendChild(document.createTextNode(T.sending));
    var body = new FormData();
    body.append("file", file);
    return fetch(form.action || window.location.href, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRFToken": csrf }
    }).then(function (response) {
      return response.json().catch(function () { return { ok: false, detail: response.status === 413 ? T.too_large : T.failed }; });
    }).then(function (answer) {
      item.textContent = file.name + ": ";
      show(item, answer);
    }, function () {
      item.textContent = file.name + ": ";
      show(item, { ok: false, detail: T.failed });
    });
  }
  function sendAll(files) {
    results.textContent = "";
    var old = document.getElementById("upload-error");
    if (old) old.remove();
    var chain = Promise.resolve();
    Array.prototype.forEach.call(files, function (file) { chain = chain.then(function () { return send(file); }); });
    return chain;
  }
  form.addEventListener("submit", function (event) {
    if (!input.files.length) return; // pasted text: the ordinary post and its page
    event.preventDefault();
    sendAll(input.files).then(function () { input.value = ""; });
  });
  if (zone) {
    ["dragenter", "dragover"].forEach(function (type) {
      zone.addEventListener(type, function (event) { event.preventDefault(); zone.classList.add("over"); });
    });
    ["dragleave", "drop"].forEach(function (type) {
      zone.addEventListener(type, function () { zone.classList.remove("over"); });
    });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      if (event.dataTransfer && event.dataTransfer.files.length) sendAll(event.dataTransfer.files);
    });
  }
  // A pasted file (copied in a file manager) is sent like a dropped one; pasted text is left
  // to the text area.
  document.addEventListener("paste", function (event) {
    var files = event.clipboardData && event.clipboardData.files;
    if (!files || !files.length) return;
    event.preventDefault();
    sendAll(files);
  });
})();
