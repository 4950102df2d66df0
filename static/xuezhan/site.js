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

// A "Copy" button copies the field it names (the members page's new invitation link).
(function () {
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var field = document.getElementById(button.getAttribute("data-copy"));
      if (!field) return;
      field.select();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).catch(function () { /* selected: copy by hand */ });
      }
    });
  });
})();
