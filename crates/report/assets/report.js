// Draws every chart of an iogauge report page with uPlot from the page's JSON block, then
// marks the chart's element: data-points (values drawn) and data-drawn="1"; data-error holds
// the message when a chart could not be drawn. Tests read these marks from the rendered DOM.
(function () {
  "use strict";
  var PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
                 "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];
  var data = JSON.parse(document.getElementById("report-data").textContent);

  function fmtNs(ns) {
    if (ns == null) return "";
    if (ns < 1e3) return ns.toFixed(0) + " ns";
    if (ns < 1e6) return +(ns / 1e3).toPrecision(3) + " µs";
    if (ns < 1e9) return +(ns / 1e6).toPrecision(3) + " ms";
    return +(ns / 1e9).toPrecision(3) + " s";
  }

  function fmtNum(v) {
    if (v == null) return "";
    var a = Math.abs(v);
    if (a >= 1e6) return +(v / 1e6).toPrecision(3) + "M";
    if (a >= 1e4) return +(v / 1e3).toPrecision(3) + "k";
    return +v.toPrecision(3) + "";
  }

  // uPlot wants one shared x array; lines with their own x values are laid on the union.
  function align(lines) {
    var seen = {}, xs = [];
    lines.forEach(function (l) {
      l.x.forEach(function (x) { if (!(x in seen)) { seen[x] = true; xs.push(x); } });
    });
    xs.sort(function (a, b) { return a - b; });
    var at = {};
    xs.forEach(function (x, i) { at[x] = i; });
    var out = [xs];
    lines.forEach(function (l) {
      var y = new Array(xs.length).fill(null);
      l.x.forEach(function (x, i) { y[at[x]] = l.y[i]; });
      out.push(y);
    });
    return out;
  }

  // The run's marks: a dashed vertical line per mark over the plot, its text as a label and
  // tooltip (data-mark holds it, for the tests); placed again on every redraw (zoom).
  function marksPlugin(marks) {
    var els = [];
    function place(u) {
      if (!els.length) {
        marks.forEach(function (m, i) {
          var line = document.createElement("div");
          line.className = "mark";
          line.setAttribute("data-mark", m.text);
          line.title = m.text + " at " + (+m.x.toPrecision(4)) + " s";
          var label = document.createElement("span");
          label.textContent = m.text;
          label.title = line.title;
          label.style.top = (2 + (i % 3) * 15) + "px";
          line.appendChild(label);
          u.over.appendChild(line);
          els.push(line);
        });
      }
      marks.forEach(function (m, i) {
        var inside = m.x >= u.scales.x.min && m.x <= u.scales.x.max;
        els[i].style.display = inside ? "" : "none";
        els[i].style.left = u.valToPos(m.x, "x") + "px";
      });
    }
    return { hooks: { draw: [place] } };
  }

  function draw(el, c) {
    var width = Math.max(320, el.clientWidth - 10);
    var bars = c.style === "bars", dots = c.style === "points";
    var xScale = { time: false };
    var xAxis = { label: c.x_label, space: 70, values: function (u, splits) { return splits.map(fmtNum); } };
    if (c.x_integer) {
      xAxis.incrs = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
      xAxis.values = function (u, splits) { return splits.map(String); };
    }
    if (c.x_unit === "ns") {
      xScale.distr = 3;
      xScale.log = 10;
      xAxis.values = function (u, splits) { return splits.map(fmtNs); };
    }
    // Bars, and lines over named values (a sweep's parameter), put x at category indices.
    if (bars || c.x_names.length) {
      var n = c.x_names.length;
      xScale.range = function () { return [-0.5, n - 0.5]; };
      xAxis.splits = function () { return c.x_names.map(function (_, i) { return i; }); };
      xAxis.values = function (u, splits) {
        return splits.map(function (i) { return c.x_names[i] || ""; });
      };
    }
    var marks = c.marks || [];
    // A mark just past the last interval's middle still shows: the x range takes the marks in.
    if (marks.length && !xScale.range && !xScale.log) {
      var xs = marks.map(function (m) { return m.x; });
      xScale.range = function (u, min, max) {
        return [Math.min(min, Math.min.apply(null, xs)), Math.max(max, Math.max.apply(null, xs))];
      };
    }
    var series = [{ label: c.x_label, value: c.x_unit === "ns" ? function (u, v) { return fmtNs(v); } : undefined }];
    if (bars || c.x_names.length) {
      series[0].value = function (u, v) { return v == null ? "" : (c.x_names[v] || ""); };
    }
    c.lines.forEach(function (l, i) {
      var color = PALETTE[i % PALETTE.length];
      var s = { label: l.label, stroke: color, width: 2, spanGaps: true,
                value: function (u, v) { return v == null ? "—" : String(+v.toPrecision(5)); } };
      if (bars) {
        s.paths = uPlot.paths.bars({ size: [0.6, 90] });
        s.fill = color + "99";
        s.points = { show: false };
      } else if (dots) {
        s.paths = function () { return null; };
        s.points = { show: true, size: 9, fill: color };
      } else {
        s.points = { show: l.y.length <= 60, size: 6 };
      }
      series.push(s);
    });
    var opts = {
      title: c.title,
      width: width,
      height: 280,
      scales: { x: xScale, y: c.x_unit === "ns" ? { range: [0, 100] } : { range: function (u, min, max) { return [Math.min(0, min), max > 0 ? max * 1.08 : 1]; } } },
      axes: [xAxis, { label: c.y_label, size: 64, values: function (u, splits) { return splits.map(fmtNum); } }],
      series: series,
      legend: { show: true },
      cursor: { drag: { x: true, y: false } },
      plugins: marks.length ? [marksPlugin(marks)] : []
    };
    new uPlot(opts, align(c.lines), el);
    var points = c.lines.reduce(function (n, l) { return n + l.y.length; }, 0);
    el.setAttribute("data-points", String(points));
    if (marks.length) el.setAttribute("data-marks", String(marks.length));
    el.setAttribute("data-drawn", "1");
  }

  data.charts.forEach(function (c) {
    var el = document.querySelector('[data-chart="' + c.id + '"]');
    if (!el) return;
    try {
      draw(el, c);
    } catch (e) {
      el.setAttribute("data-error", String(e));
      el.textContent = "chart " + c.id + " could not be drawn: " + e;
    }
  });
})();
