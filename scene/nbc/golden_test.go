package nbc

import (
	"flag"
	"fmt"
	"path/filepath"
	"testing"

	"commlab/render"
	"commlab/render/raster"
	"commlab/render/raster/rastertest"
	"commlab/scene"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// goldenCases: the defaults while the main thread is blocked on the full
// queue (light and dark), TCC finished, LibNBC's timeline mid-run, and
// both on one axis.
var goldenCases = []struct {
	set  map[string]string
	th   render.Theme
	at   func(r *run) float64
	name string
}{
	{nil, render.Light(), blockedAt, "tcc-blocked-light.png"},
	{nil, render.Dark(), blockedAt, "tcc-blocked-dark.png"},
	{nil, render.Light(), func(r *run) float64 { return r.End() }, "tcc-end-light.png"},
	{map[string]string{"view": "nbcf"}, render.Dark(), func(r *run) float64 { return r.End() / 2 }, "nbcf-dark.png"},
	{map[string]string{"view": "both"}, render.Light(), func(r *run) float64 { return r.End() * 0.6 }, "both-light.png"},
}

// blockedAt is a time when the main thread waits for a slot: halfway
// through the last blocked enqueue.
func blockedAt(r *run) float64 {
	t := 0.0
	for _, h := range r.tl[iTCC].handles {
		if h.block >= 0 {
			t = (h.block + h.enqueue) / 2
		}
	}
	return t
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			r := build(t, c.set)
			got := raster.Image(r.Frame(c.at(r), scene.View{W: 960, H: 540, Theme: c.th}), 1)
			rastertest.Golden(t, filepath.Join("testdata", c.name), got, *update, "go test ./scene/nbc -run Golden -update")
		})
	}
}

// TestGoldenNotBlank guards the goldens themselves: the blocked frame
// paints many pixels in the colours it is about (the
// blocked hatch, the running collective, the done flag, the wire), so a
// golden regenerated from a broken layout cannot pass unnoticed.
func TestGoldenNotBlank(t *testing.T) {
	r := build(t, nil)
	for _, th := range []render.Theme{render.Light(), render.Dark()} {
		img := raster.Image(r.Frame(blockedAt(r), scene.View{W: 960, H: 540, Theme: th}), 1)
		counts := map[string]int{}
		for name, c := range map[string][4]uint8{
			"stall": rgba(th.Stall), "running": rgba(th.Redundant), "done": rgba(th.Receive), "ink": rgba(th.Ink),
		} {
			for y := range 540 {
				for x := range 960 {
					i := img.PixOffset(x, y)
					if near([4]uint8(img.Pix[i:i+4]), c) {
						counts[name]++
					}
				}
			}
		}
		for name, n := range counts {
			if n < 50 {
				t.Errorf("%s: %d pixels in the %s colour, want at least 50 (%v)", th.Name, n, name, fmt.Sprint(counts))
			}
		}
	}
}

// near: within a few levels per channel, so thin anti-aliased strokes
// (the hatching) count where their centre falls on a pixel.
func near(a, b [4]uint8) bool {
	for i := range a {
		if d := int(a[i]) - int(b[i]); d > 24 || d < -24 {
			return false
		}
	}
	return true
}

func rgba(c interface{ RGBA() (r, g, b, a uint32) }) [4]uint8 {
	r, g, b, a := c.RGBA()
	return [4]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}
