package main

import (
	"fmt"
	"image/color"

	"commlab/render"
)

// Colours of the placeholder picture.
var (
	background = color.RGBA{0xfb, 0xfa, 0xf7, 0xff}
	laneFill   = color.RGBA{0xe6, 0xec, 0xf5, 0xff}
	laneEdge   = color.RGBA{0x9a, 0xa8, 0xbd, 0xff}
	stageRule  = color.RGBA{0xc8, 0xc8, 0xc8, 0xff}
	exchange   = color.RGBA{0x1f, 0x5f, 0xaa, 0xff}
	playhead   = color.RGBA{0xd0, 0x3a, 0x2f, 0xff}
	ink        = color.RGBA{0x22, 0x22, 0x22, 0xff}
)

// placeholder lays out a static schematic of a butterfly allreduce on P
// processes (P a power of two): one lane per process, log2(P) stages, and in
// stage s an exchange between ranks i and i XOR 2^s. It stands in for the
// trace-driven butterfly scene until that scene exists, and it shows every
// primitive the Ebiten backend must paint. The playhead (0..1) is drawn as a
// dashed vertical line so that a running game is visibly animated.
//
// w and h are the canvas size in CSS pixels.
func placeholder(w, h float64, p int, head float64) render.List {
	l := render.List{W: w, H: h, Background: background}
	stages := 0
	for 1<<stages < p {
		stages++
	}
	const margin = 40.0
	left, right := margin+30, w-margin
	top, bottom := margin+20, h-margin
	if right <= left || bottom <= top || p < 2 {
		return l // too small to lay out; paint only the background
	}
	laneH := (bottom - top) / float64(p)
	stageW := (right - left) / float64(stages)
	laneY := func(i int) float64 { return top + (float64(i)+0.5)*laneH }

	l.Add(render.Text{At: render.Point{X: margin, Y: margin}, S: "placeholder: butterfly allreduce, P = " + fmt.Sprint(p), Color: ink})
	for i := 0; i < p; i++ {
		y := laneY(i)
		l.Add(
			render.Rect{
				Min:   render.Point{X: left, Y: y - laneH*0.3},
				Max:   render.Point{X: right, Y: y + laneH*0.3},
				Style: render.Style{Fill: laneFill, Stroke: laneEdge},
			},
			render.Text{At: render.Point{X: margin, Y: y}, S: fmt.Sprint("p", i), Color: ink},
		)
	}
	for s := 0; s <= stages; s++ {
		x := left + float64(s)*stageW
		l.Add(render.Line{
			From:  render.Point{X: x, Y: top},
			To:    render.Point{X: x, Y: bottom},
			Style: render.Style{Stroke: stageRule, Dash: []float64{4, 4}},
		})
	}
	for s := 0; s < stages; s++ {
		x0, x1 := left+float64(s)*stageW+stageW*0.2, left+float64(s+1)*stageW-stageW*0.2
		for i := 0; i < p; i++ {
			l.Add(render.Arrow{
				From:  render.Point{X: x0, Y: laneY(i)},
				To:    render.Point{X: x1, Y: laneY(i ^ 1<<s)},
				Style: render.Style{Stroke: exchange, Fill: exchange, Width: 1.5},
			})
		}
	}
	x := left + (right-left)*min(max(head, 0), 1)
	l.Add(
		render.Line{
			From:  render.Point{X: x, Y: top - 10},
			To:    render.Point{X: x, Y: bottom + 10},
			Style: render.Style{Stroke: playhead, Width: 2, Dash: []float64{6, 3}},
		},
		render.Circle{Center: render.Point{X: x, Y: top - 10}, R: 4, Style: render.Style{Fill: playhead}},
	)
	return l
}
