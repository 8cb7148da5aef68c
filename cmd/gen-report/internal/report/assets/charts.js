// charts.js draws the charts of a commlab report page. It is the page's only script besides
// echarts: each chart is a container <div class="chart-canvas" data-option="option-ID"> and a
// JSON data block <script type="application/json" id="option-ID"> holding
// {"kind", "digits", "x", "y", "z", "option"}, and for a chart with intervals or links
// "lo", "hi", "wide" and "links" (a heat map's indexed [y][x], a line chart's [series][x]);
// kind is heatmap, line, bar or gantt. Browsers never execute data blocks, so the pages
// need no inline script (Content-Security-Policy script-src 'self') and, since nothing is
// fetched, work from file:// too. JSON cannot carry functions, so the formatters and the
// draw functions of the custom series (error bars, hatching, Gantt bars) are added here.
// A drawn container gets data-rendered="true"; one that failed gets data-error.
// A click on a point, a cell or a table row that has a link opens it; the tooltip (or the
// row's title) says what it opens.
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

  // Superscript digits, for powers written as 10⁻³ rather than 10^-3.
  var sup = {'0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹', '-': '⁻', '+': ''};

  function superscript(n) {
    return String(n).split('').map(function (c) { return sup[c] === undefined ? c : sup[c]; }).join('');
  }

  // seconds reports whether an axis name gives its unit as seconds: "time (s)".
  function seconds(name) {
    return /\(s\)\s*$/.test(String(name || ''));
  }

  // si writes a time in seconds with an SI prefix: 1e-6 is "1 µs", 0.0215 is "21.5 ms".
  function si(v) {
    if (v === 0) {
      return '0';
    }
    var units = [[1, 's'], [1e-3, 'ms'], [1e-6, 'µs'], [1e-9, 'ns'], [1e-12, 'ps']];
    var a = Math.abs(v);
    for (var i = 0; i < units.length; i++) {
      if (a >= units[i][0] * 0.9995 || i === units.length - 1) {
        return String(parseFloat((v / units[i][0]).toPrecision(3))) + ' ' + units[i][1];
      }
    }
    return String(v);
  }

  // power writes v as 10ⁿ when it is a power of ten, else as m×10ⁿ (two
  // digits) outside [0.001, 10⁶), else plainly: never 0.000001.
  function power(v) {
    if (v === 0 || !isFinite(v)) {
      return String(v);
    }
    var a = Math.abs(v), e = Math.round(Math.log10(a));
    if (Math.abs(a / Math.pow(10, e) - 1) < 1e-9 && (e < 0 || e > 3)) {
      return (v < 0 ? '−' : '') + '10' + superscript(e);
    }
    if (a >= 1e-3 && a < 1e6) {
      return String(parseFloat(v.toPrecision(4)));
    }
    e = Math.floor(Math.log10(a));
    var m = parseFloat((v / Math.pow(10, e)).toPrecision(2));
    return m + '×10' + superscript(e);
  }

  // tick formats a value axis's tick: SI seconds on an axis in seconds.
  function tick(unitSeconds) {
    return function (v) { return unitSeconds ? si(v) : power(v); };
  }

  // category rewrites a category label written as a power ("10^-3", "2^12",
  // "10^-1.67"): an integer exponent as a superscript, a fractional one as
  // the value it stands for (SI seconds on an axis in seconds).
  function category(label, unitSeconds) {
    var m = /^(\d+)\^(-?\d+(?:\.\d+)?)$/.exec(String(label));
    if (!m) {
      return label;
    }
    if (m[2].indexOf('.') < 0) {
      return m[1] + superscript(m[2]);
    }
    var v = Math.pow(Number(m[1]), Number(m[2]));
    return unitSeconds ? si(v) : power(v);
  }

  // at returns grid[i][j], or null where the grid or its row is missing.
  function at(grid, i, j) {
    if (!grid || !grid[i]) {
      return null;
    }
    var v = grid[i][j];
    return v === undefined ? null : v;
  }

  // interval writes " [lo, hi]" when the value has an interval.
  function interval(spec, i, j, d) {
    var lo = at(spec.lo, i, j), hi = at(spec.hi, i, j);
    if (typeof lo !== 'number' || typeof hi !== 'number') {
      return '';
    }
    return ' [' + fmt(lo, d) + ', ' + fmt(hi, d) + ']';
  }

  // opens is the tooltip's line saying what a click opens.
  function opens(link) {
    return link ? '<br><span class="opens">Click: opens ' + esc(link.title) + '</span>' : '';
  }

  // hatch draws diagonal stripes over one cell of a heat map, each a dark
  // line on a light halo so that they show on every colour of the palette.
  function hatch(params, api) {
    var c = api.coord([api.value(0), api.value(1)]), size = api.size([1, 1]);
    var w = size[0], h = size[1], x0 = c[0] - w / 2, y0 = c[1] - h / 2;
    var gap = 7, lines = [];
    // Lines x - y = k, for k from -h to w: each clipped to the cell.
    for (var k = -h + gap / 2; k < w; k += gap) {
      var ax = Math.max(k, 0), ay = ax - k;
      var bx = Math.min(w, k + h), by = bx - k;
      var shape = {x1: x0 + ax, y1: y0 + ay, x2: x0 + bx, y2: y0 + by};
      lines.push({type: 'line', shape: shape, style: {stroke: 'rgba(255,255,255,0.75)', lineWidth: 3}});
      lines.push({type: 'line', shape: shape, style: {stroke: 'rgba(0,0,0,0.85)', lineWidth: 1.2}});
    }
    return {type: 'group', children: lines};
  }

  function heatmap(spec) {
    var o = spec.option, d = spec.digits;
    var wide = typeof spec.wide === 'number' ? spec.wide : 0.1;
    o.tooltip.formatter = function (p) {
      // The axes' labels as drawn (prepareAxes rewrites them after this).
      var xs = o.xAxis[0].data, ys = o.yAxis[0].data;
      var v = p.value, x = v[0], y = v[1];
      var s = esc(spec.x) + ': <b>' + esc(xs[x]) + '</b><br>' +
        esc(spec.y) + ': <b>' + esc(ys[y]) + '</b><br>' +
        esc(spec.z) + ': <b>' + fmt(v[2], d) + '</b>' + interval(spec, y, x, d);
      var lo = at(spec.lo, y, x), hi = at(spec.hi, y, x);
      if (typeof lo === 'number' && typeof hi === 'number' && (hi - lo) / 2 > wide * Math.abs(v[2])) {
        s += '<br>hatched: the interval is wider than ±' + fmt(100 * wide, 3) + ' %';
      }
      return s + opens(at(spec.links, y, x));
    };
    o.visualMap.formatter = function (v) { return fmt(v, d); };
    var s = o.series[0];
    if (s.label && s.label.show) {
      s.label.formatter = function (p) { return fmt(p.value[2], d); };
    }
    for (var i = 1; i < o.series.length; i++) {
      if (o.series[i].id === 'hatch') {
        o.series[i].renderItem = hatch;
      }
    }
  }

  // errorBar draws one value's interval: a vertical line from lo to hi
  // with a cap at each end.
  function errorBar(params, api) {
    var x = api.value(0), a = api.coord([x, api.value(1)]), b = api.coord([x, api.value(2)]);
    var cap = Math.max(3, Math.min(7, api.size([1, 0])[0] * 0.15));
    var style = {stroke: api.visual('color'), lineWidth: 1.5};
    return {type: 'group', children: [
      {type: 'line', shape: {x1: a[0], y1: a[1], x2: b[0], y2: b[1]}, style: style},
      {type: 'line', shape: {x1: a[0] - cap, y1: a[1], x2: a[0] + cap, y2: a[1]}, style: style},
      {type: 'line', shape: {x1: b[0] - cap, y1: b[1], x2: b[0] + cap, y2: b[1]}, style: style}
    ]};
  }

  // line adds the tooltip formatter of a line chart: each series' value
  // with its interval, and what a click on its point opens; and the error
  // bars' draw function.
  function line(spec) {
    var o = spec.option, d = spec.digits;
    o.tooltip.formatter = function (ps) {
      if (!ps.length) {
        return '';
      }
      var x = ps[0].dataIndex, s = esc(o.xAxis[0].data[x]);
      for (var i = 0; i < ps.length; i++) {
        var p = ps[i], v = p.value;
        if (p.seriesType !== 'line') {
          continue;
        }
        s += '<br>' + p.marker + esc(p.seriesName) + ': <b>' + fmt(typeof v === 'number' ? v : NaN, d) + '</b>' +
          interval(spec, p.seriesIndex, x, d) + opens(at(spec.links, p.seriesIndex, x));
      }
      return s;
    };
    for (var i = 0; i < o.series.length; i++) {
      if (o.series[i].type === 'custom') {
        o.series[i].renderItem = errorBar;
      }
    }
  }

  // bar adds the tooltip formatter of a bar chart: with links, every
  // series' value at the category, and what a click on a bar opens.
  function bar(spec) {
    var o = spec.option, d = spec.digits;
    o.tooltip.valueFormatter = function (v) { return fmt(v, d); };
    if (!spec.links) {
      return;
    }
    o.tooltip.formatter = function (ps) {
      if (!ps.length) {
        return '';
      }
      var x = ps[0].dataIndex, s = esc(o.xAxis[0].data[x]), link = null;
      for (var i = 0; i < ps.length; i++) {
        var p = ps[i], v = p.value;
        s += '<br>' + p.marker + esc(p.seriesName) + ': <b>' + fmt(typeof v === 'number' ? v : NaN, d) + '</b>';
        link = link || at(spec.links, p.seriesIndex, x);
      }
      return s + opens(link);
    };
  }

  // follow opens the link of what was clicked: a heat map's cell, a line
  // chart's point or a bar.
  function follow(chart, spec) {
    if (!spec.links) {
      return;
    }
    chart.on('click', function (p) {
      var link = null;
      if (spec.kind === 'heatmap' && p.seriesType === 'heatmap') {
        link = at(spec.links, p.value[1], p.value[0]);
      } else if ((spec.kind === 'line' && p.seriesType === 'line') || (spec.kind === 'bar' && p.seriesType === 'bar')) {
        link = at(spec.links, p.seriesIndex, p.dataIndex);
      }
      if (link) {
        window.location.href = link.href;
      }
    });
  }

  // followRows makes a table row with a link open it wherever it is
  // clicked (its first cell is the link itself).
  function followRows() {
    var rows = document.querySelectorAll('tr.linked[data-href]');
    for (var i = 0; i < rows.length; i++) {
      rows[i].addEventListener('click', function (e) {
        if (e.target.closest('a')) {
          return; // the link itself
        }
        window.location.href = this.getAttribute('data-href');
      });
    }
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

  // The text every chart draws: the theme's size in echarts' default family.
  var fontSize = 14, font = fontSize + 'px sans-serif';
  var measureCtx = null;

  function textWidth(s) {
    if (!measureCtx) {
      measureCtx = document.createElement('canvas').getContext('2d');
    }
    measureCtx.font = font;
    return measureCtx.measureText(String(s)).width;
  }

  function maxWidth(labels) {
    var w = 0;
    for (var i = 0; i < labels.length; i++) {
      w = Math.max(w, textWidth(labels[i]));
    }
    return w;
  }

  function first(a) {
    return Array.isArray(a) ? a[0] : a;
  }

  // prepareAxes rewrites power labels and sets tick formatters, once per chart.
  function prepareAxes(spec) {
    var o = spec.option;
    [first(o.xAxis), first(o.yAxis)].forEach(function (ax) {
      if (!ax) {
        return;
      }
      var unitSeconds = seconds(ax.name);
      ax.axisLabel = ax.axisLabel || {};
      if (ax.type === 'category') {
        ax.data = (ax.data || []).map(function (l) { return category(l, unitSeconds); });
      } else {
        ax.axisLabel.formatter = tick(unitSeconds);
      }
    });
  }

  // legendHeight is the height the legend's items take at width w, packed
  // the way echarts' plain legend packs them: a name wider than textMax
  // breaks into lines of its own (legendData gives it that width).
  function legendHeight(names, w, textMax) {
    var height = 0, rowH = 0, x = 0;
    for (var i = 0; i < names.length; i++) {
      var tw = textWidth(names[i]);
      var item = 25 + 5 + Math.min(tw, textMax) + 10; // icon, gap, text, item gap
      var h = Math.max(24, Math.ceil(tw / textMax) * 18 + 6);
      if (x > 0 && x + item > w) {
        height += rowH;
        rowH = 0;
        x = 0;
      }
      x += item;
      rowH = Math.max(rowH, h);
    }
    return height + rowH;
  }

  // legendData is the legend's entries: a name wider than textMax breaks
  // into lines at that width instead of running off the chart's edges.
  function legendData(names, textMax) {
    return names.map(function (n) {
      return textWidth(n) > textMax ? {name: n, textStyle: {width: textMax, overflow: 'break', lineHeight: 18}} : n;
    });
  }

  // layout sizes a chart's margins for its container width w: a legend that
  // wraps instead of scrolling, a Y axis name that starts at the axis and
  // wraps rather than running off the left edge (echarts centres it on the
  // axis line, and containLabel leaves names out), category labels all shown
  // (every bar keeps its label) and turned when they would collide, and the
  // X axis name below them. It runs again whenever the window is resized.
  function layout(spec, w) {
    var o = spec.option, x = first(o.xAxis), y = first(o.yAxis);
    var grid = o.grid || (o.grid = {});
    var top = 12;
    if (o.legend && first(o.legend).show !== false) {
      var lg = first(o.legend);
      // One entry per name: a line's error bars share its name.
      var names = [];
      (lg.data || o.series || []).forEach(function (d) {
        var n = typeof d === 'object' && d !== null ? d.name : d;
        if (n && names.indexOf(n) < 0) {
          names.push(n);
        }
      });
      var textMax = Math.max(60, w - 16 - 40);
      lg.type = 'plain';
      lg.top = 0;
      lg.left = 'center';
      lg.width = w - 16;
      lg.data = legendData(names, textMax);
      top += legendHeight(names, w - 16, textMax) + 4;
    }
    var yLabelW = y && y.type === 'category' ? maxWidth(y.data || []) : textWidth('−0.000×10⁻⁰');
    var left = (grid.left || 0) + yLabelW + 8;
    if (y && y.name) {
      var avail = Math.max(80, w - left - 16);
      var lines = Math.ceil(textWidth(y.name) / avail);
      y.nameLocation = y.inverse ? 'start' : 'end'; // the top either way
      y.nameGap = 10;
      y.nameTextStyle = {align: 'left', verticalAlign: 'bottom', width: avail, overflow: 'break', fontSize: fontSize, lineHeight: 18};
      top += lines * 18 + 10;
    }
    grid.top = Math.max(top, 24);
    if (x && x.type === 'category') {
      var labels = x.data || [], n = Math.max(labels.length, 1);
      var plotW = w - left - (grid.right || 0);
      var labelW = maxWidth(labels), per = plotW / n, rotate = 0;
      x.axisLabel = x.axisLabel || {};
      if (spec.kind === 'bar' || spec.kind === 'heatmap' || labelW + 8 <= per) {
        x.axisLabel.interval = 0; // every category keeps its label
      }
      if (x.axisLabel.interval === 0 && labelW + 8 > per) {
        rotate = labelW * 0.7 + 4 > per ? 90 : 45;
      }
      x.axisLabel.rotate = rotate;
      x.axisLabel.hideOverlap = false;
      var labelH = rotate === 90 ? labelW + 8 : rotate === 45 ? labelW * 0.71 + 14 : 24;
      if (x.name) {
        x.nameLocation = 'middle';
        x.nameGap = labelH + 10;
      }
    } else if (x && x.name) {
      x.nameLocation = 'middle';
      x.nameGap = 32;
    }
    var xNameLines = 1;
    if (x && x.name) {
      // A name wider than the plot wraps instead of running off both edges.
      var xAvail = Math.max(80, w - 32);
      xNameLines = Math.ceil(textWidth(x.name) / xAvail);
      x.nameTextStyle = {width: xAvail, overflow: 'break', fontSize: fontSize, lineHeight: 18, verticalAlign: 'top'};
    }
    var slider = (o.dataZoom || []).some(function (z) { return z.type === 'slider'; });
    grid.bottom = (x && x.name ? 20 + 18 * xNameLines : 8) + (slider ? 40 : 0);
    if (slider) {
      o.dataZoom.forEach(function (z) {
        if (z.type === 'slider') {
          z.bottom = 4;
        }
      });
    }
    // The height the chart needs: its margins, the X labels and a plot of
    // at least 200 px. On a phone a legend of many series wraps into many
    // lines; without this the plot shrank to nothing and the X axis name
    // fell below the canvas.
    var xLabels = x && x.type === 'category' ? (x.nameGap || 24) : 24;
    return grid.top + grid.bottom + xLabels + 200;
  }

  // fit sets el's height to what the layout needs, never below the
  // height its stylesheet gives it.
  function fit(el, need) {
    if (!el.dataset.baseHeight) {
      el.dataset.baseHeight = String(el.clientHeight);
    }
    el.style.height = Math.max(Number(el.dataset.baseHeight), Math.ceil(need)) + 'px';
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
    followRows();
    var drawn = [];
    var els = document.querySelectorAll('.chart-canvas[data-option]');
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      try {
        var src = document.getElementById(el.getAttribute('data-option'));
        var spec = JSON.parse(src.textContent);
        if (spec.kind === 'heatmap') {
          heatmap(spec);
        } else if (spec.kind === 'line') {
          line(spec);
        } else if (spec.kind === 'bar') {
          bar(spec);
        } else if (spec.kind === 'gantt') {
          gantt(spec);
        }
        prepareAxes(spec);
        fit(el, layout(spec, el.clientWidth));
        var chart = echarts.init(el, 'commlab-report', {renderer: 'canvas'});
        chart.setOption(spec.option);
        follow(chart, spec);
        el.setAttribute('data-rendered', 'true');
        drawn.push({chart: chart, spec: spec, el: el});
      } catch (e) {
        el.setAttribute('data-error', String(e));
        el.textContent = 'This chart could not be drawn: ' + e + '. Its data are linked below.';
      }
    }
    window.addEventListener('resize', function () {
      for (var j = 0; j < drawn.length; j++) {
        var d = drawn[j];
        fit(d.el, layout(d.spec, d.el.clientWidth));
        d.chart.setOption(d.spec.option);
        d.chart.resize();
      }
    });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', draw);
  } else {
    draw();
  }
})();
