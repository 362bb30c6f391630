// The report's frame grows to the report's own height, so that the page scrolls
// once (on a phone a frame scrolling inside the page is hard to use).  The frame
// runs no script of its own; the desk's page reads its height, and again whenever
// the frame's width or the report's own size changes (a window turned, a scroll
// bar shown, the report laid out anew).
"use strict";

function fit(frame) {
  var doc = frame.contentDocument;
  if (!doc || !doc.documentElement) { return; }
  // the report's own height: its root's box, which (unlike scrollHeight) is never
  // less than the frame, so a frame made wider can also shrink
  var border = frame.offsetHeight - frame.clientHeight;
  frame.style.height = Math.ceil(doc.documentElement.getBoundingClientRect().height) + border + "px";
  var over = doc.documentElement.scrollHeight - frame.clientHeight;
  if (over > 0) { frame.style.height = frame.clientHeight + over + border + "px"; } // what overflows the root
  frame.classList.add("fitted");
}

function follow(frame) {
  var watched = null;
  function watch() {
    fit(frame);
    var doc = frame.contentDocument;
    if (window.ResizeObserver && doc && watched !== doc.documentElement) {
      watched = doc.documentElement;
      new ResizeObserver(function () { fit(frame); }).observe(watched);
    }
  }
  frame.addEventListener("load", watch);
  if (window.ResizeObserver) { new ResizeObserver(function () { fit(frame); }).observe(frame); }
  window.addEventListener("resize", function () { fit(frame); });
  if (frame.contentDocument && frame.contentDocument.readyState === "complete") { watch(); }
}

document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("iframe.report").forEach(follow);
});
