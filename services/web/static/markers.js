// The player's own ships' markers on the campaign page's map answer a click,
// a tap, Enter or Space: a marker of one ship opens its order panel, a marker
// of several a short list of them, each a link to its order panel (two
// clicks, as webDiplomacy and Backstabbr take). The links are the ship list's
// own "Orders" links, so a ship that takes no orders (crossing the Atlantic,
// the campaign over) offers none; the markers of others' ships carry no
// data-ships and offer nothing, but for the faded marker of an old sighting,
// whose tap, long press or Enter shows its source and age (its tooltip's
// lines) for a reader without a mouse to hover. No library, no build step.
(function () {
  "use strict";
  var menu = null, opener = null;
  function orderLink(id) { return document.querySelector("#ship-" + CSS.escape(id) + " a.open-panel"); }
  function nameOf(id) {
    var a = document.querySelector("#ship-" + CSS.escape(id) + " .s-ship a");
    return a ? a.textContent.replace(/\s+/g, " ").trim() : id;
  }
  function close() {
    if (!menu) return;
    menu.remove(); menu = null;
    if (opener) opener.focus({ preventScroll: true });
  }
  function show(mark, ids) {
    close();
    opener = mark;
    var at = mark.getAttribute("data-at"), figure = mark.closest("figure.map");
    menu = document.createElement("div");
    menu.className = "marker-menu"; menu.setAttribute("role", "dialog");
    menu.setAttribute("aria-label", "My ships at " + at);
    var head = document.createElement("p");
    head.textContent = "My ships at " + at + ": choose one to order";
    var list = document.createElement("ul");
    ids.forEach(function (id) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = orderLink(id).href; a.textContent = nameOf(id); a.className = "marker-ship";
      li.appendChild(a); list.appendChild(li);
    });
    var shut = document.createElement("button");
    shut.type = "button"; shut.textContent = "Close"; shut.addEventListener("click", close);
    menu.append(head, list, shut);
    menu.addEventListener("keydown", function (e) { if (e.key === "Escape") { e.preventDefault(); close(); } });
    // beside the marker, kept inside the map's figure
    var f = figure.getBoundingClientRect(), m = mark.getBoundingClientRect();
    figure.appendChild(menu);
    var left = Math.min(Math.max(m.left - f.left, 0), Math.max(f.width - menu.offsetWidth, 0));
    menu.style.left = left + "px";
    menu.style.top = (m.bottom - f.top + 4) + "px";
    menu.querySelector("a").focus({ preventScroll: true });
    menu.scrollIntoView({ block: "nearest" });
  }
  function tell(mark) {
    // an old sighting's marker: its tooltip's lines (source, turn, age) for a tap or a long press
    close();
    opener = mark;
    var t = mark.querySelector("title"), figure = mark.closest("figure.map");
    menu = document.createElement("div");
    menu.className = "marker-menu sighting"; menu.setAttribute("role", "dialog");
    menu.setAttribute("aria-label", "Sightings at " + mark.getAttribute("data-at"));
    var list = document.createElement("ul");
    (t ? t.textContent : "").split("\n").forEach(function (line) {
      var li = document.createElement("li"); li.textContent = line; list.appendChild(li);
    });
    var shut = document.createElement("button");
    shut.type = "button"; shut.textContent = "Close"; shut.addEventListener("click", close);
    menu.append(list, shut);
    menu.addEventListener("keydown", function (e) { if (e.key === "Escape") { e.preventDefault(); close(); } });
    var f = figure.getBoundingClientRect(), m = mark.getBoundingClientRect();
    figure.appendChild(menu);
    menu.style.left = Math.min(Math.max(m.left - f.left, 0), Math.max(f.width - menu.offsetWidth, 0)) + "px";
    menu.style.top = (m.bottom - f.top + 4) + "px";
    shut.focus({ preventScroll: true });
  }
  function choose(mark) {
    if (!mark.hasAttribute("data-ships")) { tell(mark); return; }
    var ids = mark.getAttribute("data-ships").split(" ").filter(orderLink);
    if (!ids.length) return;
    if (ids.length === 1) window.location.assign(orderLink(ids[0]).href);
    else show(mark, ids);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".desk-map .map-view").forEach(function (view) {
      view.querySelectorAll("g.icon[data-ships]").forEach(function (mark) {
        var ids = mark.getAttribute("data-ships").split(" ").filter(orderLink);
        if (!ids.length) return;
        mark.setAttribute("tabindex", "0");
        mark.setAttribute("role", "button");
        mark.classList.add("orderable");
        mark.setAttribute("aria-label", ids.length === 1 ? "Orders for " + nameOf(ids[0])
          : "Orders for one of my " + ids.length + " ships at " + mark.getAttribute("data-at"));
        mark.addEventListener("keydown", function (e) {
          if (e.key !== "Enter" && e.key !== " ") return;
          e.preventDefault(); e.stopPropagation(); choose(mark);
        });
      });
    });
    // old sightings tell their source on every map with markers: the desk's and the replay's
    document.querySelectorAll(".map-view").forEach(function (view) {
      view.querySelectorAll("g.icon.stale").forEach(function (mark) {
        mark.setAttribute("tabindex", "0");
        mark.setAttribute("role", "button");
        mark.setAttribute("aria-label", "Earlier sightings at " + mark.getAttribute("data-at"));
        mark.addEventListener("keydown", function (e) {
          if (e.key !== "Enter" && e.key !== " ") return;
          e.preventDefault(); e.stopPropagation(); tell(mark);
        });
      });
      view.addEventListener("marker", function (e) { choose(e.detail); });
    });
    document.addEventListener("pointerdown", function (e) {
      if (menu && !menu.contains(e.target)) close();
    });
  });
})();
