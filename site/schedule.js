// schedule.js brings GOAL files into the "schedule" scene: a file picker
// and drag and drop on the page, and same-origin URLs (?goal=PATH for side
// A, ?goal2=PATH for side B; a page URL the visualizer wrote, with
// file=url:PATH, reloads the same way). It adds commlab.loadGOAL(text,
// name, slot) to the API: the wasm parses the text (errors name the line
// and column) and the file becomes a choice of the file field `slot`
// ("file", the default, or "file2"), which is then selected. Noise traces
// (LogGOPSim's "start<TAB>duration" lines, ns) come in the same ways, by
// the panel's third picker or a drop (told apart from GOAL by their
// first line, a number), through commlab.loadNoiseTrace(text, name): the
// trace becomes a choice of noise_trace and is selected.
//
// It runs before scene.js (both deferred, in document order), so that it
// can take the URL parameters the wasm does not know out of the address
// before the wasm reads it.
'use strict';

(function () {
  const params = new URLSearchParams(location.search);
  if (params.get('scene') !== 'schedule') {
    return;
  }

  // Same-origin paths to load once the API is up, by slot.
  const pending = [];
  function takeURL(key, slot) {
    let v = params.get(key);
    if (v === null) {
      return;
    }
    if (key.startsWith('file')) {
      if (!v.startsWith('url:')) {
        return;
      }
      v = v.slice(4);
    }
    params.delete(key);
    pending.push({ path: v, slot: slot });
  }
  takeURL('goal', 'file');
  takeURL('file', 'file');
  takeURL('goal2', 'file2');
  takeURL('file2', 'file2');
  if (pending.length > 0) {
    history.replaceState(null, '', '?' + params.toString());
  }

  let note = null; // the panel's message line

  function say(msg, bad) {
    if (note) {
      note.textContent = msg;
      note.classList.toggle('error', !!bad);
    }
  }

  function loadGOAL(text, name, slot, kind) {
    slot = slot === 'file2' ? 'file2' : 'file';
    if (typeof window.commlabLoadGOAL !== 'function') {
      return { ok: false, key: '', errors: [{ key: slot, message: 'the visualizer is not running' }] };
    }
    const r = window.commlabLoadGOAL(String(text), String(name || 'loaded.goal'), kind || 'upload');
    if (!r.ok) {
      say(r.error, true);
      return { ok: false, key: '', errors: [{ key: slot, message: r.error }] };
    }
    const select = document.getElementById('field-' + slot);
    if (select && select.tagName === 'SELECT' && !Array.from(select.options).some(function (o) { return o.value === r.key; })) {
      const o = document.createElement('option');
      o.value = r.key;
      o.textContent = r.key;
      select.appendChild(o);
    }
    const change = {};
    change[slot] = r.key;
    if (slot === 'file2') {
      change.compare = 'file';
    }
    const res = window.commlab.setParams(change);
    report(res, 'loaded ' + r.key);
    return { ok: res.ok, key: r.key, errors: res.errors, done: res.done };
  }

  // report says how a setParams went: at once, or, for a schedule big
  // enough to build in steps, "building" and then its outcome.
  function report(res, loaded) {
    const failed = function (errs) { return errs.map(function (e) { return e.message; }).join('; '); };
    if (!res.ok) {
      say(failed(res.errors), true);
      return;
    }
    if (!res.building) {
      say(loaded, false);
      return;
    }
    say(loaded + ': building…', false);
    res.done.then(function (fin) {
      if (fin.canceled) {
        say(loaded + ': build canceled', true);
      } else {
        say(fin.ok ? loaded : failed(fin.errors), !fin.ok);
      }
    });
  }

  function loadNoiseTrace(text, name) {
    if (typeof window.commlabLoadNoiseTrace !== 'function') {
      return { ok: false, key: '', errors: [{ key: 'noise_trace', message: 'the visualizer is not running' }] };
    }
    const r = window.commlabLoadNoiseTrace(String(text), String(name || 'noise.txt'));
    if (!r.ok) {
      say(r.error, true);
      return { ok: false, key: '', errors: [{ key: 'noise_trace', message: r.error }] };
    }
    const select = document.getElementById('field-noise_trace');
    if (select && select.tagName === 'SELECT' && !Array.from(select.options).some(function (o) { return o.value === r.key; })) {
      const o = document.createElement('option');
      o.value = r.key;
      o.textContent = r.key;
      select.appendChild(o);
    }
    const res = window.commlab.setParams({ noise_trace: r.key });
    report(res, 'loaded noise trace ' + r.key);
    return { ok: res.ok, key: r.key, errors: res.errors, done: res.done };
  }

  // isNoiseTrace tells a noise trace from a GOAL file: its first line
  // that is not blank or a # comment starts with a number, where GOAL
  // starts with num_ranks or a // or /* comment.
  function isNoiseTrace(text) {
    const lines = String(text).replace(/^\uFEFF/, '').split('\n', 64);
    for (const l of lines) {
      const t = l.trim();
      if (t === '' || t[0] === '#') {
        continue;
      }
      return /^[0-9.]/.test(t);
    }
    return false;
  }

  function fetchPath(p) {
    let u;
    try {
      u = new URL(p.path, location.href);
    } catch (e) {
      say('goal=' + p.path + ': not a URL', true);
      return Promise.resolve();
    }
    if (u.origin !== location.origin) {
      say('goal=' + p.path + ': only files from this site (' + location.origin + ') can be loaded', true);
      return Promise.resolve();
    }
    return fetch(u.href)
      .then(function (resp) {
        if (!resp.ok) {
          throw new Error('HTTP ' + resp.status);
        }
        return resp.text();
      })
      .then(function (text) {
        loadGOAL(text, u.pathname, p.slot, 'url');
      })
      .catch(function (err) {
        say(u.pathname + ': ' + err.message, true);
      });
  }

  // readFile loads a picked or dropped file into slot: "file" or "file2"
  // (a GOAL file), "noise_trace", or "drop" (a noise trace if it looks
  // like one, else a GOAL file for side A, or B with Shift).
  function readFile(file, slot, shift) {
    file.text().then(function (text) {
      if (slot === 'noise_trace' || (slot === 'drop' && isNoiseTrace(text))) {
        loadNoiseTrace(text, file.name);
        return;
      }
      if (slot === 'drop') {
        slot = shift ? 'file2' : 'file';
      }
      loadGOAL(text, file.name, slot, 'upload');
    }, function (err) {
      say(file.name + ': ' + err.message, true);
    });
  }

  function buildPanel() {
    const panel = document.getElementById('panel');
    if (!panel || document.body.classList.contains('embed')) {
      return;
    }
    const sec = document.createElement('section');
    sec.id = 'goal-files';
    const h = document.createElement('h2');
    h.textContent = 'GOAL files';
    sec.appendChild(h);
    const labels = { file: 'open (A)', file2: 'open (B)', noise_trace: 'noise trace' };
    for (const slot of ['file', 'file2', 'noise_trace']) {
      const div = document.createElement('div');
      div.className = 'field';
      const label = document.createElement('label');
      label.htmlFor = 'goal-' + slot;
      label.textContent = labels[slot];
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'goal-' + slot;
      input.accept = slot === 'noise_trace' ? '.txt,.dat,.trace,.tsv,text/plain' : '.goal,.txt,text/plain';
      input.addEventListener('change', function () {
        if (input.files.length > 0) {
          readFile(input.files[0], slot);
        }
      });
      div.append(label, input);
      sec.appendChild(div);
    }
    const help = document.createElement('p');
    help.className = 'note';
    help.textContent = 'Or drop a .goal file on the page (Shift for side B), or add ?goal=PATH to the address for a file on this site. ' +
      'A noise trace (LogGOPSim\'s start<TAB>duration lines, ns) dropped or picked stretches every rank\'s CPU work, at a seeded offset per rank or, with trace co-scheduled, at one offset.';
    note = document.createElement('p');
    note.className = 'note';
    note.setAttribute('role', 'status');
    sec.append(help, note);
    const params = document.getElementById('h-params');
    const after = params ? params.closest('section') : null;
    if (after && after.nextSibling) {
      panel.insertBefore(sec, after.nextSibling);
    } else {
      panel.appendChild(sec);
    }
  }

  document.addEventListener('dragover', function (e) {
    if (e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files')) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    }
  });
  document.addEventListener('drop', function (e) {
    if (!e.dataTransfer || e.dataTransfer.files.length === 0) {
      return;
    }
    e.preventDefault();
    readFile(e.dataTransfer.files[0], 'drop', e.shiftKey);
  });

  window.addEventListener('commlab-ready', function () {
    window.commlab.loadGOAL = loadGOAL;
    window.commlab.loadNoiseTrace = loadNoiseTrace;
    // After scene.js has built the controls (its listener runs after this
    // one), so that a loaded file's option lands in the file select.
    setTimeout(function () {
      buildPanel();
      pending.reduce(function (p, item) { return p.then(function () { return fetchPath(item); }); }, Promise.resolve());
    }, 0);
  }, { once: true });
})();
