package mmdl

import (
	"slices"

	"commlab/engine/param"
)

// Transfer is one flow of the steady state: Tasks tasks from From to To.
type Transfer struct {
	From  int     `json:"from"`
	To    int     `json:"to"`
	Tasks float64 `json:"tasks"`
}

// Steady is a steady state: the flows and the makespan they achieve when
// the data moves and is computed without latency (R → ∞).
type Steady struct {
	// T is the asymptotic makespan: the largest busy time γ_i·f_i +
	// β·(sent_i + received_i), minimised over the flows.
	T float64 `json:"T"`
	// Flow[i][j] is the tasks processor i sends to j (nil when the
	// instance is too large for a dense matrix; see SteadyStateSparse).
	Flow [][]float64 `json:"flow,omitempty"`
	// Final is each processor's final load f_i.
	Final []float64 `json:"final"`
	// Transfers lists the non-zero flows, sender by sender.
	Transfers []Transfer `json:"transfers"`
}

// DenseFlowLimit is the most processors for which SteadyState fills the
// dense Flow matrix (P² floats); above it use SteadyStateSparse.
const DenseFlowLimit = 2048

// SteadyState solves the steady state for one β in closed form (the
// package doc derives it) and fills Flow, Final and Transfers.
func SteadyState(in Instance) (Steady, error) {
	if len(in.MHz) > DenseFlowLimit {
		return Steady{}, &param.Error{Field: "mhz", Value: "a list of " + itoa(len(in.MHz)) + " processors", Want: "at most " + itoa(DenseFlowLimit) + " for the dense flow matrix (SteadyStateSparse has no limit)"}
	}
	st, err := SteadyStateSparse(in)
	if err != nil {
		return st, err
	}
	st.Flow = DenseFlow(len(in.MHz), st.Transfers)
	return st, nil
}

// DenseFlow builds the P×P flow matrix of a list of transfers.
func DenseFlow(p int, tr []Transfer) [][]float64 {
	flat := make([]float64, p*p)
	flow := make([][]float64, p)
	for i := range flow {
		flow[i] = flat[i*p : (i+1)*p : (i+1)*p]
	}
	for _, t := range tr {
		flow[t.From][t.To] += t.Tasks
	}
	return flow
}

