//go:build !(js && wasm)

package main

import (
	"fmt"
	"image"
	"math"
	"runtime"

	"commlab/cmd/internal/budget"
	"commlab/engine/cost"
	"commlab/render"
	"commlab/render/raster"
	"commlab/scene"
)

// cliBudget is the budget of the runs gen-anim builds and of the pictures
// it paints: the commands' (half of the memory this process may use, 10
// minutes; none with -force), in place of the page's. Tests put a fixed
// machine in its place.
var cliBudget = budget.CLI

// What painting and encoding allocate, bytes per pixel of the picture
// (render/raster; measured by TestPictureBytes and TestExportCostBounds):
//   - the RGBA picture (4), the rasteriser's coverage buffer for the
//     largest shape's box, up to the picture (x/image/vector keeps a
//     float32 one, 4 a pixel, for shapes over 512 px a side, and a uint32
//     one of at most 1 MB below that), and the painter's mask (1):
//     pictureBytes, for a PNG and a GIF alike (9.97 measured on a 1024 px
//     square whose shapes cover it, the PNG encoder's 1 MB included);
//   - for a GIF, the last and the current frame's palette indices (2), and
//     every frame it keeps, up to a whole picture at 1 a pixel when
//     everything changed (gifFrameBytes);
//   - per GIF frame, compress/lzw's writer (lzwBytes).
//
// Beside them a frame's display list and what painting it leaves behind
// (dashes, paths, the damage's bookkeeping) are measured on sample frames
// of the run itself (sample), since they depend on the scene.
const (
	pictureBytes  = 9
	gifIndexBytes = 2
	gifFrameBytes = 1
	lzwBytes      = 72 << 10
	fixedBytes    = 4 << 20 // the uint32 coverage buffer, the PNG encoder, fonts, glyphs, the palette's histogram
	// nsPixel and pngNsPixel are the CPU time an export spends on each
	// pixel beside laying out: a GIF per frame (painting, the histogram,
	// the palette indices, the changed rectangle and LZW, 56-66 ns
	// measured), a PNG (painting and deflate, 106-117 ns), on 1536 and
	// 2048 px squares of the butterfly, GOMAXPROCS=1, CPU time by
	// getrusage, 2026-11-27 (load 23).
	nsPixel    = 70
	pngNsPixel = 120
)

// frameCost is what a frame's layout and painting take, from samples:
// bytes allocated, and seconds of this thread's CPU time (Linux; the wall
// clock elsewhere), so that other jobs on the machine do not inflate them.
type frameCost struct {
	onceBytes, onceSecs   float64 // the first layout's caches (a scene keeps the layout of the last size drawn)
	listBytes, listSecs   float64 // laying out one more frame (its display list kept)
	paintBytes, paintSecs float64 // repainting one frame at scale `at` after another, beyond the painter's buffers
	at                    float64 // the scale the samples were painted at
	sampled               bool    // false: no samples, the pictures alone
}

// samplePixels bounds the pictures the samples are painted at: the
// garbage painting leaves grows with the scale at most linearly (arcs'
// steps; dashes do not), so a sample at a small scale, scaled up, bounds
// it without allocating the full picture before the budget is checked.
const samplePixels = 1 << 20

// sample lays out and paints frames of r spread over the run (the start,
// the end and three between, far apart, so each repaint changes much) as
// the GIF does, one painter and one damage tracker for all, and keeps the
// largest cost of each.
func sample(r scene.Run, view scene.View, scale float64) frameCost {
	fc := frameCost{at: min(scale, math.Sqrt(samplePixels/(view.W*view.H))), sampled: true}
	var p raster.Painter
	var d render.Damage
	var img *image.RGBA
	for i := range 5 {
		t := r.End() * float64(i) / 4
		var l render.List
		if i == 0 {
			fc.onceBytes, fc.onceSecs = timed(func() { l = r.Frame(t, view) })
		}
		lb, ls := timed(func() { l = r.Frame(t, view) })
		fc.listBytes, fc.listSecs = max(fc.listBytes, lb), max(fc.listSecs, ls)
		if img == nil {
			b, err := raster.Bounds(l, fc.at)
			if err != nil {
				return fc
			}
			img = image.NewRGBA(b)
			p.Repaint(img, l, fc.at, &d) // the painter's buffers grow once
		}
		pb, ps := timed(func() { p.Repaint(img, l, fc.at, &d) })
		fc.paintBytes, fc.paintSecs = max(fc.paintBytes, pb), max(fc.paintSecs, ps)
	}
	return fc
}

// timed is what f allocates (as cost.Allocated counts it) and the CPU
// time it takes on this thread, the collection before it not counted.
func timed(f func()) (bytes, secs float64) {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	runtime.LockOSThread()
	t0 := cpuClock()
	f()
	secs = (cpuClock() - t0).Seconds()
	runtime.UnlockOSThread()
	runtime.ReadMemStats(&b)
	return float64(b.TotalAlloc - a.TotalAlloc), secs
}

// exportCost is what writing the export of scene o.scene takes beside
// building the run (build): for a GIF (gif) of frames at fps over secs, the display lists
// of every frame (kept until the GIF is encoded), the pictures and the
// frames kept, and painting every frame twice; for a PNG one frame.
func exportCost(build cost.Cost, o options, gif bool, secs float64, fps int, scale float64, fc frameCost) cost.Cost {
	px := math.Ceil(float64(o.w)*scale) * math.Ceil(float64(o.h)*scale)
	grow := max(1, scale/fc.at) // the painting's garbage, up to linear in the scale
	c := build
	c.Bytes += fixedBytes + pictureBytes*px + fc.onceBytes + fc.listBytes + grow*fc.paintBytes
	c.Seconds += fc.onceSecs + fc.listSecs
	frames := 1.0
	if gif {
		frames = math.Ceil(secs*float64(fps)) + 1
		c.Bytes += gifIndexBytes*px + frames*(gifFrameBytes*px+lzwBytes+fc.listBytes+2*grow*fc.paintBytes)
		// Per pixel, or the painting sampled (two passes) where a
		// scene's items cost more than its pixels.
		c.Seconds += frames * (fc.listSecs + max(nsPixel*1e-9*px, 2*grow*grow*fc.paintSecs))
	} else {
		c.Seconds += max(pngNsPixel*1e-9*px, grow*grow*fc.paintSecs)
	}
	size := fmt.Sprintf("%dx%d px", int(math.Ceil(float64(o.w)*scale)), int(math.Ceil(float64(o.h)*scale)))
	if gif {
		c.Why = fmt.Sprintf("-gif: %d frames of %s (%g s at %d a second)", int(frames), size, secs, fps)
	} else {
		c.Why = "-png: a frame of " + size
	}
	if o.scene != "" {
		c.Why += " of scene " + o.scene
	}
	c.Key = "-scale"
	c.Fit = nil
	c.Knobs = func() cost.Knobs {
		ks := []cost.Knob{{Key: "-scale", Now: scale, Down: true, Min: minScale, Max: maxScale}}
		if gif {
			ks = append(ks,
				cost.Knob{Key: "-fps", Now: float64(fps), Down: true, Min: minFPS, Max: maxFPS, Int: true},
				cost.Knob{Key: "-seconds", Now: secs, Down: true, Min: minSecs, Max: maxSecs})
		}
		return cost.Knobs{List: ks, Cost: func(at []float64) (cost.Cost, bool) {
			s, f, sec := at[0], fps, secs
			if gif {
				f, sec = int(at[1]), at[2]
			}
			return exportCost(build, o, gif, sec, f, s, fc), true
		}}
	}
	return c
}
