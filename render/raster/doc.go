// Package raster is the software backend of render.List: it paints a
// display list into an *image.RGBA in pure Go (golang.org/x/image/vector for
// coverage, the faces of render/font for text), with no cgo and no display,
// so the same pictures the browser shows can be made natively: golden images
// in tests, PNG frames and animated GIFs for slides (cmd/gen-anim; GIF is
// left out of the js/wasm build, see gif.go), and the
// page's PNG export inside the wasm binary (its pixels: the browser
// encodes them there, see encode.go).
//
// It follows the canvas conventions the browser backend inherits, so that
// both backends draw one picture: shapes are anti-aliased by exact area
// coverage; strokes are centred on the path, with butt ends (a dash is as
// long as render.Dashes cut it), mitred joins on polylines and mitred
// rectangle corners; dash patterns are cut by render.Dashes, so they restart
// at each segment, each rectangle edge and, for circles, at three o'clock
// going clockwise; colours are premultiplied and composited source-over.
// Grid cells are sampled at pixel centres (nearest neighbour), so a
// heat-strip's cells stay sharp at any scale.
//
// Malformed items (no finite geometry, a grid whose cells do not match its
// size) paint nothing rather than fail, and a shape reaching more than two
// million pixels off the canvas is skipped: layouts are code, and one bad
// item should not cost the frame. A dash pattern that would repeat more than
// 65536 times along one segment is drawn solid, which is how it looks.
//
// A Painter keeps its rasteriser buffers, font faces and rendered glyphs
// between lists; the package-level Draw, Image, EncodePNG and EncodeGIF
// borrow one from a pool. Golden images live in testdata/ and are refreshed
// with `go test ./render/raster -update`.
package raster
