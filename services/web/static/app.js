// The Ship Order Desk's little script: the deadline in the browser's own time
// with a countdown, and the movement choices narrowed to what the map allows
// after the first choice (the server offers only legal choices already).
"use strict";

function countdown() {
  document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
    var left = Math.floor((Date.parse(el.dataset.deadline) - Date.now()) / 1000);
    if (left <= 0) { el.textContent = "deadline passed"; return; }
    var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600),
        m = Math.floor(left % 3600 / 60), s = left % 60;
    el.textContent = (d ? d + " d " : "") + h + " h " + m + " min " + s + " s left";
  });
}

function localTimes() {
  document.querySelectorAll(".local[data-deadline]").forEach(function (el) {
    el.textContent = "(" + new Date(el.dataset.deadline).toLocaleString() + " your time)";
  });
}

function narrow(select, allowed) {
  Array.prototype.forEach.call(select.options, function (opt) {
    var ok = !opt.value || allowed === null || allowed.indexOf(opt.value) >= 0;
    opt.hidden = !ok;
    opt.disabled = !ok;
    if (!ok && opt.selected) { select.value = ""; }
  });
}

function movement(fs) {
  var i = fs.dataset.index, second = JSON.parse(fs.dataset.second), ports = JSON.parse(fs.dataset.ports);
  var s1 = document.getElementById("f" + i + "-sea1"), s2 = document.getElementById("f" + i + "-sea2"),
      port = document.getElementById("f" + i + "-port");
  function update() {
    narrow(s2, s1.value ? (second[s1.value] || []) : []);
    var last = s2.value || s1.value || fs.dataset.here;
    narrow(port, last ? (ports[last] || []) : null);
  }
  s1.addEventListener("change", update);
  s2.addEventListener("change", update);
  update();
}

document.addEventListener("DOMContentLoaded", function () {
  localTimes();
  countdown();
  setInterval(countdown, 1000);
  document.querySelectorAll("fieldset.movement").forEach(movement);
  var firstError = document.querySelector("[aria-invalid=true]");
  if (firstError) { firstError.focus(); }
});
