// boot.js starts the scene page before anything else on it can: it is the
// first thing in the body, a small script the parser runs at once, so that
//   - commlab.wasm is fetched and compiled from the page's first
//     milliseconds (WebAssembly.compileStreaming compiles as the bytes
//     arrive; scene.js instantiates the module once wasm_exec.js, deferred,
//     has defined Go), instead of after the deferred scripts have run;
//   - the scene's still, its opening view at its defaults drawn by
//     `gen-anim -thumbs` (thumbs/NAME.still-THEME.png), is on the stage
//     while the wasm starts, until the first live frame covers it (scene.js
//     takes it away then);
//   - embed mode and the theme hold from the first paint.
// It leaves what it started in window.commlabBoot for scene.js.
'use strict';

(function () {
  const params = new URLSearchParams(location.search);
  const truthy = { '1': true, 'true': true, 'on': true, 'yes': true };
  const embed = truthy[(params.get('embed') || '').trim().toLowerCase()] === true;
  if (embed) {
    document.body.classList.add('embed');
  }
  // The page's colours follow the scene's theme from the first paint (the
  // wasm confirms or corrects it once it has read the URL).
  const theme = (params.get('theme') || '').trim();
  if (theme === 'dark' || theme === 'light') {
    document.documentElement.dataset.theme = theme;
  }

  const mark = function (name) {
    if (performance.mark) {
      performance.mark(name);
    }
  };

  // A rejected promise nobody has looked at yet would be reported as
  // unhandled before scene.js runs: scene.js takes the outcome from
  // `compiled`, which never rejects.
  mark('commlab:fetch');
  const compiled = WebAssembly.compileStreaming(fetch('commlab.wasm').then(function (resp) {
    mark('commlab:response');
    if (!resp.ok) {
      throw new Error('commlab.wasm: HTTP ' + resp.status + '; build it with `make wasm`');
    }
    return resp;
  })).then(function (module) {
    mark('commlab:compiled');
    return { module: module };
  }, function (err) {
    return { error: err };
  });

  window.commlabBoot = { compiled: compiled, still: still() };

  // still puts the scene's still on the stage and returns it, or null when
  // the URL asks for a view the still does not show: any parameter, seed
  // or playhead (the still is the defaults' opening view), a scene the
  // site does not ship, a theme there is no still for. STILLS lists the
  // scenes in scene/catalog's order (the first is the page's default);
  // the browser test TestStill fails when it misses one.
  function still() {
    const STILLS = ['butterfly', 'jitter', 'logp', 'tcc', 'mmdl', 'overlay', 'schedule'];
    const VIEW = { scene: true, embed: true, autoplay: true, loop: true, speed: true, scale: true, theme: true };
    for (const key of params.keys()) {
      if (!VIEW[key]) {
        return null;
      }
    }
    const name = params.has('scene') ? params.get('scene') : STILLS[0];
    if (STILLS.indexOf(name) < 0 || (params.has('theme') && theme !== 'light' && theme !== 'dark')) {
      return null;
    }
    const img = document.createElement('img');
    img.id = 'still';
    img.className = 'still';
    img.alt = '';
    img.decoding = 'async';
    img.setAttribute('aria-hidden', 'true');
    // Element timing: the bench reads when the still was painted.
    img.setAttribute('elementtiming', 'commlab-still');
    img.addEventListener('error', function () { img.remove(); });
    img.src = 'thumbs/' + name + '.still-' + (theme || 'light') + '.png';
    document.body.prepend(img);
    return img;
  }
})();
