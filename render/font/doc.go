// Package font is the one typeface every commlab backend draws text with:
// the Go fonts (golang.org/x/image/font/gofont, BSD licence), embedded, so
// that the browser canvas, exported PNG/GIF frames and golden images show
// the same glyphs, and layouts can measure text natively before any backend
// exists. Go Regular was drawn for legibility on screens; at the 14–16 px
// the scenes use for labels it stays readable on a 1280x720 projector.
//
// The embedded files keep only Repertoire, the characters the scenes draw
// (internal/subset writes them; go generate rebuilds them), which is what
// keeps the browser's wasm within its size budget. Their name tables carry
// the Go fonts' copyright and licence notice.
package font
