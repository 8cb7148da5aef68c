//go:build !(js && wasm)

// GIF encoding is left out of the browser's wasm, which exports PNGs and
// WebM but no GIF: linking image/gif would bring its decoder (registered
// by its init) and cost the wasm 16.5 KB gzip (2026-11-25).

package raster

import (
	"bytes"
	"errors"
	"image"
	"image/gif"
	"io"
	"math"
	"time"

	"commlab/internal/errf"
	"commlab/render"
)

// MinGIFDelay is the shortest frame delay EncodeGIF accepts: browsers show
// GIF frames of 0 or 1 centiseconds for 10 centiseconds instead, so 2 (50
// frames a second) is the fastest rate that plays as written.
const MinGIFDelay = 20 * time.Millisecond

// maxGIFDelay is the longest a GIF frame can last (a 16-bit count of
// centiseconds).
const maxGIFDelay = 65535 * 10 * time.Millisecond

// EncodeGIF paints the frames at scale and writes them as an animated GIF
// that loops forever, each frame shown for delay (at least MinGIFDelay).
// See EncodeGIFDelays.
func EncodeGIF(w io.Writer, frames []render.List, delay time.Duration, scale float64) error {
	delays := make([]time.Duration, len(frames))
	for i := range delays {
		delays[i] = delay
	}
	return EncodeGIFDelays(w, frames, delays, scale)
}

// EncodeGIFDelays is EncodeGIF with a delay per frame, e.g. a longer rest
// on the last one so that a looping slide shows the outcome.
//
// All frames share one palette of at most 256 colours, chosen from the
// pixels of every frame: the colours that cover flat areas (a theme's
// background, panels, spans) are kept exactly, and median cut spends the
// rest on the anti-aliased blends between them. Pixels map to their nearest
// palette colour without dithering, so flat areas stay flat. A frame
// identical to the one before it only lengthens that one's delay, and
// otherwise only the rectangle that changed is stored. Delays are rounded
// to centiseconds so that the times add up, not frame by frame. GIF has no
// partial transparency: a pixel less than half opaque becomes transparent,
// any other is shown opaque in its own colour.
//
// Each list is painted twice (once to gather colours, once to encode), so
// that memory holds only the compressed frames, not every picture; after
// the first frame of each pass, only what changed is repainted.
func EncodeGIFDelays(w io.Writer, frames []render.List, delays []time.Duration, scale float64) error {
	if len(frames) == 0 {
		return errors.New("raster: no frames to encode")
	}
	if len(delays) != len(frames) {
		return errf.Errorf("raster: %d delays for %d frames", len(delays), len(frames))
	}
	for i, d := range delays {
		if d < MinGIFDelay || d > maxGIFDelay {
			return errf.Errorf("raster: frame %d: delay %v, want %v to %v", i, d, MinGIFDelay, maxGIFDelay)
		}
	}
	r, err := Bounds(frames[0], scale)
	if err != nil {
		return err
	}
	if r.Dx() > math.MaxUint16 || r.Dy() > math.MaxUint16 {
		return errf.Errorf("raster: a GIF is at most %d pixels a side, not %dx%d", math.MaxUint16, r.Dx(), r.Dy())
	}
	for i, f := range frames[1:] {
		if fr, err := Bounds(f, scale); err != nil || fr != r {
			return errf.Errorf("raster: frame %d is %v at scale %v, frame 0 is %v; all frames must be one size", i+1, fr.Size(), scale, r.Size())
		}
	}

	p := pool.Get().(*Painter)
	defer pool.Put(p)
	img := image.NewRGBA(r)
	// Each pass repaints only what changed from one frame to the next: the
	// same pixels as painting every frame afresh, at a fraction of the cost.
	var damage render.Damage
	paint := func(l render.List) { p.Repaint(img, l, scale, &damage) }

	h := newHistogram()
	for _, f := range frames {
		paint(f)
		h.add(img)
	}
	damage.Reset()
	q := newQuantizer(h, len(frames) > 1)

	g := &gif.GIF{Config: image.Config{ColorModel: q.palette, Width: r.Dx(), Height: r.Dy()}}
	var at time.Duration     // time from the start to the end of frame i
	var ends []time.Duration // end time of each stored frame
	prev, cur := make([]uint8, r.Dx()*r.Dy()), make([]uint8, r.Dx()*r.Dy())
	for i, f := range frames {
		paint(f)
		q.index(cur, img)
		at += delays[i]
		var changed image.Rectangle
		if i == 0 || q.hasTransparent {
			// Frames with transparency are stored whole and cleared after
			// showing, since a transparent pixel cannot cover the last one.
			changed = r
		} else {
			changed = diff(prev, cur, r.Dx())
		}
		if changed.Empty() {
			ends[len(ends)-1] = at
			continue
		}
		pm := image.NewPaletted(changed, q.palette)
		for y := changed.Min.Y; y < changed.Max.Y; y++ {
			row := pm.Pix[pm.PixOffset(changed.Min.X, y):][:changed.Dx()]
			off := y*r.Dx() + changed.Min.X
			copy(row, cur[off:off+changed.Dx()])
			if i > 0 && !q.hasTransparent {
				// Pixels as they were are left transparent: long runs of
				// one index, which LZW codes in a few bits.
				for x, v := range prev[off : off+changed.Dx()] {
					if row[x] == v {
						row[x] = q.transparent
					}
				}
			}
		}
		disposal := byte(gif.DisposalNone)
		if q.hasTransparent {
			disposal = gif.DisposalBackground
		}
		g.Image = append(g.Image, pm)
		g.Disposal = append(g.Disposal, disposal)
		ends = append(ends, at)
		prev, cur = cur, prev
	}
	var shown int // centiseconds written so far
	for _, end := range ends {
		cs := int(math.Round(end.Seconds()*100)) - shown
		if cs > 65535 {
			return errf.Errorf("raster: a still stretch of %d centiseconds is longer than a GIF frame can last (65535)", cs)
		}
		g.Delay = append(g.Delay, cs)
		shown += cs
	}
	return gif.EncodeAll(w, g)
}

// diff is the smallest rectangle holding every pixel where a and b differ
// (images of width w), or the empty rectangle.
func diff(a, b []uint8, w int) image.Rectangle {
	h := len(a) / w
	y0 := 0
	for y0 < h && bytes.Equal(a[y0*w:(y0+1)*w], b[y0*w:(y0+1)*w]) {
		y0++
	}
	if y0 == h {
		return image.Rectangle{}
	}
	y1 := h
	for bytes.Equal(a[(y1-1)*w:y1*w], b[(y1-1)*w:y1*w]) {
		y1--
	}
	x0, x1 := w, 0
	for y := y0; y < y1; y++ {
		ra, rb := a[y*w:(y+1)*w], b[y*w:(y+1)*w]
		for x := 0; x < x0; x++ {
			if ra[x] != rb[x] {
				x0 = x
				break
			}
		}
		for x := w - 1; x >= x1; x-- {
			if ra[x] != rb[x] {
				x1 = x + 1
				break
			}
		}
	}
	return image.Rect(x0, y0, x1, y1)
}
