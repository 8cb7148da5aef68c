// scene.js runs commlab's visualizer page. It starts commlab.wasm with the Go
// runtime glue from wasm_exec.js; the program installs window.commlab and
// announces it with "commlab-ready". The page's controls are generated from
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
  const truthy = { '1': true, 'true': true, 'on': true, 'yes': true };
  const embed = truthy[(params.get('embed') || '').trim().toLowerCase()] === true;
  if (embed) {
    document.body.classList.add('embed');
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

  window.addEventListener('commlab-ready', function () {
    status.hidden = true;
    const api = window.commlab;
    api.recordWebM = recordWebM;
    if (!embed) {
      buildPage(api);
    }
    showErrors(api.state());
    window.addEventListener('commlab-state', function () {
      const st = api.state();
      showErrors(st);
      if (!embed) {
        syncPage(api, st);
      }
    });
  }, { once: true });

  const go = new Go();
  fetch('commlab.wasm')
    .then(function (resp) {
      if (!resp.ok) {
        throw new Error('commlab.wasm: HTTP ' + resp.status + '; build it with `make wasm`');
      }
      return WebAssembly.instantiateStreaming(resp, go.importObject);
    })
    .then(function (result) {
      return go.run(result.instance);
    })
    .then(function () {
      // The visualizer runs until the page closes; returning means it quit.
      fail('the visualizer stopped; reload the page to start it again.');
    })
    .catch(function (err) {
      fail('could not start the visualizer: ' + err.message);
    });

  // ---- numbers and times ----

  // timeUnit is the current scene's unit of time when it is not the second
  // (scenes()' time_unit, e.g. "additions" for LogP); "" means seconds.
  let timeUnit = '';

  // time formats a simulated time: in seconds like Go's scene.Seconds
  // (three significant digits and an SI prefix, "12.3 µs"), else as a
  // plain number of the scene's unit ("47.4 additions").
  function time(t) {
    if (timeUnit !== '') {
      return String(Number(t.toPrecision(4))) + ' ' + timeUnit;
    }
    return seconds(t);
  }

  function seconds(t) {
    if (t === 0 || !isFinite(t)) {
      return String(t) + ' s';
    }
    const units = [[1, 's'], [1e-3, 'ms'], [1e-6, 'µs'], [1e-9, 'ns']];
    const a = Math.abs(t);
    let u = units[units.length - 1];
    for (const c of units) {
      if (a >= c[0] * 0.9995) {
        u = c;
        break;
      }
    }
    return String(Number((t / u[0]).toPrecision(3))) + ' ' + u[1];
  }

  function speedText(s) {
    return (s < 1 ? '1/' + String(Math.round(1 / s)) : String(s)) + '×';
  }

  // ---- errors ----

  function showErrors(st) {
    const box = $('errors');
    box.replaceChildren();
    for (const e of st.errors) {
      const p = document.createElement('p');
      p.textContent = e.message;
      box.appendChild(p);
    }
    box.hidden = st.errors.length === 0;
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
    let lo = f.min || 0;
    const hi = f.max || 1;
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

  function buildPage(api) {
    const st = api.state();
    const info = api.scenes().find(function (s) { return s.name === st.scene; });
    if (info) {
      document.title = info.title + ' · commlab';
      $('title').textContent = info.title;
      $('paper').textContent = info.paper;
      $('summary').textContent = info.summary;
      timeUnit = info.time_unit || '';
    }

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
      const help = document.createElement('small');
      help.className = 'help';
      help.textContent = (f.help ? f.help + '; ' : '') + 'default ' + f.default + (f.unit ? ' ' + f.unit : '');
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

    syncPage(api, st);
  }

  // syncPage shows st in the controls. A control the user is editing, or
  // whose value was rejected, keeps what the user typed.
  function syncPage(api, st) {
    const bad = {};
    for (const e of st.errors) {
      bad[e.key] = true;
    }
    const editing = document.activeElement;
    for (const key of Object.keys(inputs)) {
      const c = inputs[key];
      const v = st.params[key];
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
      seed.value = st.seedText;
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
    $('time').textContent = time(st.t) + ' / ' + time(st.end);

    showNumbers(st.numbers);
    $('embed-code').value = embedSnippet(st);
  }

  const numberLabels = {
    conventional: 'completion, conventional butterfly',
    redundant: 'completion, with redundant exchanges',
    critical_conventional: 'last to finish, conventional',
    critical_redundant: 'last to finish, redundant',
    no_jitter: 'completion without jitter',
    mean_conventional: 'mean over trials, conventional',
    mean_redundant: 'mean over trials, redundant',
  };

  function showNumbers(numbers) {
    const dl = $('numbers');
    dl.replaceChildren();
    for (const key of Object.keys(numbers).sort(function (a, b) {
      const order = Object.keys(numberLabels);
      const ia = order.indexOf(a);
      const ib = order.indexOf(b);
      return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || (a < b ? -1 : a > b ? 1 : 0);
    })) {
      const x = numbers[key];
      const dt = document.createElement('dt');
      dt.textContent = numberLabels[key] || key.replace(/_/g, ' ');
      const dd = document.createElement('dd');
      dd.dataset.key = key;
      // Run.Numbers holds times (in seconds or the scene's unit), the processes that set them
      // (critical_*), and counts (P, K, T, trials), which are whole.
      if (key.indexOf('critical') === 0) {
        dd.textContent = 'P' + String(x);
      } else if (Number.isInteger(x)) {
        dd.textContent = String(x);
      } else {
        dd.textContent = time(x);
      }
      dl.appendChild(dt);
      dl.appendChild(dd);
    }
  }

  function embedSnippet(st) {
    const base = location.origin === 'null' ? '' : location.origin;
    const src = base + location.pathname + '?' + st.query + '&embed=1';
    const title = document.title.replace(/"/g, '&quot;');
    return '<iframe src="' + src.replace(/&/g, '&amp;') + '" width="960" height="540" ' +
      'style="border:0" allow="fullscreen" loading="lazy" title="' + title + '"></iframe>';
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
      rec.addEventListener('dataavailable', function (e) {
        if (e.data && e.data.size > 0) {
          chunks.push(e.data);
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
      setTimeout(function () {
        rec.stop();
      }, length * 1000);
    });
  }
})();
