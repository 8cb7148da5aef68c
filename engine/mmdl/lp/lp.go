package lp

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	golp "gonum.org/v1/gonum/optimize/convex/lp"

	"commlab/engine/mmdl"
	"commlab/engine/param"
)

// MaxProcs bounds the programme's size: P(P−1) flow variables in a dense
// tableau of 2P rows.
const MaxProcs = 256

// SteadyStatePairwise is the steady state when a task sent from i to j
// costs beta[i][j] seconds at both ends (beta[i][i] is ignored). in's own
// Comm and Throughput are not used; its loads and clock rates are.
func SteadyStatePairwise(in mmdl.Instance, beta [][]float64) (mmdl.Steady, error) {
	if err := in.Validate(); err != nil {
		return mmdl.Steady{}, err
	}
	p := in.Procs()
	if p > MaxProcs {
		return mmdl.Steady{}, &param.Error{Field: "mhz", Value: fmt.Sprintf("%d entries", p), Want: fmt.Sprintf("at most %d processors for the LP", MaxProcs)}
	}
	if len(beta) != p {
		return mmdl.Steady{}, &param.Error{Field: "beta", Value: fmt.Sprintf("%d rows", len(beta)), Want: fmt.Sprintf("one row per processor (%d)", p)}
	}
	for i, row := range beta {
		if len(row) != p {
			return mmdl.Steady{}, &param.Error{Field: fmt.Sprintf("beta[%d]", i), Value: fmt.Sprintf("%d entries", len(row)), Want: fmt.Sprintf("one per processor (%d)", p)}
		}
		for j, b := range row {
			if i != j && !(b >= 0 && b <= 1e6) {
				return mmdl.Steady{}, &param.Error{Field: fmt.Sprintf("beta[%d][%d]", i, j), Value: fmt.Sprint(b), Want: "seconds per task in [0, 1e6]"}
			}
		}
	}
	n := in.TotalTasks()
	if n == 0 || p == 1 {
		st := mmdl.Steady{T: in.Gamma(0) * in.Tasks[0], Final: append([]float64(nil), in.Tasks...)}
		if n == 0 {
			st.T = 0
		}
		st.Flow = mmdl.DenseFlow(p, nil)
		return st, nil
	}
	// Scale tasks to O(1) so the simplex's tolerances mean the same for
	// 10 tasks and 10^9.
	scale := n / float64(p)

	// Standard form A·x = b, x ≥ 0. Columns: the flows x_ij (i ≠ j) in
	// row-major order, T, a slack per busy-time row, a slack per
	// final-load row.
	nx := p * (p - 1)
	col := func(i, j int) int { // the column of x_ij
		if j > i {
			j--
		}
		return i*(p-1) + j
	}
	colT := nx
	cols := nx + 1 + 2*p
	a := mat.NewDense(2*p, cols, nil)
	b := make([]float64, 2*p)
	for i := range p {
		g := in.Gamma(i)
		l := in.Tasks[i] / scale
		// Busy time, negated so that b ≥ 0:
		// Σ_j (γ_i − β_ij)·x_ij − Σ_j (γ_i + β_ji)·x_ji + T − s_i = γ_i·l_i.
		for j := range p {
			if j == i {
				continue
			}
			a.Set(i, col(i, j), g-beta[i][j])
			a.Set(i, col(j, i), -(g + beta[j][i]))
		}
		a.Set(i, colT, 1)
		a.Set(i, nx+1+i, -1)
		b[i] = g * l
		// Final load: Σ_j x_ij − Σ_j x_ji + u_i = l_i.
		r := p + i
		for j := range p {
			if j == i {
				continue
			}
			a.Set(r, col(i, j), 1)
			a.Set(r, col(j, i), -1)
		}
		a.Set(r, nx+1+p+i, 1)
		b[r] = l
	}
	c := make([]float64, cols)
	c[colT] = 1
	_, x, err := golp.Simplex(c, a, b, 1e-10, nil)
	if err != nil {
		return mmdl.Steady{}, fmt.Errorf("lp: the simplex failed: %w", err)
	}
	var tr []mmdl.Transfer
	var top float64
	for _, l := range in.Tasks {
		top = max(top, l)
	}
	for i := range p {
		for j := range p {
			if i == j {
				continue
			}
			// Amounts below a 10^-9 share of the largest load are the
			// solver's rounding: no message should carry only that.
			if v := x[col(i, j)] * scale; v > top*1e-9 {
				tr = append(tr, mmdl.Transfer{From: i, To: j, Tasks: v})
			}
		}
	}
	slices.SortFunc(tr, func(s, t mmdl.Transfer) int {
		if s.From != t.From {
			return s.From - t.From
		}
		return s.To - t.To
	})
	st := mmdl.Steady{Transfers: tr, Final: mmdl.FinalLoads(in.Tasks, tr), Flow: mmdl.DenseFlow(p, tr)}
	// T is recomputed from the flows kept, so it is exactly the busiest
	// processor's busy time, not the solver's rounded objective.
	busy := make([]float64, p)
	for i, f := range st.Final {
		st.Final[i] = max(0, f)
		busy[i] = in.Gamma(i) * st.Final[i]
	}
	for _, t := range tr {
		cost := beta[t.From][t.To] * t.Tasks
		busy[t.From] += cost
		busy[t.To] += cost
	}
	st.T = slices.Max(busy)
	if math.IsNaN(st.T) {
		return mmdl.Steady{}, fmt.Errorf("lp: the simplex returned NaN flows")
	}
	return st, nil
}

// Uniform is the β matrix of one β for p processors.
func Uniform(p int, beta float64) [][]float64 {
	m := make([][]float64, p)
	for i := range m {
		m[i] = make([]float64, p)
		for j := range m[i] {
			if i != j {
				m[i][j] = beta
			}
		}
	}
	return m
}
