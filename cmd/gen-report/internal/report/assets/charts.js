// charts.js draws the charts of a commlab report page. It is the page's only script besides
// echarts: each chart is a container <div class="chart-canvas" data-option="option-ID"> and a
// JSON data block <script type="application/json" id="option-ID"> holding
// {"kind", "digits", "x", "y", "z", "option"}; kind is heatmap, line, bar or gantt. Browsers never execute data blocks, so the pages
// need no inline script (Content-Security-Policy script-src 'self') and, since nothing is
// fetched, work from file:// too. JSON cannot carry functions, so the formatters are added here.
// A drawn container gets data-rendered="true"; one that failed gets data-error.
(function () {
  'use strict';

  // fmt shows v with the given number of significant digits.
  function fmt(v, digits) {
    if (typeof v !== 'number' || !isFinite(v)) {
      return '–';
    }
    if (v === 0) {
      return '0';
    }
    var a = Math.abs(v);
    if (a >= 1e-3 && a < 1e6) {
      return String(parseFloat(v.toPrecision(digits)));
    }
    var parts = v.toExponential(digits - 1).split('e');
    return String(parseFloat(parts[0])) + 'e' + parts[1].replace('+', '');
  }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  }

  function heatmap(spec) {
    var o = spec.option, d = spec.digits;
    var xs = o.xAxis[0].data, ys = o.yAxis[0].data;
    o.tooltip.formatter = function (p) {
      var v = p.value;
      return esc(spec.x) + ': <b>' + esc(xs[v[0]]) + '</b><br>' +
        esc(spec.y) + ': <b>' + esc(ys[v[1]]) + '</b><br>' +
        esc(spec.z) + ': <b>' + fmt(v[2], d) + '</b>';
    };
    o.visualMap.formatter = function (v) { return fmt(v, d); };
    var s = o.series[0];
    if (s.label && s.label.show) {
      s.label.formatter = function (p) { return fmt(p.value[2], d); };
    }
  }

  // line adds the tooltip formatter of a line or bar chart.
  function line(spec) {
    var o = spec.option, d = spec.digits;
    o.tooltip.valueFormatter = function (v) { return fmt(v, d); };
  }

  // ganttBar draws one activity as a rectangle from (start, lane) to (end, lane), clipped to
  // the grid when zoomed; at least a pixel wide, so that no activity vanishes.
  function ganttBar(params, api) {
    var lane = api.value(0);
    var a = api.coord([api.value(1), lane]), b = api.coord([api.value(2), lane]);
    var h = api.size([0, 1])[1] * 0.6;
    var cs = params.coordSys;
    var shape = echarts.graphic.clipRectByRect(
      {x: a[0], y: a[1] - h / 2, width: Math.max(b[0] - a[0], 1), height: h},
      {x: cs.x, y: cs.y, width: cs.width, height: cs.height});
    return shape && {type: 'rect', shape: shape, style: api.style()};
  }

  // ganttMark draws a dashed vertical line across every lane.
  function ganttMark(params, api) {
    var x = api.coord([api.value(0), 0])[0], cs = params.coordSys;
    if (x < cs.x - 0.5 || x > cs.x + cs.width + 0.5) {
      return null;
    }
    return {type: 'line', shape: {x1: x, y1: cs.y, x2: x, y2: cs.y + cs.height},
      style: {stroke: api.visual('color'), lineWidth: 1, lineDash: [4, 3]}};
  }

  // gantt adds the draw functions (series id "kind-<i>" or "marks") and the tooltip.
  function gantt(spec) {
    var o = spec.option, d = spec.digits, lanes = o.yAxis[0].data;
    for (var i = 0; i < o.series.length; i++) {
      o.series[i].renderItem = o.series[i].id === 'marks' ? ganttMark : ganttBar;
    }
    o.tooltip.formatter = function (p) {
      var v = p.value;
      if (p.seriesId === 'marks') {
        return esc(p.seriesName) + ': <b>' + fmt(v[0], d) + '</b>';
      }
      var s = esc(lanes[v[0]]) + ' · ' + esc(p.seriesName) + '<br>' +
        esc(spec.x) + ': <b>' + fmt(v[1], d) + '</b> – <b>' + fmt(v[2], d) + '</b> (' + fmt(v[2] - v[1], d) + ')';
      if (p.name) {
        s += '<br>' + esc(p.name);
      }
      return s;
    };
  }

  // The report theme: echarts' defaults, with text large enough to read on a projector.
  var text = {fontSize: 14, color: '#333'};
  var axis = {axisLabel: text, nameTextStyle: text};
  echarts.registerTheme('commlab-report', {
    textStyle: text,
    categoryAxis: axis,
    valueAxis: axis,
    logAxis: axis,
    legend: {textStyle: text},
    visualMap: {textStyle: text},
    tooltip: {textStyle: {fontSize: 14}}
  });

  function draw() {
    var drawn = [];
    var els = document.querySelectorAll('.chart-canvas[data-option]');
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      try {
        var src = document.getElementById(el.getAttribute('data-option'));
        var spec = JSON.parse(src.textContent);
        if (spec.kind === 'heatmap') {
          heatmap(spec);
        } else if (spec.kind === 'line' || spec.kind === 'bar') {
          line(spec);
        } else if (spec.kind === 'gantt') {
          gantt(spec);
        }
        var chart = echarts.init(el, 'commlab-report', {renderer: 'canvas'});
        chart.setOption(spec.option);
        el.setAttribute('data-rendered', 'true');
        drawn.push(chart);
      } catch (e) {
        el.setAttribute('data-error', String(e));
        el.textContent = 'This chart could not be drawn: ' + e + '. Its data are linked below.';
      }
    }
    window.addEventListener('resize', function () {
      for (var j = 0; j < drawn.length; j++) {
        drawn[j].resize();
      }
    });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', draw);
  } else {
    draw();
  }
})();
