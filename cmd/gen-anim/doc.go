//go:build !(js && wasm)

// Native only: render/raster leaves GIF encoding out of the js/wasm build.

// Command gen-anim exports a scene natively, for slides and for the site's
// index: a PNG of one frame, an animated GIF of the whole run, one
// thumbnail per scene, or the start page itself (site/index.html, its
// cards from each scene's Info). It lays out the same display lists the browser shows
// (from the scenes in scene/catalog) and paints them with the software
// rasteriser (render/raster), so an exported picture matches the page.
//
//	gen-anim -query 'P=16&T=2&seed=3' -png frame.png -at-end
//	gen-anim -scene jitter -theme dark -gif run.gif -fps 20 -scale 2
//	gen-anim -thumbs site/thumbs        # make thumbs
//	gen-anim -index site/index.html     # the start page
//	gen-anim -query 'P=64' -png - > frame.png
//
// -query takes a page's URL query as it is (the part after "?" of any
// scene page's address), so a view tuned in the browser can be exported
// exactly; unlike the page, a bad value is an error here, not a fallback.
// The GIF plays the run from start to end over scene.PlaySeconds divided by
// the query's speed (or -seconds), at -fps frames a second, then rests on
// the last frame for scene.LoopHold before it loops, as the page does with
// loop=1. Thumbnails are each scene's last frame at its defaults, laid out
// at the page's 960x540 and painted at half scale: 480x270 pixels. Beside
// them -thumbs writes the scene page's stills, NAME.still-THEME.png for
// each theme: the page's opening view at the defaults (its Moment, else
// its end) at 960x540 pixels, which site/boot.js shows while the wasm
// starts.
//
// The layout size is -width and -height; -h prints the usage. Files are
// written through internal/outfile: a regular file through a temporary file
// beside it, renamed when complete (a failure never leaves a partial file;
// Ctrl-C removes the temporary one), a symlink's target, a FIFO or device
// written through, and "-" as stdout.
//
// A run and its export are checked against the commands' budget before
// anything is built or written (cmd/internal/budget; -force lifts it): the
// scene's estimate, then the pictures, the frames a GIF keeps and every
// frame's display list, measured on sample frames of the run
// (exportCost). Every failure, bad input, a refusal or a write that fails,
// exits with status 2 and one line, as gen-report's do; bad flags are
// named with what they accept.
package main
