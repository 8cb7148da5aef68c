// Command wasm is commlab's browser visualizer: one Ebiten game compiled to
// js/wasm that plays any scene of scene/catalog on the page's canvas, and
// window.commlab, the JavaScript API the page, embedding pages and the
// browser tests use.
//
// Build it with `make wasm` (GOOS=js GOARCH=wasm) and open
// site/scene.html?scene=NAME through `make serve`. Every file that imports
// Ebiten or syscall/js carries the build constraint js && wasm, because
// Ebiten's native build needs cgo and a display; the rest (the view's state
// and what each call does to it, the conversion of JavaScript values, the
// key map, the glyph atlas) is plain Go, tested natively.
//
// The URL holds the whole view (scene.State): it is read once at start,
// with every bad value reported and replaced by its default, and rewritten
// with history.replaceState after every change (at most once a second
// while playing), so reloading the address bar reproduces the view.
//
// # window.commlab
//
// All calls return at once. "commlab-ready" is sent on window when the
// API exists, "commlab-first-frame" once, when the first frame is painted
// (performance marks commlab:* time the start, see docs/visualizer.md),
// "commlab-state" whenever the state changes (at most ten times a second
// while only the playhead moves or a run builds), and "commlab-built" when
// a build that setParams (or the URL) started has ended and its outcome is
// on the page (event.detail {ok, errors, canceled}).
//
// # Builds in steps
//
// A run is built in a goroutine that pauses for one turn of the browser's
// event loop (a message to itself, which hands the thread back to the
// browser) whenever it has worked 12 ms and reaches one of the model's
// checkpoints (engine/progress: between trials, stages, chunks of the
// trace sort), so the page keeps its frames and events while a run of
// seconds builds, and a hidden tab's build is not slowed by timer
// throttling (which applies to timers, not messages; not measured here:
// the browser tests run with background throttling off). The run shown stays on the
// canvas and keeps playing until the new one is ready, unless the two
// would not fit the page's memory budget together (their estimates
// against cost.Page's 500 MB): then the run shown is released before the
// build starts, its last frame staying drawn, not playing, with a notice,
// so the page's peak stays within the budget; if that build fails or is
// canceled, the released run is built again (room.go); state().building
// and state().progress say how far it is, the page shows a bar and a
// cancel button. A build that ends within its first slice (nearly all)
// is applied before setParams returns, as when builds were synchronous.
// A heavy URL shows the scene's defaults while it builds. The numbers do
// not depend on the pauses: same seed, same numbers.
//
//	version()        string, never empty
//	scenes()         [{name, title, paper, summary, time_unit, seed, places}];
//	                 places: [{page, anchor, label, href}], the report figures
//	                 and findings the scene illustrates (scene/catalog.Places),
//	                 href relative to the reports' directory
//	fields()         the scene's fields: {key, label, unit, help, type, min, max,
//	                 open_min, pow2, log, choices, default, want, depends_on};
//	                 a field that follows others has its default for the
//	                 current values and range_min, range_max, range_why
//	state()          {scene, params {key: canonical text}, seed, seedText, t, end,
//	                 timeText, endText, steps, playing, speed, speeds,
//	                 playSeconds, theme, themes, embed, autoplay, loop, scale,
//	                 visible, query, numbers {key: value}, results [{key, label,
//	                 value, unit, text}], notices [{key, message}], errors [{key,
//	                 value, want, message}], frames, draws, baseDraws (draws
//	                 that repainted a base layer), firstFrameMs,
//	                 layoutMs, paintMs, width, height, run (counts runs built),
//	                 building, progress (0..1), pending (null, or {params,
//	                 seed, seedText} being built; query holds them), buildMs,
//	                 paper ([] off the paper's points, else [{what, by, paper,
//	                 paperText, source, ours, oursSE, oursText, unit, note}]:
//	                 the paper's number beside the run's, scene.PaperPoint)}
//	setParams(obj)   {ok, errors, done} or, while the run builds, {ok: true,
//	                 errors: [], building: true, done}: done is a Promise of
//	                 the final {ok, errors, canceled}. Fields and seed, theme,
//	                 speed, loop, autoplay, t; numbers, booleans or strings
//	                 (anything else, a BigInt included, is an error naming the
//	                 key); all or nothing; fields that depend on a changed one
//	                 follow (scene.Follow). During a build, a change starts
//	                 from the values being built; one that needs another run
//	                 cancels the build in flight (its done: canceled)
//	cancel()         stops the build in flight, keeping the run shown:
//	                 {ok, errors, canceled (whether there was one)}
//	setVisible(on)   stops (false) or resumes drawing and the playhead
//	play(), pause(), toggle(), faster(), slower(), restart(), step(dir)
//	seek(t)          {ok, errors}
//	pngDataURL(s?)   the current frame as a PNG data URL, from the Go rasteriser
//	                 (render/raster) at s pixels per CSS pixel (default 1; s must
//	                 lie in [0.25, 8], else null)
//	exportPNG(s?)    downloads it (default scale 2, for slides); {ok, errors}
//	traceJSON()      the run as Chrome trace JSON (Perfetto opens it)
//	exportTrace()    downloads it
//	recordWebM(sec?) added by scene.js: records a play-through from the canvas
//
// The keyboard works on the page and in an iframe that has focus: space
// plays or pauses, the arrows step, + and - change the speed, Home restarts.
package main
