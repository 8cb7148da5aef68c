// Command gen-anim exports a scene natively, for slides and for the site's
// index: a PNG of one frame, an animated GIF of the whole run, or one
// thumbnail per scene. It lays out the same display lists the browser shows
// (from the scenes in scene/catalog) and paints them with the software
// rasteriser (render/raster), so an exported picture matches the page.
//
//	gen-anim -query 'P=16&T=2&seed=3' -png frame.png -at-end
//	gen-anim -scene jitter -theme dark -gif run.gif -fps 20 -scale 2
//	gen-anim -thumbs site/thumbs        # make thumbs
//
// -query takes a page's URL query as it is (the part after "?" of any
// scene page's address), so a view tuned in the browser can be exported
// exactly; unlike the page, a bad value is an error here, not a fallback.
// The GIF plays the run from start to end over scene.PlaySeconds divided by
// the query's speed (or -seconds), at -fps frames a second, then rests on
// the last frame for scene.LoopHold before it loops, as the page does with
// loop=1. Thumbnails are each scene's last frame at its defaults, laid out
// at the page's 960x540 and painted at half scale: 480x270 pixels.
//
// Every file is written to a temporary file beside it and renamed when
// complete, so a failure never leaves a partial file. Bad flags exit with
// status 2 and one line naming the flag and what it accepts; other failures
// exit with status 1.
package main
