package schedule

import (
	"math"

	"commlab/engine/progress"
)

// MaxLanes is the most ranks a side draws as lanes; above it, a side is
// a heat-strip: at a few hundred ranks a lane is under two pixels on a
// 1080-pixel screen and the messages between them are a blur.
const MaxLanes = 256

// MaxLaneOps is the most operations a side draws bar by bar: beyond it a
// frame would hold tens of thousands of rectangles and arrows (and a
// schedule that long has bars under a pixel wide), so the side becomes a
// heat-strip whatever its rank count.
const MaxLaneOps = 20_000

// The heat-strip's resolution: HeatCols time slices by at most HeatRows
// groups of ranks, fixed at build time, so a frame costs one Grid item
// whatever the schedule's size, and the backend scales the cells to the
// canvas.
const (
	HeatCols = 240
	HeatRows = 256
)

// heatLevels is how many colours a heat-strip's cells take: a cell's
// busy fraction is rounded to one of them at build time, so a frame maps
// levels to colours through a table instead of sampling the ramp per cell.
const heatLevels = 256

// heat is a side's CPU occupancy: busy[row*HeatCols+col] is the fraction
// of the group's CPU time in the slice spent on o, calc or noise, and
// level the same rounded to heatLevels steps.
type heat struct {
	rows  int
	per   int     // ranks per row (the last row may hold fewer)
	slice float64 // ns per column
	busy  []float64
	level []uint8
}

func newHeat(sd *side, pr progress.Func) (*heat, error) {
	tl := sd.res.Timeline
	h := &heat{rows: min(sd.ranks, HeatRows)}
	h.per = (sd.ranks + h.rows - 1) / h.rows
	h.rows = (sd.ranks + h.per - 1) / h.per
	h.slice = float64(max(sd.res.End, 1)) / HeatCols
	h.busy = make([]float64, h.rows*HeatCols)
	for r := range sd.ranks {
		first, end := sd.s.RankOps(r)
		row := h.busy[(r/h.per)*HeatCols:][:HeatCols]
		for i := first; i < end; i++ {
			rec := tl.Ops[i]
			if rec.Start < 0 {
				continue
			}
			h.add(row, float64(rec.Start), float64(rec.End+rec.Stall))
		}
		if r%1024 == 1023 {
			if err := pr.Report(float64(r+1) / float64(sd.ranks)); err != nil {
				return nil, err
			}
		}
	}
	h.level = make([]uint8, len(h.busy))
	for row := range h.rows {
		n := min(h.per, sd.ranks-row*h.per)
		for c := range HeatCols {
			i := row*HeatCols + c
			h.busy[i] /= float64(n) * h.slice
			h.level[i] = uint8(math.Round(min(1, h.busy[i]) * (heatLevels - 1)))
		}
	}
	return h, nil
}

// add spreads busy time [a, b) over the slices it overlaps.
func (h *heat) add(row []float64, a, b float64) {
	if !(b > a) {
		return
	}
	c0 := min(int(a/h.slice), HeatCols-1)
	for c := c0; c < HeatCols; c++ {
		lo, hi := float64(c)*h.slice, float64(c+1)*h.slice
		if c == HeatCols-1 {
			hi = b
		}
		if lo >= b {
			break
		}
		row[c] += min(b, hi) - max(a, lo)
	}
}

// critRank maps a rank to its heat row's centre, in rows.
func (h *heat) critRank(rank int) float64 {
	return (float64(rank) + 0.5) / float64(h.per)
}
