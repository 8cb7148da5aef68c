// scene.js starts commlab's visualizer: it fetches commlab.wasm, runs it with
// the Go runtime glue from wasm_exec.js, and hides the loading note once the
// program announces window.commlab with the "commlab-ready" event. Failures
// go to the page and to the console, where the browser tests look for them.
'use strict';

(function () {
  const status = document.getElementById('status');

  function fail(message) {
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
})();
