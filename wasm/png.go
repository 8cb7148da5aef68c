//go:build js && wasm

package main

import (
	"encoding/base64"
	"strings"
	"syscall/js"

	"commlab/internal/errf"
	"commlab/render/raster"
)

// pngPrefix starts the data URL of a PNG.
const pngPrefix = "data:image/png;base64,"

// pngDataURL paints the current frame with the Go rasteriser, the renderer
// of the golden images and the native exports, from the same display list
// the canvas shows, at scale output pixels per CSS pixel, and has the
// browser encode it (canvas.toDataURL): the pixels are the rasteriser's,
// and the wasm links no PNG encoder (image/png, with the decoder its init
// registers, cost it 34 KB gzip, 2026-11-25). A frame is opaque (the theme's
// background is painted first), and an opaque pixel passes through the
// canvas unchanged, so the PNG holds the picture EncodePNG writes natively.
func (g *game) pngDataURL(scale float64) (string, error) {
	g.mu.Lock()
	l := g.app.Frame(g.w, g.h)
	g.mu.Unlock()
	if _, err := raster.Bounds(l, scale); err != nil {
		return "", err
	}
	img := raster.Image(l, scale)
	w, h := img.Rect.Dx(), img.Rect.Dy()
	c := js.Global().Get("document").Call("createElement", "canvas")
	c.Set("width", w)
	c.Set("height", h)
	ctx := c.Call("getContext", "2d")
	if ctx.IsNull() {
		return "", errf.Errorf("the browser gives no 2D canvas of %dx%d pixels to encode the PNG", w, h)
	}
	data := ctx.Call("createImageData", w, h)
	js.CopyBytesToJS(data.Get("data"), straightRGBA(img))
	ctx.Call("putImageData", data, 0, 0)
	u := c.Call("toDataURL", "image/png").String()
	if !strings.HasPrefix(u, pngPrefix) {
		// A canvas the browser cannot encode (too large) gives "data:,".
		return "", errf.Errorf("the browser could not encode a %dx%d PNG", w, h)
	}
	return u, nil
}

// png is pngDataURL's PNG as bytes, for the download.
func (g *game) png(scale float64) ([]byte, error) {
	u, err := g.pngDataURL(scale)
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(u[len(pngPrefix):])
}
