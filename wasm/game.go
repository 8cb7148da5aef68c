//go:build js && wasm

package main

import (
	"sync/atomic"

	"github.com/hajimehoshi/ebiten/v2"

	"commlab/render"
)

// placeholderP is the process count of the placeholder butterfly.
const placeholderP = 8

// sweepTicks is how many updates the placeholder playhead takes to cross the
// picture: 4 s at Ebiten's default 60 ticks per second.
const sweepTicks = 240

// snapshot is what window.commlab.state() reports. The game publishes a new
// one after every Update, so the JS callbacks read it without locking and
// without ever waiting on the game loop.
type snapshot struct {
	Scene    string
	Frames   int64   // updates run so far
	Playhead float64 // 0..1 across the picture
	W, H     int     // canvas size in CSS pixels
}

// game follows Ebiten's split: Update advances state by a fixed tick, Draw
// only paints the list Update built.
type game struct {
	scene string
	ticks int64

	w, h  int     // outside size in CSS pixels, from Layout
	scale float64 // device pixel ratio, from Layout

	list  render.List
	state atomic.Pointer[snapshot]
}

func newGame(scene string) *game {
	g := &game{scene: scene, scale: 1}
	g.state.Store(&snapshot{Scene: scene})
	return g
}

func (g *game) Update() error {
	g.ticks++
	head := float64(g.ticks%sweepTicks) / sweepTicks
	g.list = placeholder(float64(g.w), float64(g.h), placeholderP, head)
	g.state.Store(&snapshot{Scene: g.scene, Frames: g.ticks, Playhead: head, W: g.w, H: g.h})
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	paint(screen, g.list, g.scale)
}

// Layout asks for a screen as large as the canvas in device pixels, so that
// nothing is upscaled and blurred on high-DPI displays.
func (g *game) Layout(outsideW, outsideH int) (int, int) {
	g.w, g.h = outsideW, outsideH
	g.scale = ebiten.Monitor().DeviceScaleFactor()
	return int(float64(outsideW) * g.scale), int(float64(outsideH) * g.scale)
}
