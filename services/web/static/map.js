// The maps of the desk: on the campaign page, choose a sea area, port or place
// to open its fold of the ship list (on a course's map, route.js takes the
// choice); zoom and pan with the buttons, a drag, two fingers, Ctrl and the
// wheel, or the keyboard (+ - and the arrows while the map has focus). No
// library, no build step.
// Nothing a player must read renders under READABLE CSS px: a map opens round
// his ships (data-focus) at a zoom where its smallest words are that tall,
// however narrow the screen (at least 1 CSS px to the SVG unit: no word is
// under 11 units); zoomed out further, the words that would render smaller
// are hidden, and shown again zooming in.
(function () {
  "use strict";
  var READABLE = 11;
  function openPlace(place) {
    // the place's fold in the ship list: opened, brought into view, focused
    var places = document.querySelectorAll(".place[data-place]");
    for (var i = 0; i < places.length; i++) {
      if (places[i].getAttribute("data-place") === place) {
        var head = places[i].querySelector("summary") || places[i];
        places[i].open = true;
        places[i].classList.add("chosen");
        places[i].scrollIntoView({ behavior: "smooth", block: "start" });
        head.focus({ preventScroll: true });
        return true;
      }
    }
    return false;
  }
  function placeOf(el) {
    while (el && el.getAttribute) {
      var p = el.getAttribute("data-port") || el.getAttribute("data-area") || el.getAttribute("data-goto");
      if (p) return p;
      el = el.parentNode;
    }
    return null;
  }
  function zoomable(view) {
    var svg = view.querySelector("svg");
    if (!svg) return;
    var whole = svg.getAttribute("viewBox").split(" ").map(Number), focus = view.getAttribute("data-focus");
    var box = focus ? focus.split(" ").map(Number) : whole.slice();
    var texts = Array.prototype.map.call(svg.querySelectorAll("text"), function (t) {
      return [t, parseFloat(t.getAttribute("font-size")) || 16];
    });
    var smallest = Math.min.apply(null, texts.map(function (t) { return t[1]; }).concat([READABLE]));
    var scale = function () {  // CSS px to the SVG unit, as drawn now (0 while not laid out)
      var r = svg.getBoundingClientRect();
      return box[2] && box[3] ? Math.min(r.width / box[2], r.height / box[3]) : 0;
    };
    var legible = function () {
      var s = scale();
      if (!s) return;
      texts.forEach(function (t) { t[0].classList.toggle("unreadable", t[1] * s < READABLE - 0.05); });
      view.classList.toggle("far", smallest * s < READABLE - 0.05);
    };
    var show = function () { svg.setAttribute("viewBox", box.join(" ")); legible(); };
    show();
    var opened = scale();
    if (opened && smallest * opened < READABLE) {  // a phone: closer, about the same centre
      var w = box[2] * smallest * opened / READABLE, h = w * whole[3] / whole[2];
      box = [box[0] + (box[2] - w) / 2, box[1] + (box[3] - h) / 2, w, h];
      show();
    }
    window.addEventListener("resize", legible);
    var zoom = function (f) {
      var w = Math.min(whole[2], Math.max(whole[2] / 8, box[2] * f)), h = w * whole[3] / whole[2];
      box = [box[0] + (box[2] - w) / 2, box[1] + (box[3] - h) / 2, w, h]; show();
    };
    var pan = function (dx, dy) { box[0] += dx * box[2]; box[1] += dy * box[3]; show(); };
    view.parentNode.querySelectorAll("[data-zoom]").forEach(function (b) {
      b.addEventListener("click", function () {
        var z = b.getAttribute("data-zoom");
        if (z === "reset") { box = whole.slice(); show(); } else { zoom(z === "in" ? 0.5 : 2); }
      });
    });
    view.addEventListener("keydown", function (e) {
      var keys = { "+": [0.5], "=": [0.5], "-": [2], ArrowLeft: [0, -0.2, 0], ArrowRight: [0, 0.2, 0],
                   ArrowUp: [0, 0, -0.2], ArrowDown: [0, 0, 0.2] };
      var k = keys[e.key];
      if (!k) return;
      e.preventDefault();
      if (k.length === 1) zoom(k[0]); else pan(k[1], k[2]);
    });
    var start = null, touches = {}, spread = 0;
    var apart = function () {
      var p = Object.keys(touches).map(function (k) { return touches[k]; });
      return p.length === 2 ? Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]) : 0;
    };
    view.addEventListener("pointerdown", function (e) {
      touches[e.pointerId] = [e.clientX, e.clientY];
      spread = apart();
      start = spread ? null : [e.clientX, e.clientY, false];
    });
    view.addEventListener("pointermove", function (e) {
      if (touches[e.pointerId]) touches[e.pointerId] = [e.clientX, e.clientY];
      if (spread) {  // two fingers: pinch to zoom
        var now = apart();
        if (now > 0 && Math.abs(now - spread) > 8) { zoom(spread / now); spread = now; }
        return;
      }
      if (!start) return;
      var r = svg.getBoundingClientRect(), dx = e.clientX - start[0], dy = e.clientY - start[1];
      if (Math.abs(dx) + Math.abs(dy) > 4) start[2] = true;
      if (start[2]) { pan(-dx / r.width, -dy / r.height); start[0] = e.clientX; start[1] = e.clientY; }
    });
    var lift = function (e) { delete touches[e.pointerId]; if (!apart()) spread = 0; };
    view.addEventListener("pointercancel", function (e) { lift(e); start = null; });
    view.addEventListener("pointerup", function (e) {
      var pinched = spread > 0;
      lift(e);
      var dragged = start && start[2]; start = null;
      if (dragged || pinched) return;
      var mark = e.target.closest && e.target.closest("g.icon[data-ships], g.icon.stale");
      // his own ships' marker: markers.js offers their orders; an old sighting's tells its source
      if (mark && !view.closest(".route-map")) {
        view.dispatchEvent(new CustomEvent("marker", { detail: mark }));
        return;
      }
      var p = placeOf(e.target);
      if (!p) return;
      // on a course's map the route plotter takes the choice; elsewhere it opens the place's ships
      if (view.closest(".route-map")) view.dispatchEvent(new CustomEvent("place", { detail: p }));
      else openPlace(p);
    });
    view.addEventListener("wheel", function (e) {
      if (!e.ctrlKey) return;  // a plain wheel scrolls the page; with Ctrl (or a trackpad pinch) it zooms
      e.preventDefault();
      zoom(e.deltaY > 0 ? 1.25 : 0.8);
    }, { passive: false });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".map-view").forEach(zoomable);
    document.querySelectorAll("a.map-place").forEach(function (a) {
      a.addEventListener("click", function (e) { e.preventDefault(); openPlace(a.getAttribute("data-goto")); });
    });
  });
})();
