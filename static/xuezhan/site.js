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

// A table wider than its box says that it scrolls, under it (the words come from the page:
// <meta name="xuezhan-scroll-hint">); checked again when the window changes size.
(function () {
  var meta = document.querySelector('meta[name="xuezhan-scroll-hint"]');
  if (!meta) return;
  function mark() {
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      var wide = wrap.scrollWidth > wrap.clientWidth + 1;
      var hint = wrap.nextElementSibling;
      var has = hint && hint.classList.contains("scroll-hint");
      if (wide && !has) {
        var p = document.createElement("p");
        p.className = "scroll-hint";
        p.textContent = meta.getAttribute("content");
        wrap.insertAdjacentElement("afterend", p);
      } else if (!wide && has) {
        hint.remove();
      }
    });
  }
  mark();
  window.addEventListener("resize", mark);
})();

// No inline handlers (the Content-Security-Policy allows no inline script): a form with
// data-confirm asks before it is sent; a link with data-print prints the page.
(function () {
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) event.preventDefault();
    });
  });
  document.querySelectorAll("a[data-print]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      window.print();
    });
  });
})();
