//go:build !(js && wasm)

// PNG encoding is left out of the browser's wasm: the page paints with
// Image and has the canvas encode the PNG (wasm/png.go), since linking
// image/png would bring its decoder (registered by its init) too.

package raster

import (
	"image/png"
	"io"

	"commlab/render"
)

// EncodePNG paints l at scale and writes it as a PNG (8-bit RGB when the
// picture is opaque, as it is over a theme's background).
func EncodePNG(w io.Writer, l render.List, scale float64) error {
	if _, err := Bounds(l, scale); err != nil {
		return err
	}
	return png.Encode(w, Image(l, scale))
}
