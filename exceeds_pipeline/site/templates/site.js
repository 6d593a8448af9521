(function () {
  "use strict";
  var doc = document;

  /* ---- team table: sort by any column (buttons in the headers), filter by text ---- */
  var table = doc.getElementById("team");
  if (table) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
    heads.forEach(function (th, col) {
      var button = doc.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.textContent = th.textContent;
      th.textContent = "";
      th.appendChild(button);
      button.addEventListener("click", function () {
        var text = th.getAttribute("data-type") === "text";
        var current = th.getAttribute("aria-sort");
        var dir = current === "descending" ? "ascending" : current === "ascending" ? "descending" : (text ? "ascending" : "descending");
        heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir);
        var sign = dir === "ascending" ? 1 : -1;
        var keyed = rows.map(function (row, i) {
          var v = row.cells[col].getAttribute("data-v");
          return { row: row, v: text ? v : parseFloat(v), i: i };
        });
        keyed.sort(function (a, b) {
          if (a.v < b.v) { return -sign; }
          if (a.v > b.v) { return sign; }
          return a.i - b.i;
        });
        var frag = doc.createDocumentFragment();
        keyed.forEach(function (k) { frag.appendChild(k.row); });
        body.appendChild(frag);
        rows = keyed.map(function (k) { return k.row; });
      });
    });
    var form = doc.getElementById("filter");
    var input = doc.getElementById("q");
    var shown = doc.getElementById("shown");
    if (form && input) {
      form.hidden = false;
      form.addEventListener("submit", function (e) { e.preventDefault(); });
      var apply = function () {
        var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
        var n = 0;
        rows.forEach(function (row) {
          var hay = row.getAttribute("data-filter") || "";
          var ok = words.every(function (w) { return hay.indexOf(w) !== -1; });
          row.hidden = !ok;
          if (ok) { n += 1; }
        });
        shown.textContent = n + " of " + rows.length;
      };
      input.addEventListener("input", apply);
      if (input.value) { apply(); }
    }
  }

  /* ---- heatmap: tooltip on hover, arrow keys move between days, read out in a live region ---- */
  var tip = doc.getElementById("tip");
  var live = doc.getElementById("heat-live");
  function label(cell) {
    var t = cell.querySelector("title");
    return t ? t.textContent : cell.getAttribute("data-date") + ": " + cell.getAttribute("data-count");
  }
  function showTip(cell) {
    if (!tip) { return; }
    tip.textContent = label(cell);
    tip.hidden = false;
    var r = cell.getBoundingClientRect();
    var w = tip.offsetWidth;
    var left = Math.max(4, Math.min(window.innerWidth - w - 4, r.left + r.width / 2 - w / 2));
    tip.style.left = (left + window.scrollX) + "px";
    tip.style.top = (r.top + window.scrollY - tip.offsetHeight - 6) + "px";
  }
  function hideTip() { if (tip) { tip.hidden = true; } }
  Array.prototype.forEach.call(doc.querySelectorAll("svg.heatmap"), function (svg) {
    var cells = Array.prototype.slice.call(svg.querySelectorAll("[data-date]"));
    var active = -1;
    function select(i) {
      if (i < 0 || i >= cells.length) { return; }
      if (active >= 0) { cells[active].classList.remove("sel"); }
      active = i;
      var cell = cells[i];
      cell.classList.add("sel");
      showTip(cell);
      if (live) { live.textContent = label(cell); }
    }
    svg.addEventListener("mouseover", function (e) {
      var t = e.target;
      if (t && t.getAttribute && t.getAttribute("data-date")) { showTip(t); }
    });
    svg.addEventListener("mouseleave", hideTip);
    svg.addEventListener("focus", function () {
      if (active < 0) {
        var last = 0;
        cells.forEach(function (c, i) { if (c.getAttribute("data-count") !== "0") { last = i; } });
        select(last);
      } else { select(active); }
    });
    svg.addEventListener("blur", function () {
      hideTip();
      if (active >= 0) { cells[active].classList.remove("sel"); }
    });
    svg.addEventListener("keydown", function (e) {
      var step = { ArrowUp: -1, ArrowDown: 1, ArrowLeft: -7, ArrowRight: 7, Home: -100000, End: 100000 }[e.key];
      if (step === undefined) { return; }
      e.preventDefault();
      select(Math.max(0, Math.min(cells.length - 1, active + step)));
    });
  });

  /* ---- print: open every collapsed part ---- */
  window.addEventListener("beforeprint", function () {
    Array.prototype.forEach.call(doc.querySelectorAll("details:not([open])"), function (d) {
      d.setAttribute("open", "");
      d.setAttribute("data-print-opened", "");
    });
  });
  window.addEventListener("afterprint", function () {
    Array.prototype.forEach.call(doc.querySelectorAll("details[data-print-opened]"), function (d) {
      d.removeAttribute("open");
      d.removeAttribute("data-print-opened");
    });
  });
})();
