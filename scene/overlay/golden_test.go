package overlay

import (
	"flag"
	"image/color"
	"path/filepath"
	"testing"

	"commlab/render"
	"commlab/render/raster"
	"commlab/render/raster/rastertest"
	"commlab/scene"
	"commlab/scene/scenetest"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// evictionAt is a moment with an eviction fading and relays on the wire:
// a little after the middle eviction of the run.
func evictionAt(r *run) float64 {
	return r.h.evicts[len(r.h.evicts)/2] + 0.01*r.End()
}

// goldenCases: the defaults during an eviction (light and dark) and at
// the end, "all" mid-run and "random" with a large cache.
var goldenCases = []struct {
	set  map[string]string
	th   render.Theme
	at   func(r *run) float64
	name string
}{
	{nil, render.Light(), evictionAt, "evict-light.png"},
	{nil, render.Dark(), evictionAt, "evict-dark.png"},
	{nil, render.Light(), func(r *run) float64 { return r.End() }, "end-light.png"},
	{map[string]string{"policy": "all"}, render.Light(), func(r *run) float64 { return r.End() * 0.4 }, "all-light.png"},
	{map[string]string{"policy": "random", "cache": "16"}, render.Dark(), func(r *run) float64 { return r.End() * 0.3 }, "random-c16-dark.png"},
	// Membership: a node joins switch 2 and node 3 leaves; the join's
	// last RTT measured, then the leave's connections fading out and the
	// replacements in their handshake.
	{map[string]string{"join": "1", "leave": "3"}, render.Light(), func(r *run) float64 { return (r.mb.probeAt[2] + r.mb.placedAt) / 2 }, "join-light.png"},
	{map[string]string{"join": "1", "leave": "3"}, render.Dark(), func(r *run) float64 { return r.mb.leaveAt + 0.3*evictFade*r.res.Time }, "leave-dark.png"},
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			r := build(t, c.set)
			got := raster.Image(r.Frame(c.at(r), scene.View{W: 960, H: 540, Theme: c.th}), 1)
			rastertest.Golden(t, filepath.Join("testdata", c.name), got, *update, "go test ./scene/overlay -run Golden -update")
		})
	}
}

// TestGoldenNotBlank guards the goldens themselves: the eviction frame
// paints many pixels in the colours it is about (shortcuts, the evicted
// one, relayed messages, static connections), so a golden regenerated
// from a broken layout cannot pass unnoticed.
func TestGoldenNotBlank(t *testing.T) {
	r := build(t, nil)
	for _, th := range []render.Theme{render.Light(), render.Dark()} {
		img := raster.Image(r.Frame(evictionAt(r), scene.View{W: 960, H: 540, Theme: th}), 1)
		scenetest.NotBlank(t, img, map[string]color.Color{
			"shortcut": th.Adopted, "evicted": th.Stall, "relay": th.Redundant,
			"static": render.Mix(th.Panel, th.Compute, staticTint), "ink": th.Ink,
		}, 24, 50, th.Name)
	}
}