// SteadyStateSparse is SteadyState without the dense Flow matrix, for any
// number of processors: O(P log P).
func SteadyStateSparse(in Instance) (Steady, error) {
	if err := in.Validate(); err != nil {
		return Steady{}, err
	}
	p := len(in.MHz)
	beta := in.Beta()
	gamma := make([]float64, p)
	for i := range gamma {
		gamma[i] = in.Gamma(i)
	}
	n := in.TotalTasks()
	st := Steady{Final: make([]float64, p)}
	if n == 0 {
		return st, nil
	}
	// Below T_lb some processor can neither finish its own load nor send it
	// away: min(γ_i, β)·l_i is its least possible busy time.
	var tlb float64
	for i, l := range in.Tasks {
		tlb = max(tlb, min(gamma[i], beta)*l)
	}
	// fmax is the largest final load processor i can finish by t ≥ T_lb.
	fmax := func(i int, t float64) float64 {
		l := in.Tasks[i]
		if t >= gamma[i]*l {
			return (t + beta*l) / (gamma[i] + beta)
		}
		return (t - beta*l) / (gamma[i] - beta) // exporter: γ_i > β here
	}
	sum := func(t float64) float64 {
		var s float64
		for i := range p {
			s += fmax(i, t)
		}
		return s
	}
	t := tlb
	if sum(tlb) < n {
		// Σ f_i(t) is linear between the breakpoints γ_i·l_i; walk them in
		// order, keeping the slope and intercept, to the segment holding the
		// root, then solve that segment with freshly summed coefficients.
		order := make([]int, 0, p)
		for i := range p {
			if gamma[i]*in.Tasks[i] > tlb {
				order = append(order, i)
			}
		}
		slices.SortFunc(order, func(a, b int) int {
			if c := cmpF(gamma[a]*in.Tasks[a], gamma[b]*in.Tasks[b]); c != 0 {
				return c
			}
			return a - b
		})
		importer := make([]bool, p)
		for i := range p {
			importer[i] = gamma[i]*in.Tasks[i] <= tlb
		}
		coef := func() (a, b float64) {
			for i := range p {
				l := in.Tasks[i]
				if importer[i] {
					a += 1 / (gamma[i] + beta)
					b += beta * l / (gamma[i] + beta)
				} else {
					a += 1 / (gamma[i] - beta)
					b -= beta * l / (gamma[i] - beta)
				}
			}
			return a, b
		}
		a, b := coef()
		k := 0
		for {
			root := (n - b) / a
			if k == len(order) || root <= gamma[order[k]]*in.Tasks[order[k]] {
				a, b = coef()
				t = max(tlb, (n-b)/a)
				break
			}
			// Processor order[k] turns from exporter to importer.
			i := order[k]
			l := in.Tasks[i]
			a += 1/(gamma[i]+beta) - 1/(gamma[i]-beta)
			b += beta*l/(gamma[i]+beta) + beta*l/(gamma[i]-beta)
			importer[i] = true
			k++
		}
	}
	st.T = t
	final := st.Final
	for i := range p {
		final[i] = max(0, fmax(i, t))
	}
	// Rounding (or T = T_lb with room to spare) leaves Σ f_i ≠ n; give the
	// excess back to the importers first, then to the exporters, each in
	// proportion, so every busy time stays ≤ T.
	var s float64
	for _, f := range final {
		s += f
	}
	excess := s - n
	if excess > 0 {
		var imp float64
		for i, f := range final {
			if f > in.Tasks[i] {
				imp += f - in.Tasks[i]
			}
		}
		if imp >= excess {
			k := 1 - excess/imp
			for i, f := range final {
				if f > in.Tasks[i] {
					final[i] = in.Tasks[i] + (f-in.Tasks[i])*k
				}
			}
		} else {
			var exp float64
			for i, f := range final {
				if f > in.Tasks[i] {
					final[i] = in.Tasks[i]
				} else {
					exp += f
				}
			}
			if exp > 0 {
				k := max(0, 1-(excess-imp)/exp)
				for i, f := range final {
					if f < in.Tasks[i] {
						final[i] = f * k
					}
				}
			}
		}
	} else if excess < 0 {
		// Rounding only (a few ulps): the slowest importer takes it.
		final[slices.Index(final, slices.Max(final))] -= excess
	}
	st.Transfers = Match(in.Tasks, final)
	st.Final = FinalLoads(in.Tasks, st.Transfers)
	return st, nil
}

// Match pairs exporters (final < initial) with importers (final > initial)
// in index order, the north-west corner rule of the transportation problem:
// at most P−1 transfers, each processor's transfers consecutive. Amounts
// below a 10^-9 share of the largest load are rounding and are dropped, so
// no message carries only noise; FinalLoads gives the final loads the transfers
// actually leave.
func Match(initial, final []float64) []Transfer {
	var exp, imp []int
	var top float64
	for i := range initial {
		top = max(top, initial[i], final[i])
		switch {
		case final[i] < initial[i]:
			exp = append(exp, i)
		case final[i] > initial[i]:
			imp = append(imp, i)
		}
	}
	tiny := top * 1e-9
	var tr []Transfer
	ei, ii := 0, 0
	var left, need float64
	if len(exp) > 0 && len(imp) > 0 {
		left, need = initial[exp[0]]-final[exp[0]], final[imp[0]]-initial[imp[0]]
	}
	for ei < len(exp) && ii < len(imp) {
		x := min(left, need)
		if x > tiny {
			tr = append(tr, Transfer{From: exp[ei], To: imp[ii], Tasks: x})
		}
		left -= x
		need -= x
		if left <= need {
			if ei++; ei < len(exp) {
				left = initial[exp[ei]] - final[exp[ei]]
			}
		} else if ii++; ii < len(imp) {
			need = final[imp[ii]] - initial[imp[ii]]
		}
	}
	return tr
}

// FinalLoads returns the final loads l_i − sent_i + received_i that transfers
// leave from the initial loads.
func FinalLoads(initial []float64, tr []Transfer) []float64 {
	f := append([]float64(nil), initial...)
	for _, t := range tr {
		f[t.From] -= t.Tasks
		f[t.To] += t.Tasks
	}
	return f
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

//go:noinline
func itoa(n int) string { return fmtF(float64(n)) }
