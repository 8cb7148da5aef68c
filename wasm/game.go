//go:build js && wasm

package main

import (
	"math"
	"sync"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"commlab/render"
)

// game is the Ebiten side of the visualizer. Update advances the playhead
// by the real time of one tick; Draw paints, and only when the picture
// changed (a paused view costs nothing per frame).
//
// The window.commlab callbacks run between Ebiten's frames (js/wasm has one
// thread, and Go hands control to JavaScript only when every goroutine
// waits), so mu is never contended; it is held only around app, never
// across a call into JavaScript, which may call back into Go.
type game struct {
	mu  sync.Mutex
	app *app
	pub publisher

	w, h  float64 // canvas size in CSS pixels, from Layout
	scale float64 // device pixels per CSS pixel

	painter *painter
	list    render.List
	listKey frameKey
	hasList bool

	painted    frameKey // what the screen shows
	paintedDev [2]int   // at this screen size in device pixels

	lastTick float64 // performance.now() of the last Update, in s

	builder      *builder
	lastProgress float64 // when the page last heard a build's progress, in s

	started bool // Ebiten has called Update

	perf    js.Value // performance, for now()
	history js.Value
	window  js.Value
}

func newGame(a *app) *game {
	win := js.Global()
	return &game{
		app:     a,
		scale:   1,
		painter: newPainter(),
		builder: browserBuilder(),
		perf:    win.Get("performance"),
		history: win.Get("history"),
		window:  win,
	}
}

func (g *game) now() float64 { return g.perf.Call("now").Float() }

// maxTick bounds the real time one Update may advance the playhead, so that
// a tab coming back from the background does not jump ahead.
const maxTick = 0.25 // s

// Update advances the player by the real time since the last Update. That
// is 1/TPS while the browser keeps up; when frames are slow, Ebiten runs
// fewer Updates than TPS a second (at most a few per frame), and counting
// ticks would slow the animation down with the machine.
func (g *game) Update() error {
	if !g.started {
		g.started = true
		mark("first-update") // Ebiten has started
	}
	now := g.now() / 1000
	dt := 1 / float64(ebiten.TPS())
	if g.lastTick > 0 {
		dt = min(max(now-g.lastTick, 0), maxTick)
	}
	g.lastTick = now
	g.mu.Lock()
	if g.app.hidden {
		// No time passes for a scene nobody sees: on its return the
		// playhead goes on from where it was, without a jump.
		g.lastTick = 0
	}
	g.app.Tick(dt)
	// A build in flight: the progress bar hears of it ten times a second.
	building := g.app.job != nil && now-g.lastProgress >= eventThrottle
	g.mu.Unlock()
	if building {
		g.lastProgress = now
	}
	g.publish(building)
	return nil
}

// Draw lays out the frame the state asks for, if it is not the one already
// laid out, and paints it unless the screen shows it already. The layout
// happens here rather than in Update because Ebiten runs several Updates
// per Draw when frames are slow (software WebGL): only the frame that is
// painted is worth laying out.
func (g *game) Draw(screen *ebiten.Image) {
	if g.w < 1 || g.h < 1 {
		return
	}
	t0 := g.now()
	g.mu.Lock()
	if g.app.hidden {
		g.mu.Unlock()
		return
	}
	key := g.app.Key(g.w, g.h)
	if !g.hasList || key != g.listKey {
		g.list, g.listKey, g.hasList = g.app.Frame(g.w, g.h), key, true
	}
	g.app.layoutMs.add(g.now() - t0)
	dev := [2]int{screen.Bounds().Dx(), screen.Bounds().Dy()}
	fresh := key == g.painted && dev == g.paintedDev
	g.mu.Unlock()
	if fresh {
		return
	}
	t1 := g.now()
	g.painter.Paint(screen, g.list, g.scale)
	now := g.now()
	g.mu.Lock()
	g.app.paintMs.add(now - t1)
	g.painted, g.paintedDev = key, dev
	g.app.draws++
	g.app.baseDraws = g.painter.baseDraws
	first := g.app.firstFrameMs == 0
	if first {
		g.app.firstFrameMs = now
	}
	g.mu.Unlock()
	if first {
		mark("first-frame")
		// The page takes the still away (scene.js) and an embedding
		// page may listen for it too.
		g.window.Call("dispatchEvent", js.Global().Get("Event").New("commlab-first-frame"))
	}
}

// LayoutF asks for a screen as large as the canvas in device pixels, so
// that nothing is scaled (and blurred) on the way to a high-DPI display.
func (g *game) LayoutF(outsideW, outsideH float64) (float64, float64) {
	s := ebiten.Monitor().DeviceScaleFactor()
	g.mu.Lock()
	g.w, g.h, g.scale = outsideW, outsideH, s
	g.mu.Unlock()
	return math.Floor(outsideW * s), math.Floor(outsideH * s)
}

// Layout is required by ebiten.Game; Ebiten calls LayoutF instead.
func (g *game) Layout(outsideW, outsideH int) (int, int) {
	w, h := g.LayoutF(float64(outsideW), float64(outsideH))
	return int(w), int(h)
}

// publish tells the page about changes: the canonical query into the
// address bar and a "commlab-state" event, at once after a discrete
// change (force, or app.dirty) and throttled while only the playhead
// moves.
func (g *game) publish(force bool) {
	g.mu.Lock()
	q := g.app.Query()
	force = force || g.app.dirty
	g.app.dirty = false
	url, event := g.pub.Due(g.now()/1000, force, q, g.app.query)
	if url {
		g.app.query = q
	}
	g.mu.Unlock()
	if url {
		g.history.Call("replaceState", js.Null(), "", "?"+q)
	}
	if event {
		g.window.Call("dispatchEvent", js.Global().Get("Event").New("commlab-state"))
	}
}

// DrawFinalScreen puts the frame on the canvas. Ebiten's own clears the
// canvas and draws the frame over it, blending; on a cleared canvas a
// copy gives the same pixels without reading the canvas back, a pass
// over every pixel that software WebGL pays each frame. A frame scaled on
// its way (the canvas a fraction of a pixel off its device size; Layout
// asks for device pixels, so rarely) is drawn blended and linearly
// filtered, where Ebiten's own would use its sharper upscaling shader.
func (g *game) DrawFinalScreen(screen ebiten.FinalScreen, offscreen *ebiten.Image, geoM ebiten.GeoM) {
	op := &ebiten.DrawImageOptions{GeoM: geoM, Blend: ebiten.BlendCopy}
	if geoM.Element(0, 0) != 1 || geoM.Element(1, 1) != 1 {
		op.Blend, op.Filter = ebiten.BlendSourceOver, ebiten.FilterLinear
	}
	screen.DrawImage(offscreen, op)
}
