// The order form's naval operation section: the target list shows only the
// targets of the operation chosen (the server refuses any other all the same).
(function () {
  "use strict";
  function sync(fs) {
    var i = fs.dataset.index, kind = document.getElementById("f" + i + "-op_kind").value;
    var target = document.getElementById("f" + i + "-op_target");
    Array.prototype.forEach.call(target.querySelectorAll("optgroup"), function (g) {
      var mine = g.dataset.kind === kind;
      g.hidden = !mine;
      g.disabled = !mine;
    });
    var opt = target.options[target.selectedIndex];
    if (opt && opt.value && opt.dataset.kind !== kind) target.value = "";
  }
  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("fieldset.operation"), function (fs) {
      if (fs.dataset.ready) return;
      fs.dataset.ready = "1";
      document.getElementById("f" + fs.dataset.index + "-op_kind").addEventListener("change", function () { sync(fs); });
      sync(fs);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
