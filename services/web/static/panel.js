// The campaign page's order panel (a bottom sheet at phone width, with the
// map brought above it): focus goes to it when it opens (to the first refused field when there is one,
// app.js), Escape closes it, and the sheet's button makes it larger or
// smaller. Closing is a plain link, so all of it works without this script.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var panel = document.getElementById("order-panel");
    if (!panel) return;
    var head = document.getElementById("panel-head"), size = document.getElementById("sheet-size");
    if (!panel.querySelector("[aria-invalid=true]") && head) head.focus({ preventScroll: true });
    // a bottom sheet (phone width) covers the lower half: bring the map to the top above it
    var desk = panel.closest(".desk");
    if (desk && window.getComputedStyle(panel).position === "fixed") {
      window.scrollTo(0, desk.getBoundingClientRect().top + window.scrollY);
    }
    panel.addEventListener("keydown", function (e) {
      if (e.key !== "Escape" || e.target.tagName === "SELECT") return;
      window.location.assign(document.getElementById("panel-close").href);
    });
    if (size) {
      size.hidden = false;
      size.addEventListener("click", function () {
        var large = panel.classList.toggle("sheet-large");
        size.setAttribute("aria-expanded", large ? "true" : "false");
        size.textContent = large ? "Smaller" : "Larger";
      });
    }
  });
})();
