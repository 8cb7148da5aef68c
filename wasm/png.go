//go:build js && wasm

package main

import (
	"bytes"

	"commlab/render/raster"
)

// png encodes the current frame with the Go rasteriser, the renderer of
// the golden images and the native exports, from the same display list the
// canvas shows, at scale output pixels per CSS pixel.
func (g *game) png(scale float64) ([]byte, error) {
	g.mu.Lock()
	l := g.app.Frame(g.w, g.h)
	g.mu.Unlock()
	var b bytes.Buffer
	if err := raster.EncodePNG(&b, l, scale); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
