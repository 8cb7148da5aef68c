// scene.js runs commlab's visualizer page. It starts commlab.wasm, which
// boot.js has been fetching and compiling since the page's first
// milliseconds, with the Go runtime glue from wasm_exec.js; the program
// installs window.commlab and announces it with "commlab-ready", and its
// first frame with "commlab-first-frame", which takes the scene's still
// (boot.js) off the stage. The page's controls are generated from
// commlab.fields() and kept in step with commlab.state() on every
// "commlab-state" event; they change the view only through the API, so a
// script or a test driving window.commlab sees exactly what a person does.
// The keyboard is handled inside the wasm (on window, so it works in an
// iframe that has focus). This file adds commlab.recordWebM, since
// MediaRecorder is a browser matter.
'use strict';

(function () {
  const $ = function (id) { return document.getElementById(id); };
  const status = $('status');
  const params = new URLSearchParams(location.search);
  // boot.js has set the embed class and the theme, started the wasm's
  // compile and put the still on the stage.
  const boot = window.commlabBoot;
  const embed = document.body.classList.contains('embed');

  // Crisp on a scaled slide. reveal.js scales a slide with a CSS
  // transform, which the frame's devicePixelRatio does not include, so the
  // canvas would be drawn at its CSS size and blown up. The canvas gets
  // devicePixelRatio x scale device pixels per CSS pixel instead: scale is
  // the URL's `scale` (in [0.5, 4]; the wasm names a bad value), else, in a
  // frame of the same origin, the transform's own scale, measured. Ebiten
  // reads window.devicePixelRatio, so the product goes there before it
  // starts.
  const scale = (function () {
    const raw = params.get('scale');
    if (raw !== null) {
      const x = Number(raw.trim());
      return raw.trim() !== '' && isFinite(x) && x >= 0.5 && x <= 4 ? x : 1;
    }
    try {
      const fe = window.frameElement;
      if (fe && fe.offsetWidth > 0) {
        const x = fe.getBoundingClientRect().width / fe.offsetWidth;
        return isFinite(x) && x > 1.01 ? Math.min(x, 4) : 1;
      }
    } catch (e) {
      // a frame of another origin: no access, no measurement
    }
    return 1;
  })();
  if (scale !== 1) {
    const ratio = (window.devicePixelRatio || 1) * scale;
    Object.defineProperty(window, 'devicePixelRatio', { configurable: true, get: function () { return ratio; } });
  }

  function fail(message) {
    if (status.classList.contains('error')) {
      return; // the first message is the cause; keep it
    }
    status.textContent = message;
    status.classList.add('error');
    status.hidden = false;
    console.error('commlab: ' + message);
  }

  if (typeof Go !== 'function') {
    fail('wasm_exec.js did not load; build it with `make wasm`.');
    return;
  }

  // The page's chrome comes in two steps: the title, the paper and the
  // report links as soon as the API exists; the controls once the first
  // frame is painted, in the animation frame that takes the still away.
  // Built before it, they and the layout they force took 35-70 ms of the
  // page's one thread (Chromium traces) on the first frame's path.
  let pageBuilt = false;
  window.addEventListener('commlab-ready', function () {
    status.hidden = true;
    const api = window.commlab;
    api.recordWebM = recordWebM;
    if (!embed) {
      buildHeader(api);
    }
    const first = api.state();
    const building = buildingBox(api);
    showErrors(first);
    building(first);
    document.documentElement.dataset.theme = first.theme;
    if (!embed) {
      showPaper(first.paper);
    }
    window.addEventListener('commlab-state', function () {
      const st = api.state();
      if (!embed) {
        showPaper(st.paper);
      }
      showErrors(st);
      building(st);
      document.documentElement.dataset.theme = st.theme;
      if (pageBuilt) {
        syncPage(api, st);
      }
    });
    // The still goes one animation frame after the first live frame, when
    // the canvas's pixels are surely on the screen (it lies above the
    // canvas, so it is never the canvas's blank that shows).
    window.addEventListener('commlab-first-frame', function () {
      requestAnimationFrame(function () {
        if (!embed) {
          buildPage(api);
          pageBuilt = true;
          showErrors(api.state()); // the controls' own error lines
        }
        if (boot && boot.still) {
          boot.still.remove();
        }
      });
    }, { once: true });
    watchVisibility(api);
  }, { once: true });

  if (!boot) {
    fail('boot.js did not load; the page needs site/boot.js beside it.');
    return;
  }

  const go = new Go();
  boot.compiled
    .then(function (c) {
      if (c.error) {
        throw c.error;
      }
      return WebAssembly.instantiate(c.module, go.importObject);
    })
    .then(function (instance) {
      performance.mark('commlab:instantiated');
      return go.run(instance);
    })
    .then(function () {
      // The visualizer runs until the page closes; returning means it quit.
      fail('the visualizer stopped; reload the page to start it again.');
    })
    .catch(function (err) {
      fail('could not start the visualizer: ' + err.message);
    });

  // ---- drawing only while seen ----

  // watchVisibility stops the drawing (and the playhead) while the scene
  // cannot be seen, and resumes where it was: a hidden tab
  // (visibilitychange), a frame or canvas scrolled out of view
  // (IntersectionObserver, which sees through frames of any origin), or a
  // reveal.js slide left behind (reveal posts "slide:stop" to a slide's
  // frames when it leaves the slide and "slide:start" when it comes back).
  function watchVisibility(api) {
    let tabHidden = document.visibilityState === 'hidden';
    let offscreen = false;
    let slideStopped = false;
    const apply = function () {
      api.setVisible(!(tabHidden || offscreen || slideStopped));
    };
    document.addEventListener('visibilitychange', function () {
      tabHidden = document.visibilityState === 'hidden';
      apply();
    });
    if (typeof IntersectionObserver === 'function') {
      const io = new IntersectionObserver(function (entries) {
        const e = entries[entries.length - 1];
        offscreen = !e.isIntersecting;
        apply();
      });
      io.observe(document.body);
    }
    window.addEventListener('message', function (e) {
      let name = e.data;
      if (typeof name === 'string' && name.charAt(0) === '{') {
        try {
          const d = JSON.parse(name);
          name = d && d.namespace === 'reveal' ? d.eventName : '';
        } catch (err) {
          name = '';
        }
      }
      if (name === 'slide:stop') {
        slideStopped = true;
        apply();
      } else if (name === 'slide:start') {
        slideStopped = false;
        apply();
      }
    });
    apply();
  }

  // ---- a run being built ----

  // buildingBox adds the progress bar and cancel button of a run that
  // builds in steps between frames (state().building, .progress; the run
  // shown stays and plays meanwhile) and returns the func that shows st.
  function buildingBox(api) {
    const box = document.createElement('div');
    box.id = 'building';
    box.className = 'building';
    box.setAttribute('role', 'status');
    box.hidden = true;
    const bar = document.createElement('progress');
    bar.max = 1;
    bar.value = 0;
    bar.setAttribute('aria-label', 'Building the run');
    const text = document.createElement('span');
    text.className = 'build-text';
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.id = 'build-cancel';
    cancel.textContent = 'Cancel';
    cancel.title = 'Stop building; keep the run shown';
    cancel.addEventListener('click', function () { api.cancel(); });
    box.append(bar, text, cancel);
    document.body.appendChild(box);
    return function (st) {
      box.hidden = !st.building;
      if (st.building) {
        bar.value = st.progress;
        text.textContent = 'Building… ' + Math.floor(st.progress * 100) + ' %';
      }
    };
  }

  // ---- numbers and times ----

  // Times and numbers come written from the Go side (state().timeText,
  // endText, results[].text), in the scene's own units.

  function speedText(s) {
    return (s < 1 ? '1/' + String(Math.round(1 / s)) : String(s)) + '×';
  }

  // ---- errors ----

  let shownNotices = '';
  let noticeTimer = 0;

  function showErrors(st) {
    const box = $('errors');
    box.replaceChildren();
    for (const e of st.errors) {
      const p = document.createElement('p');
      p.textContent = e.message;
      box.appendChild(p);
    }
    box.hidden = st.errors.length === 0;
    // Notices: values moved into range because a field they depend on
    // changed (T after P). Not errors: the change was made.
    const nb = $('notices');
    nb.replaceChildren();
    for (const n of st.notices) {
      const p = document.createElement('p');
      p.textContent = n.message;
      p.dataset.key = n.key;
      nb.appendChild(p);
    }
    // The floating box is a passing word (it covers the canvas's top); the
    // notice stays beside its field until the next change.
    const noticeKey = st.notices.map(function (n) { return n.message; }).join('\n');
    if (noticeKey !== shownNotices) {
      shownNotices = noticeKey;
      nb.hidden = st.notices.length === 0;
      clearTimeout(noticeTimer);
      if (!nb.hidden) {
        noticeTimer = setTimeout(function () { nb.hidden = true; }, 8000);
      }
    }
    for (const el of document.querySelectorAll('.field-notice[data-key]')) {
      el.textContent = st.notices.filter(function (n) { return n.key === el.dataset.key; })
        .map(function (n) { return n.message; }).join(' ');
    }
    for (const el of document.querySelectorAll('.field-error[data-key]')) {
      const mine = st.errors.filter(function (e) { return e.key === el.dataset.key; });
      el.textContent = mine.map(function (e) { return e.message; }).join(' ');
      const field = el.closest('.field');
      if (field) {
        field.classList.toggle('invalid', mine.length > 0);
      }
    }
  }

  // ---- the page's controls ----

  // A slider moves on a log scale for log fields (powers of two step by
  // one exponent); the text box beside it holds the exact value.
  function sliderFor(f) {
    if (f.type !== 'int' && f.type !== 'float') {
      return null;
    }
    const s = document.createElement('input');
    s.type = 'range';
    s.className = 'slider';
    s.tabIndex = -1; // the text box is the keyboard's way in
    s.setAttribute('aria-hidden', 'true');
    // The range the other fields leave (T ≤ K for the current P), else
    // the field's own.
    let lo = f.range_why ? f.range_min : f.min || 0;
    const hi = f.range_why ? f.range_max : f.max || 1;
    if (f.pow2) {
      s.min = String(Math.log2(Math.max(lo, 1)));
      s.max = String(Math.log2(hi));
      s.step = '1';
      return { el: s, to: function (x) { return String(Math.pow(2, Math.round(x))); }, from: function (v) { return Math.log2(v); } };
    }
    if (f.log) {
      if (!(lo > 0)) {
        lo = hi / 1e6;
      }
      s.min = String(Math.log10(lo));
      s.max = String(Math.log10(hi));
      s.step = 'any';
      return {
        el: s,
        to: function (x) { return String(Number(Math.pow(10, x).toPrecision(3))); },
        from: function (v) { return Math.log10(v); },
      };
    }
    s.min = String(lo);
    s.max = String(hi);
    s.step = f.type === 'int' ? '1' : 'any';
    return {
      el: s,
      to: function (x) { return f.type === 'int' ? String(Math.round(x)) : String(Number(Number(x).toPrecision(3))); },
      from: function (v) { return v; },
    };
  }

  const inputs = {}; // key -> {input, slider, type}

  function setParam(api, key, value) {
    return api.setParams({ [key]: value });
  }

  // buildHeader names the scene in the panel: its title, paper, summary
  // and the report figures it illustrates.
  function buildHeader(api) {
    const st = api.state();
    const info = api.scenes().find(function (s) { return s.name === st.scene; });
    if (info) {
      document.title = info.title + ' · commlab';
      $('title').textContent = info.title;
      $('paper').textContent = info.paper;
      $('summary').textContent = info.summary;
      showPlaces(info.places);
    }
  }

  // buildPage makes the panel's controls from commlab.fields() and wires
  // the buttons.
  function buildPage(api) {
    const st = api.state();

    const controls = $('controls');
    for (const f of api.fields()) {
      const div = document.createElement('div');
      div.className = 'field field-' + f.type;
      const id = 'field-' + f.key;
      const label = document.createElement('label');
      label.htmlFor = id;
      label.textContent = f.label;
      let input;
      if (f.type === 'bool') {
        input = document.createElement('input');
        input.type = 'checkbox';
        input.addEventListener('change', function () { setParam(api, f.key, input.checked); });
        div.appendChild(input);
        div.appendChild(label);
      } else if (f.type === 'choice') {
        input = document.createElement('select');
        for (const c of f.choices) {
          const o = document.createElement('option');
          o.value = c;
          o.textContent = c;
          input.appendChild(o);
        }
        input.addEventListener('change', function () { setParam(api, f.key, input.value); });
        div.appendChild(label);
        div.appendChild(input);
      } else {
        input = document.createElement('input');
        input.type = 'text';
        input.inputMode = 'decimal';
        input.autocomplete = 'off';
        input.spellcheck = false;
        input.addEventListener('change', function () { setParam(api, f.key, input.value); });
        div.appendChild(label);
        div.appendChild(input);
        if (f.unit) {
          const u = document.createElement('span');
          u.className = 'unit';
          u.textContent = f.unit;
          div.appendChild(u);
        }
        const sl = sliderFor(f);
        if (sl) {
          sl.el.addEventListener('input', function () { input.value = sl.to(Number(sl.el.value)); });
          sl.el.addEventListener('change', function () { setParam(api, f.key, input.value); });
          div.appendChild(sl.el);
          inputs[f.key] = { input: input, slider: sl, type: f.type };
        }
      }
      if (!inputs[f.key]) {
        inputs[f.key] = { input: input, slider: null, type: f.type };
      }
      input.id = id;
      input.dataset.key = f.key;
      input.title = f.want;
      const err = document.createElement('span');
      err.className = 'field-error';
      err.dataset.key = f.key;
      err.setAttribute('role', 'status');
      div.appendChild(err);
      const nt = document.createElement('span');
      nt.className = 'field-notice';
      nt.dataset.key = f.key;
      nt.setAttribute('role', 'status');
      div.appendChild(nt);
      const help = document.createElement('small');
      help.className = 'help';
      help.textContent = helpText(f);
      inputs[f.key].help = help;
      div.appendChild(help);
      controls.appendChild(div);
    }

    const seed = $('seed');
    seed.addEventListener('change', function () { setParam(api, 'seed', seed.value.trim()); });
    const theme = $('theme');
    for (const name of st.themes) {
      const o = document.createElement('option');
      o.value = name;
      o.textContent = name;
      theme.appendChild(o);
    }
    theme.addEventListener('change', function () { setParam(api, 'theme', theme.value); });

    $('play').addEventListener('click', function () { api.toggle(); });
    $('step-back').addEventListener('click', function () { api.step(-1); });
    $('step-fwd').addEventListener('click', function () { api.step(1); });
    $('slower').addEventListener('click', function () { api.slower(); });
    $('faster').addEventListener('click', function () { api.faster(); });
    const scrub = $('scrub');
    scrub.addEventListener('input', function () { api.seek(Number(scrub.value)); });

    $('export-png').addEventListener('click', function () { api.exportPNG(); });
    $('export-trace').addEventListener('click', function () { api.exportTrace(); });
    $('export-webm').addEventListener('click', function () {
      api.recordWebM().catch(function (err) { note(err.message); });
    });
    $('copy-embed').addEventListener('click', copyEmbed);
    for (const id of ['embed-autoplay', 'embed-loop', 'embed-start', 'embed-size', 'embed-scale']) {
      $(id).addEventListener('change', function () { $('embed-code').value = embedSnippet(api.state()); });
    }

    syncPage(api, st);
  }

  // showPlaces links the report figures and findings the scene illustrates
  // (scene/catalog.Places), under the report base the page's
  // <meta name="commlab-reports"> names.
  function showPlaces(places) {
    const meta = document.querySelector('meta[name="commlab-reports"]');
    let base = meta ? meta.content.trim() : 'reports/';
    if (base !== '' && base.charAt(base.length - 1) !== '/') {
      base += '/';
    }
    const list = $('places-list');
    list.replaceChildren();
    for (const p of places || []) {
      const a = document.createElement('a');
      a.href = base + p.href;
      a.textContent = p.label;
      a.dataset.page = p.page;
      a.dataset.anchor = p.anchor;
      const li = document.createElement('li');
      li.appendChild(a);
      list.appendChild(li);
    }
    $('places').hidden = list.childElementCount === 0;
  }

  // showTime writes "now / end" as two spans (the text reads the same),
  // so that a phone can put the end under the time when a scene's unit
  // is a long word ("44.2 additions / 44.2 additions" would wrap mid-way
  // and overflow the bar).
  function showTime(now, end) {
    const el = $('time');
    if (el.textContent === now + ' / ' + end) {
      return;
    }
    const a = document.createElement('span');
    a.className = 'time-now';
    a.textContent = now;
    const b = document.createElement('span');
    b.className = 'time-end';
    b.textContent = ' / ' + end;
    el.replaceChildren(a, b);
  }

  // showPaper lists, when the run's parameters are one of its paper's
  // points, the paper's number beside the run's (state().paper): "paper:
  // 1.271× (where) · commlab: 1.873×", each under what it compares,
  // then the notes the comparison needs. Hidden elsewhere; never in an
  // embedded scene (the canvas is the slide's, and a line over it would
  // hide part of the picture).
  function showPaper(paper) {
    const box = $('paper-point');
    const list = $('paper-list');
    const items = paper || [];
    const key = items.map(function (n) { return n.what + '=' + n.paperText + '|' + n.oursText; }).join('&');
    if (list.dataset.shown === key) {
      return;
    }
    list.dataset.shown = key;
    list.replaceChildren();
    for (const n of items) {
      const li = document.createElement('li');
      const what = document.createElement('span');
      what.className = 'pp-what';
      what.textContent = n.what;
      const line = document.createElement('span');
      line.className = 'pp-line';
      const by = document.createElement('b');
      by.textContent = n.by + ': ';
      const theirs = document.createElement('span');
      theirs.className = 'pp-paper';
      theirs.textContent = n.paperText;
      const where = document.createElement('span');
      where.className = 'pp-source';
      where.textContent = ' (' + n.source + ')';
      const sep = document.createTextNode(' · ');
      const us = document.createElement('b');
      us.textContent = 'commlab: ';
      const ours = document.createElement('span');
      ours.className = 'pp-ours';
      ours.textContent = n.oursText;
      line.append(by, theirs, where, sep, us, ours);
      li.append(what, line);
      list.appendChild(li);
    }
    // A note (how the point was chosen, which model ours is) is said
    // once, however many of the numbers it is about.
    const notes = $('paper-notes');
    notes.replaceChildren();
    const said = {};
    for (const n of items) {
      if (n.note && !said[n.note]) {
        said[n.note] = true;
        const line = document.createElement('span');
        line.textContent = n.note;
        notes.appendChild(line);
      }
    }
    if (items.length > 0) {
      const by = items[0].by;
      $('h-paper-point').textContent = 'Against ' + (by === 'paper' || by === 'slides' ? 'the ' + by : by);
    }
    box.hidden = items.length === 0;
  }

  // syncPage shows st in the controls. A control the user is editing, or
  // whose value was rejected, keeps what the user typed.
  function syncPage(api, st) {
    const bad = {};
    for (const e of st.errors) {
      bad[e.key] = true;
    }
    // While a run builds, the controls show the values asked for.
    const asked = st.pending || st;
    const editing = document.activeElement;
    for (const key of Object.keys(inputs)) {
      const c = inputs[key];
      const v = asked.params[key];
      if (v === undefined || bad[key] || c.input === editing) {
        continue;
      }
      if (c.type === 'bool') {
        c.input.checked = v === '1';
      } else {
        c.input.value = v;
      }
      if (c.slider) {
        c.slider.el.value = String(c.slider.from(Number(v)));
      }
    }
    const seed = $('seed');
    if (!bad.seed && seed !== editing) {
      seed.value = asked.seedText;
    }
    $('theme').value = st.theme;

    const play = $('play');
    play.textContent = st.playing ? 'Pause' : 'Play';
    play.setAttribute('aria-pressed', st.playing ? 'true' : 'false');
    $('speed').textContent = speedText(st.speed);
    const scrub = $('scrub');
    scrub.max = String(st.end);
    if (scrub !== editing || st.playing) {
      scrub.value = String(st.t);
    }
    showTime(st.timeText, st.endText);

    showNumbers(st.results);
    if (st.query !== lastQuery) {
      lastQuery = st.query;
      refreshFields(api);
      $('embed-code').value = embedSnippet(st);
    }
  }

  let lastQuery = '';

  // refreshFields shows the ranges and defaults that follow other fields
  // (T's range is [0, K] for the current P) on the sliders and in the help.
  function refreshFields(api) {
    for (const f of api.fields()) {
      const c = inputs[f.key];
      if (!c) {
        continue;
      }
      if (c.help) {
        c.help.textContent = helpText(f);
      }
      if (c.slider && f.range_why) {
        const sl = sliderFor(f);
        c.slider.el.min = sl.el.min;
        c.slider.el.max = sl.el.max;
        c.slider.to = sl.to;
        c.slider.from = sl.from;
        c.slider.el.value = String(sl.from(Number(c.input.value)));
      }
      c.input.title = f.range_why ? f.want + ' (now ' + f.range_why + ')' : f.want;
    }
  }

  function helpText(f) {
    return (f.help ? f.help + '; ' : '') + 'default ' + f.default + (f.unit ? ' ' + f.unit : '');
  }

  // showNumbers lists the run's results as the scene labels them: each
  // with its label in words and its value written in its own unit by the
  // Go side (scene.Number), in the scene's order.
  function showNumbers(results) {
    const dl = $('numbers');
    const key = results.map(function (n) { return n.key + '=' + n.text; }).join('&');
    if (dl.dataset.shown === key) {
      return;
    }
    dl.dataset.shown = key;
    dl.replaceChildren();
    for (const n of results) {
      const dt = document.createElement('dt');
      dt.textContent = n.label;
      const dd = document.createElement('dd');
      dd.dataset.key = n.key;
      dd.dataset.unit = n.unit;
      dd.textContent = n.text;
      dl.appendChild(dt);
      dl.appendChild(dd);
    }
  }

  // embedSnippet is the iframe for a slide, from the current view and the
  // builder's choices: autoplay, loop, where it starts (the playhead, the
  // beginning, or the scene's opening moment), its size, and the scale of
  // a deck that is scaled up (reveal.js: about the projector's width over
  // the deck's, e.g. 2 for a 960-wide deck on a 1920-wide screen).
  function embedSnippet(st) {
    const q = new URLSearchParams(st.query);
    for (const k of ['t', 'autoplay', 'loop', 'embed', 'scale']) {
      q.delete(k);
    }
    const start = $('embed-start').value;
    if (start === 'playhead') {
      q.set('t', String(st.t));
    } else if (start === 'beginning') {
      q.set('t', '0');
    }
    q.set('embed', '1');
    if ($('embed-autoplay').checked) {
      q.set('autoplay', '1');
    }
    if ($('embed-loop').checked) {
      q.set('loop', '1');
    }
    const sc = $('embed-scale').value;
    if (sc !== '1') {
      q.set('scale', sc);
    }
    const base = location.origin === 'null' ? '' : location.origin;
    const src = (base + location.pathname + '?' + q.toString()).replace(/&/g, '&amp;').replace(/"/g, '%22');
    const title = document.title.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    const size = $('embed-size').value;
    let dims;
    if (size === 'fluid') {
      dims = 'style="width: 100%; aspect-ratio: 16 / 9; border: 0"';
    } else {
      const wh = size.split('x');
      dims = 'width="' + wh[0] + '" height="' + wh[1] + '" style="border: 0"';
    }
    return '<iframe src="' + src + '" ' + dims + ' allow="fullscreen" loading="lazy" title="' + title + '"></iframe>';
  }

  function note(text) {
    $('export-note').textContent = text;
  }

  function copyEmbed() {
    const ta = $('embed-code');
    const done = function () { note('Snippet copied.'); };
    const fallback = function () {
      ta.focus();
      ta.select();
      let ok = false;
      try {
        ok = document.execCommand('copy');
      } catch (e) {
        ok = false;
      }
      note(ok ? 'Snippet copied.' : 'Select the snippet and copy it (Ctrl+C).');
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(ta.value).then(done, fallback);
    } else {
      fallback();
    }
  }

  // ---- WebM ----

  // recordWebM records one play-through from the start (or seconds of
  // playing) from the canvas and downloads it as commlab-SCENE.webm. It
  // resolves with the Blob once the file is handed to the browser.
  function recordWebM(seconds) {
    const api = window.commlab;
    const canvas = document.querySelector('canvas');
    if (typeof MediaRecorder !== 'function' || !canvas || !canvas.captureStream) {
      return Promise.reject(new Error('this browser cannot record the canvas (no MediaRecorder)'));
    }
    const st = api.state();
    const length = seconds > 0 ? seconds : st.playSeconds / st.speed + 0.5;
    const types = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];
    const type = types.find(function (t) { return MediaRecorder.isTypeSupported(t); });
    if (!type) {
      return Promise.reject(new Error('this browser cannot record WebM'));
    }
    const button = $('export-webm');
    return new Promise(function (resolve, reject) {
      const stream = canvas.captureStream(30);
      const rec = new MediaRecorder(stream, { mimeType: type });
      const chunks = [];
      let bytes = 0;
      rec.addEventListener('dataavailable', function (e) {
        if (e.data && e.data.size > 0) {
          chunks.push(e.data);
          bytes += e.data.size;
        }
      });
      rec.addEventListener('error', function (e) {
        reject(e.error || new Error('recording failed'));
      });
      rec.addEventListener('stop', function () {
        for (const tr of stream.getTracks()) {
          tr.stop();
        }
        if (button) {
          button.disabled = false;
        }
        const blob = new Blob(chunks, { type: 'video/webm' });
        const a = document.createElement('a');
        a.href = URL.createObjectURL(blob);
        a.download = 'commlab-' + api.state().scene + '.webm';
        a.hidden = true;
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(URL.revokeObjectURL.bind(URL, a.href), 10000);
        note('');
        resolve(blob);
      });
      if (button) {
        button.disabled = true;
      }
      note('Recording ' + length.toFixed(1) + ' s…');
      api.pause();
      api.seek(0);
      rec.start(250);
      api.play();
      // A busy machine may not have encoded a frame by the end: keep
      // recording (up to 10 s more) until there is video, rather than
      // hand a slide an empty file.
      const deadline = Date.now() + length * 1000 + 10000;
      const finish = function () {
        if (bytes === 0 && Date.now() < deadline) {
          rec.requestData();
          setTimeout(finish, 250);
          return;
        }
        rec.stop();
      };
      setTimeout(finish, length * 1000);
    });
  }
})();
