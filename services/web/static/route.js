// Plotting a course on the order form's map: each choice fills the movement
// fields below (first sea area, second, port) of every ship on the form that
// can take it, and only what those fields allow (the map, rule 6.1) is
// offered. The buttons beside the map do the same for keyboard and screen
// reader users. No library, no build step.
(function () {
  "use strict";
  var fieldsets, first;
  function field(fs, name) { return document.getElementById("f" + fs.dataset.index + "-" + name); }
  function allowed(select) {
    return Array.prototype.filter.call(select.options, function (o) { return o.value && !o.disabled; })
      .map(function (o) { return o.value; });
  }
  function state() {
    var s1 = field(first, "sea1").value, s2 = field(first, "sea2").value, port = field(first, "port").value;
    return { s1: s1, s2: s2, port: port };
  }
  function next() {
    var st = state();
    if (st.port) return [];
    if (!st.s1) return allowed(field(first, "sea1")).concat(allowed(field(first, "port")));
    if (!st.s2) return allowed(field(first, "sea2")).concat(allowed(field(first, "port")));
    return allowed(field(first, "port"));
  }
  function set(name, value) {
    fieldsets.forEach(function (fs) {
      var sel = field(fs, name);
      if (!sel) return;
      if (value === "" || allowed(sel).indexOf(value) >= 0) {
        sel.value = value;
        sel.dispatchEvent(new Event("change"));
      }
    });
  }
  function choose(place) {
    var st = state(), refused = document.getElementById("route-refused");
    if (next().indexOf(place) < 0) {
      refused.textContent = place + " cannot be the next step of this course (rule 6.1): choose one of "
        + (next().join(", ") || "nothing more") + ".";
      refused.hidden = false;
      refused.style.display = "";
      return;
    }
    refused.hidden = true;
    refused.style.display = "none";  // a class's display would otherwise show it, hidden or not
    if (allowed(field(first, "port")).indexOf(place) >= 0 && !/^[A-Z]{3}$/.test(place)) set("port", place);
    else if (!st.s1) set("sea1", place);
    else set("sea2", place);
    show();
  }
  function show() {
    var st = state(), steps = [st.s1, st.s2, st.port].filter(Boolean), legal = next();
    document.getElementById("route-now").textContent = "Course: " + (steps.length ? steps.join(" → ") : "stay") + ".";
    var box = document.getElementById("route-choices");
    box.textContent = "";
    legal.forEach(function (p) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "route-choice"; b.textContent = p; b.setAttribute("data-goto", p);
      b.addEventListener("click", function () { choose(p); });
      box.appendChild(b);
    });
    if (!legal.length) box.textContent = "the course is complete";
    document.querySelectorAll(".route-map [data-area], .route-map [data-port]").forEach(function (el) {
      var p = el.getAttribute("data-area") || el.getAttribute("data-port");
      el.classList.toggle("legal", legal.indexOf(p) >= 0);
      el.classList.toggle("on-route", steps.indexOf(p) >= 0);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    fieldsets = Array.prototype.slice.call(document.querySelectorAll("fieldset.movement"));
    first = fieldsets[0];
    var view = document.querySelector(".route-map .map-view");
    if (!first || !view) return;
    view.addEventListener("place", function (e) { choose(e.detail); });
    document.getElementById("route-clear").addEventListener("click", function () {
      set("port", ""); set("sea2", ""); set("sea1", ""); show();
    });
    fieldsets.forEach(function (fs) {
      ["sea1", "sea2", "port"].forEach(function (n) { field(fs, n).addEventListener("change", show); });
    });
    show();
  });
})();
