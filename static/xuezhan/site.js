// Every page: keep the language switch on the same place of the page (the #step of a replay).
"use strict";
(function () {
  var form = document.getElementById("language-form");
  if (!form) return;
  form.addEventListener("submit", function () {
    var next = form.querySelector("input[name=next]");
    if (next && window.location.hash) next.value = next.value.split("#")[0] + window.location.hash;
  });
})();
