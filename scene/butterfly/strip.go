package butterfly

import (
	"image/color"
	"slices"

	"commlab/render"
)

// stripCache holds what the heat-strip needs per layout and theme: the
// latest finish in every bin of processes, and the colour that bin takes
// once finished. Frame then only compares each bin's finish with t.
type stripCache struct {
	lay  *layout
	heat []color.RGBA // the theme's ramp the colours were made with
	fin  []float64    // run rows x cols: latest finish in the bin
	done []color.RGBA // run rows x cols: heat colour of fin
}

// stripFor returns the cache for the current layout and th, rebuilding it
// when either changed.
func (r *Run) stripFor(L *layout, th render.Theme) *stripCache {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c := r.strip; c != nil && c.lay == L && slices.Equal(c.heat, th.Heat) {
		return c
	}
	c := &stripCache{lay: L, heat: slices.Clone(th.Heat)}
	c.fin = make([]float64, r.rows*L.cols)
	c.done = make([]color.RGBA, r.rows*L.cols)
	for row := range r.rows {
		fs := r.fin[row*r.n : (row+1)*r.n]
		for col := range L.cols {
			x := slices.Max(fs[col*L.bin : (col+1)*L.bin])
			c.fin[row*L.cols+col] = x
			c.done[row*L.cols+col] = th.HeatAt(r.heat(x))
		}
	}
	r.strip = c
	return c
}

// strip draws the rows as one heat map: a bin is pending until its last
// process has finished the row, shows the stall colour while OS jitter
// holds one of its processes in that stage, and the time it finished after.
func (f *frame) strip() {
	r, L, th, t := f.r, f.L, f.th, f.t
	c := r.stripFor(L, th)
	cells := make([]color.RGBA, L.gridRows*L.cols)
	pending := th.Idle
	for row := range r.rows {
		g := L.gridRow[row] * L.cols
		fin, done := c.fin[row*L.cols:(row+1)*L.cols], c.done[row*L.cols:(row+1)*L.cols]
		out := cells[g : g+L.cols]
		for col, x := range fin {
			if t >= x {
				out[col] = done[col]
			} else {
				out[col] = pending
			}
		}
	}
	for _, st := range r.stalls {
		if st.start > t {
			break
		}
		if t < st.end {
			cells[L.gridRow[st.row]*L.cols+st.lane/L.bin] = th.Stall
		}
	}
	f.add(render.Grid{Min: L.gridMin, Max: L.gridMax, Cols: L.cols, Rows: L.gridRows, Cells: cells})
	// Thin rules between the rows keep them apart where neighbouring
	// stages finished at similar times.
	rule := render.Style{Stroke: th.Background, Width: max(L.s, 1)}
	for row := 1; row < r.rows; row++ {
		if row == r.k+1 {
			continue // the separator row sits there
		}
		y := L.rowY[row]
		f.add(render.Line{From: render.Point{X: L.x0, Y: y}, To: render.Point{X: L.x1, Y: y}, Style: rule})
	}
	if r.t > 0 {
		f.add(render.Line{From: render.Point{X: L.pad, Y: L.sepY}, To: render.Point{X: L.x1, Y: L.sepY}, Style: render.Style{Stroke: render.Fade(th.Redundant, 0.6), Width: max(L.s, 1), Dash: f.dash}})
	}
	f.critical(r.k, r.critConv, r.res.ByT[0])
	if r.t > 0 {
		f.critical(r.rows-1, r.critRed, r.res.ByT[r.t])
	}
}
