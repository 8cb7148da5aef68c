package mmdl

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"commlab/engine/param"
	"commlab/engine/progress"
	"commlab/engine/trace"
	"commlab/internal/errf"
	"commlab/internal/permsort"
)

// MaxRounds bounds R: the schedule holds R messages per flow.
const MaxRounds = 10_000

// FormulaTotal is the paper's accounting of R steady rounds (Section 2.3):
// T + T/R + α·R; the first round only communicates, the last only
// computes, and every round pays α once.
func FormulaTotal(T, alpha float64, R int) float64 {
	return T + T/float64(R) + alpha*float64(R)
}

// OptimalRounds is R* = √(T/α) rounded to the nearest integer, at least 1,
// which minimises FormulaTotal (to T + 2√(Tα)). With α = 0 every extra
// round helps and it returns MaxRounds.
func OptimalRounds(T, alpha float64) int {
	if T <= 0 {
		return 1
	}
	if alpha <= 0 {
		return MaxRounds
	}
	r := math.Round(math.Sqrt(T / alpha))
	return int(min(max(r, 1), MaxRounds))
}

// OpKind is what a processor does during an Op.
type OpKind uint8

const (
	// Send is a processor handing tasks to a peer (α + β per task).
	Send OpKind = iota
	// Recv is a processor taking tasks from a peer (the same interval as
	// the peer's Send).
	Recv
	// Compute is a processor computing tasks it holds.
	Compute
)

var opNames = [...]string{"send", "recv", "compute"}

func (k OpKind) String() string {
	if int(k) < len(opNames) {
		return opNames[k]
	}
	return fmt.Sprintf("OpKind(%d)", k)
}

// MarshalText writes the kind's name.
func (k OpKind) MarshalText() ([]byte, error) {
	if int(k) >= len(opNames) {
		return nil, errf.Errorf("mmdl: unknown op kind %d", k)
	}
	return []byte(opNames[k]), nil
}

// Op is one operation of the executable schedule.
type Op struct {
	Proc int    `json:"proc"`
	Kind OpKind `json:"kind"`
	// Peer is the other end of a Send or Recv, -1 for Compute.
	Peer int `json:"peer"`
	// Round is the steady round, 0 … R−1: a transfer's round, or the round
	// whose quota (f_i/R tasks) a computation works on.
	Round int     `json:"round"`
	Tasks float64 `json:"tasks"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
}

// Schedule is an executable schedule of R steady rounds and its simulation.
type Schedule struct {
	R     int `json:"R"`
	Procs int `json:"procs"`
	// Ops lists every operation, processor by processor, in time order.
	Ops []Op `json:"ops"`
	// Makespan is when the last computation ends.
	Makespan float64 `json:"makespan"`
	// T is the steady state's asymptotic makespan; Formula is the paper's
	// FormulaTotal(T, α, R) for comparison.
	T       float64 `json:"T"`
	Formula float64 `json:"formula_total"`
	// RoundStart[k] and RoundEnd[k] are when round k's first transfer
	// starts and its last ends (both 0 when nothing moves).
	RoundStart []float64 `json:"round_start"`
	RoundEnd   []float64 `json:"round_end"`
	// Initial and Final are each processor's load before and after.
	Initial []float64 `json:"initial"`
	Final   []float64 `json:"final"`
	// MaxDegree is D, the most messages one processor handles per round.
	MaxDegree int `json:"max_degree"`
	// Sched is the schedule built; Period the Paper schedule's round
	// length (0 for Overlap, whose rounds have no fixed length).
	Sched  Sched   `json:"schedule"`
	Period float64 `json:"period"`
	// Boundaries are when the rounds begin, as drawn: Paper's k·Period for
	// its R+1 rounds (the last only computes), Overlap's first transfer of
	// each round that moves anything.
	Boundaries []float64 `json:"boundaries"`
}

// Sched selects the executable schedule Rounds builds from the steady
// rounds (the package doc describes both).
type Sched uint8

const (
	// Paper is the paper's schedule (Section 2.3, the default): R identical
	// rounds of length Period, pipelined, the first of which only
	// communicates, then one more that only computes.
	Paper Sched = iota
	// Overlap is the paper's future work (Section 6): transfers as soon as
	// both ends are free, every gap filled with computation of tasks a
	// processor holds, its own initial load included.
	Overlap
)

// Scheds are the schedules' names, the default first.
var Scheds = []string{"paper", "overlap"}

func (s Sched) String() string {
	if int(s) < len(Scheds) {
		return Scheds[s]
	}
	return fmt.Sprintf("Sched(%d)", s)
}

// ParseSched reads a schedule's name; anything else is a *param.Error on
// the field "schedule".
func ParseSched(name string) (Sched, error) {
	for i, n := range Scheds {
		if n == name {
			return Sched(i), nil
		}
	}
	return Paper, &param.Error{Field: "schedule", Value: strconv.Quote(name), Want: `"paper" or "overlap"`}
}

// MarshalText writes the schedule's name.
func (s Sched) MarshalText() ([]byte, error) {
	if int(s) >= len(Scheds) {
		return nil, errf.Errorf("mmdl: unknown schedule %d", s)
	}
	return []byte(Scheds[s]), nil
}

// UnmarshalText reads a schedule's name.
func (s *Sched) UnmarshalText(b []byte) error {
	v, err := ParseSched(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Rounds builds and simulates the executable schedule sched of st's flows
// in R steady rounds (the package doc gives the rules). st's Transfers (or
// Flow when Transfers is nil) must move no more than in's loads hold; they
// usually come from the same instance, but may come from another with the
// same loads: a schedule planned with guessed parameters and executed on a
// machine with other ones (Execute).
func Rounds(in Instance, st Steady, R int, sched Sched) (*Schedule, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if R < 1 || R > MaxRounds {
		return nil, &param.Error{Field: "rounds", Value: itoa(R), Want: fmt.Sprintf("an integer in [1, %d]", MaxRounds)}
	}
	if sched != Paper && sched != Overlap {
		return nil, &param.Error{Field: "schedule", Value: itoa(int(sched)), Want: `"paper" or "overlap"`}
	}
	p := len(in.MHz)
	tr, err := transfersOf(st, p)
	if err != nil {
		return nil, err
	}
	s := &Schedule{R: R, Procs: p, Sched: sched, T: st.T, Formula: FormulaTotal(st.T, in.Latency, R),
		Initial: append([]float64(nil), in.Tasks...), Final: FinalLoads(in.Tasks, tr),
		RoundStart: make([]float64, R), RoundEnd: make([]float64, R)}
	for i, f := range s.Final {
		if f < -1e-9*max(1, in.Tasks[i]) {
			return nil, errf.Errorf("mmdl: the flows send %g tasks more than processor %d holds", -f, i)
		}
		s.Final[i] = max(0, f)
	}
	order, degree := colourOrder(tr, p)
	s.MaxDegree = degree
	if sched == Paper {
		paperRounds(in, s, tr, order)
	} else {
		overlapRounds(in, s, tr, order)
	}
	for k := range R {
		if s.RoundEnd[k] > 0 && sched == Overlap {
			s.Boundaries = append(s.Boundaries, s.RoundStart[k])
		}
	}
	return s, nil
}

// Execute runs a plan on a machine: the flows of plan (a steady state
// solved with the scheduler's parameters, e.g. the paper's first guess
// 0.1 / 0.003) in R rounds of sched, every operation taking the machine's
// time (its compute and communication parameters, e.g. the calibrated
// 0.294 / 0.0034). It is the model's counterpart of the paper's Table 4
// "actual machine, before calibration": the plan's loads and order, the
// machine's durations. The Schedule's T is the plan's.
func Execute(machine Instance, plan Steady, R int, sched Sched) (*Schedule, error) {
	return Rounds(machine, plan, R, sched)
}

// overlapRounds is the Overlap schedule: transfers as soon as both ends
// are free, computation in every gap.
func overlapRounds(in Instance, s *Schedule, tr []Transfer, order []int) {
	p, R := s.Procs, s.R
	beta, alpha := in.Beta(), in.Latency

	// Transfers, round by round in the colour order, each as soon as both
	// ends are free: the order is global, so nothing waits in a cycle.
	free := make([]float64, p)
	comm := make([][]Op, p)
	for k := range R {
		first := true
		for _, e := range order {
			t := tr[e]
			x := t.Tasks / float64(R)
			start := max(free[t.From], free[t.To])
			end := start + alpha + beta*x
			free[t.From], free[t.To] = end, end
			comm[t.From] = append(comm[t.From], Op{Proc: t.From, Kind: Send, Peer: t.To, Round: k, Tasks: x, Start: start, End: end})
			comm[t.To] = append(comm[t.To], Op{Proc: t.To, Kind: Recv, Peer: t.From, Round: k, Tasks: x, Start: start, End: end})
			if first || start < s.RoundStart[k] {
				s.RoundStart[k] = start
			}
			s.RoundEnd[k] = max(s.RoundEnd[k], end)
			first = false
		}
	}

	// Computation fills the gaps: processor i may have computed at most
	// l_i + received − (all it will send) tasks at any time.
	sent := make([]float64, p)
	for _, t := range tr {
		sent[t.From] += t.Tasks
	}
	for i := range p {
		gamma := in.Gamma(i)
		f := s.Final[i]
		quota := f / float64(R)
		holds := in.Tasks[i] - sent[i]
		var done, now float64
		cp := &computer{s: s, proc: i, gamma: gamma, quota: quota, R: R}
		for _, op := range comm[i] {
			if gap := op.Start - now; gap > 0 && done < f {
				x := min(f-done, max(0, holds-done), gap/gamma)
				cp.run(now, done, x, op.Start)
				done += x
			}
			s.Ops = append(s.Ops, op)
			if op.Kind == Recv {
				holds += op.Tasks
			}
			now = op.End
		}
		if done < f {
			cp.run(now, done, f-done, math.Inf(1))
		}
		if n := len(s.Ops); n > 0 && s.Ops[n-1].Proc == i {
			s.Makespan = max(s.Makespan, s.Ops[n-1].End)
		}
	}
}

// paperRounds is the Paper schedule. One steady round is laid out first,
// from time 0: its transfers in the colour order, each as soon as both ends
// are free, and the processor's quota f_i/R (tasks it received in the
// previous round, or its own) computed in the gaps between them and after
// the last. Its length is the Period. Round k (0 … R−1) is that round
// started at k·Period, computing the tasks of round k−1, so round 0 only
// communicates; round R starts at R·Period and only computes round R−1's
// tasks. Two cases have no such pipeline: when no task moves there is
// nothing to communicate, so the R rounds only compute (makespan T); and
// R = 1 is one round that is both first and last, so it communicates,
// then computes: each processor computes its whole final load after its
// last transfer.
// piece is a computation of the paper's steady round: tasks over
// [start, end], offsets from the round's start.
type piece struct{ start, end, tasks float64 }

// paperTemplate lays out the paper's steady round for R rounds (see
// paperRounds): each processor's transfers and computation pieces, the
// round's length and when its last transfer ends.
func paperTemplate(in Instance, final []float64, tr []Transfer, order []int, R int) (comm [][]Op, comp [][]piece, period, commEnd float64) {
	p := len(in.MHz)
	beta, alpha := in.Beta(), in.Latency
	fR := float64(R)
	pipelined := len(tr) > 0 && R > 1

	// The steady round's transfers, per processor in time order.
	free := make([]float64, p)
	comm = make([][]Op, p)
	for _, e := range order {
		t := tr[e]
		x := t.Tasks / fR
		start := max(free[t.From], free[t.To])
		end := start + alpha + beta*x
		free[t.From], free[t.To] = end, end
		comm[t.From] = append(comm[t.From], Op{Proc: t.From, Kind: Send, Peer: t.To, Tasks: x, Start: start, End: end})
		comm[t.To] = append(comm[t.To], Op{Proc: t.To, Kind: Recv, Peer: t.From, Tasks: x, Start: start, End: end})
		commEnd = max(commEnd, end)
	}
	// Its computation, as pieces of the quota: in the gaps when the round
	// is pipelined (the tasks are the previous round's, all held), else
	// after the last transfer.
	comp = make([][]piece, p)
	for i := range p {
		gamma := in.Gamma(i)
		quota := final[i] / fR
		left, now := quota, 0.0
		for _, op := range comm[i] {
			if gap := op.Start - now; pipelined && gap > 0 && left > 0 {
				x := min(left, gap/gamma)
				// A piece sized to fill the gap must not overlap the
				// transfer by rounding.
				comp[i] = append(comp[i], piece{now, min(op.Start, now+x*gamma), x})
				left -= x
			}
			now = op.End
		}
		if left > 0 {
			comp[i] = append(comp[i], piece{now, now + left*gamma, left})
			now += left * gamma
		}
		period = max(period, now)
	}
	return comm, comp, period, commEnd
}

// paperMakespan is the makespan of the Paper schedule without building it
// (ChooseRounds tries many R): R·Period plus the longest last quota when
// pipelined, the Period for one round, R·Period when nothing moves.
func paperMakespan(in Instance, final []float64, tr []Transfer, order []int, R int) float64 {
	_, _, period, _ := paperTemplate(in, final, tr, order, R)
	if len(tr) == 0 || R == 1 {
		return float64(R) * period
	}
	var m float64
	for i, f := range final {
		if q := f / float64(R); q > 0 {
			m = max(m, float64(R)*period+q*in.Gamma(i))
		}
	}
	return m
}

func paperRounds(in Instance, s *Schedule, tr []Transfer, order []int) {
	p, R := s.Procs, s.R
	pipelined := len(tr) > 0 && R > 1
	comm, comp, period, commEnd := paperTemplate(in, s.Final, tr, order, R)

	if !pipelined {
		// R = 1 with transfers: the one round, its transfers then its
		// computation. No transfers: R compute-only rounds at the period.
		s.Period = period
		for i := range p {
			s.Ops = append(s.Ops, comm[i]...)
			for k := range R {
				off, next := float64(k)*period, float64(k+1)*period
				for _, c := range comp[i] {
					if c.tasks > 0 {
						s.Ops = append(s.Ops, Op{Proc: i, Kind: Compute, Peer: -1, Round: k, Tasks: c.tasks, Start: min(off+c.start, next), End: min(off+c.end, next)})
					}
				}
			}
		}
		for k := range R {
			s.Boundaries = append(s.Boundaries, float64(k)*period)
		}
		if len(tr) > 0 {
			s.RoundEnd[0] = commEnd
		}
		s.finish()
		return
	}

	s.Period = period
	for k := range R {
		off := float64(k) * period
		s.RoundStart[k], s.RoundEnd[k] = off, min(off+commEnd, float64(k+1)*period)
	}
	for k := range R + 1 {
		s.Boundaries = append(s.Boundaries, float64(k)*period)
	}
	for i := range p {
		for k := range R + 1 {
			off, next := float64(k)*period, float64(k+1)*period
			// (k+1)·L and k·L + L may differ in the last bit: a round's
			// operations end by the next round's start.
			at := func(x float64) float64 { return min(off+x, next) }
			// Transfers of round k (none in round R) and computation of
			// round k−1's tasks (none in round 0), merged in time order.
			var ops []Op
			if k < R {
				for _, op := range comm[i] {
					op.Round, op.Start, op.End = k, at(op.Start), at(op.End)
					ops = append(ops, op)
				}
			}
			if k > 0 {
				if k < R {
					for _, c := range comp[i] {
						if c.tasks > 0 {
							ops = append(ops, Op{Proc: i, Kind: Compute, Peer: -1, Round: k - 1, Tasks: c.tasks, Start: at(c.start), End: at(c.end)})
						}
					}
				} else if q := s.Final[i] / float64(R); q > 0 {
					ops = append(ops, Op{Proc: i, Kind: Compute, Peer: -1, Round: R - 1, Tasks: q, Start: off, End: off + q*in.Gamma(i)})
				}
			}
			permsort.SortStableFunc(ops, func(a, b Op) int { return cmpF(a.Start, b.Start) })
			s.Ops = append(s.Ops, ops...)
		}
	}
	s.finish()
}

// finish sets the makespan: when the last operation ends.
func (s *Schedule) finish() {
	for _, op := range s.Ops {
		s.Makespan = max(s.Makespan, op.End)
	}
}

// computer appends the Compute ops of one processor, cut at multiples of
// its round quota so that each op belongs to one round.
type computer struct {
	s       *Schedule
	proc, R int
	gamma   float64
	quota   float64
}

// run computes x tasks from time start, done tasks having been computed,
// ending by limit.
// Every piece ends at start + (tasks so far)·γ, not at a running sum, so
// the last piece ends exactly x·γ after start.
func (c *computer) run(start, done, x, limit float64) {
	if x <= 0 {
		return
	}
	d0, end, from := done, done+x, start
	for done < end {
		k := c.R - 1
		if c.quota > 0 {
			k = min(int(done/c.quota), c.R-1)
		}
		upto := end
		if k < c.R-1 {
			upto = min(end, float64(k+1)*c.quota)
		}
		if upto <= done { // done sits on a boundary by rounding
			k = min(k+1, c.R-1)
			upto = end
			if k < c.R-1 {
				upto = min(end, float64(k+1)*c.quota)
			}
		}
		// limit is the next transfer's start: x was sized to fit the gap,
		// and rounding must not make it overlap.
		to := min(limit, start+(upto-d0)*c.gamma)
		c.s.Ops = append(c.s.Ops, Op{Proc: c.proc, Kind: Compute, Peer: -1, Round: k, Tasks: upto - done, Start: from, End: to})
		from, done = to, upto
	}
}

// transfersOf returns st's transfers, from Flow when Transfers is nil.
func transfersOf(st Steady, p int) ([]Transfer, error) {
	tr := st.Transfers
	if tr == nil && st.Flow != nil {
		if len(st.Flow) != p {
			return nil, errf.Errorf("mmdl: the flow matrix has %d rows for %d processors", len(st.Flow), p)
		}
		for i, row := range st.Flow {
			if len(row) != p {
				return nil, errf.Errorf("mmdl: flow row %d has %d entries for %d processors", i, len(row), p)
			}
			for j, x := range row {
				if x > 0 && i != j {
					tr = append(tr, Transfer{From: i, To: j, Tasks: x})
				}
			}
		}
	}
	for _, t := range tr {
		if t.From < 0 || t.From >= p || t.To < 0 || t.To >= p || t.From == t.To || !(t.Tasks >= 0) || math.IsInf(t.Tasks, 0) {
			return nil, errf.Errorf("mmdl: transfer %d -> %d of %g tasks is not a flow between two of the %d processors", t.From, t.To, t.Tasks, p)
		}
	}
	return tr, nil
}

// colourOrder gives each transfer the smallest colour free at both ends,
// largest transfers first (a greedy edge colouring: every colour is a
// matching, so its transfers can all run at once), and returns the
// transfers sorted by colour, with the largest degree of the flow graph.
func colourOrder(tr []Transfer, p int) ([]int, int) {
	idx := make([]int, len(tr))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmpF(tr[b].Tasks, tr[a].Tasks) })
	used := make([][]int, p)
	colour := make([]int, len(tr))
	deg := make([]int, p)
	maxDeg := 0
	for _, e := range idx {
		t := tr[e]
		c := 0
		for slices.Contains(used[t.From], c) || slices.Contains(used[t.To], c) {
			c++
		}
		colour[e] = c
		used[t.From] = append(used[t.From], c)
		used[t.To] = append(used[t.To], c)
		deg[t.From]++
		deg[t.To]++
		maxDeg = max(maxDeg, deg[t.From], deg[t.To])
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if colour[a] != colour[b] {
			return colour[a] - colour[b]
		}
		return a - b
	})
	return idx, maxDeg
}

// ChooseRounds lets the scheduler pick R for sched: it simulates a geometric grid of
// round counts from 1 to 4·R* (capped at MaxChooseRounds), then every R
// between the best grid point's neighbours, and keeps the shortest makespan
// (the smallest R on ties).
func ChooseRounds(in Instance, st Steady, sched Sched) (int, *Schedule, error) {
	return ChooseRoundsProgress(in, st, sched, nil)
}

// ChooseRoundsProgress is ChooseRounds telling pr the fraction done after
// every schedule it tries (the grid's share weighted by R, a schedule's
// cost growing with its rounds; the refinement around the best the last
// fifth). An error pr returns stops the search and comes back.
func ChooseRoundsProgress(in Instance, st Steady, sched Sched, pr progress.Func) (int, *Schedule, error) {
	hi := min(MaxChooseRounds, max(16, 4*OptimalRounds(st.T, in.Latency)))
	grid := []int{1}
	for r := 1; r < hi; {
		r = min(hi, max(r+1, int(float64(r)*1.25)))
		grid = append(grid, r)
	}
	// The paper's makespan has a closed form in its steady round: try R
	// without building the schedule, then build the best.
	var fast func(R int) float64
	if sched == Paper {
		if _, err := Rounds(in, st, 1, sched); err != nil { // validates in and st
			return 0, nil, err
		}
		tr, _ := transfersOf(st, len(in.MHz))
		final := FinalLoads(in.Tasks, tr)
		for i, f := range final {
			final[i] = max(0, f)
		}
		order, _ := colourOrder(tr, len(in.MHz))
		fast = func(R int) float64 { return paperMakespan(in, final, tr, order, R) }
	}
	best := (*Schedule)(nil)
	try := func(r int) error {
		var s *Schedule
		if fast != nil {
			s = &Schedule{R: r, Makespan: fast(r)}
		} else {
			var err error
			if s, err = Rounds(in, st, r, sched); err != nil {
				return err
			}
		}
		// Makespans within 10^-12 are the same up to rounding: keep the
		// fewer rounds.
		tol := 1e-12 * s.Makespan
		if best == nil || s.Makespan < best.Makespan-tol || (s.Makespan <= best.Makespan+tol && r < best.R) {
			best = s
		}
		return nil
	}
	gridWork, done := 0.0, 0.0
	for _, r := range grid {
		gridWork += float64(r)
	}
	for _, r := range grid {
		if err := try(r); err != nil {
			return 0, nil, err
		}
		done += float64(r)
		if err := pr.Report(0.8 * done / gridWork); err != nil {
			return 0, nil, err
		}
	}
	k := slices.Index(grid, best.R)
	lo, up := grid[max(0, k-1)], grid[min(len(grid)-1, k+1)]
	for r := lo + 1; r < up; r++ {
		if r != best.R {
			if err := try(r); err != nil {
				return 0, nil, err
			}
			if err := pr.Report(0.8 + 0.2*float64(r-lo)/float64(up-lo)); err != nil {
				return 0, nil, err
			}
		}
	}
	if fast != nil {
		s, err := Rounds(in, st, best.R, sched)
		return best.R, s, err
	}
	return best.R, best, nil
}

// MaxChooseRounds bounds ChooseRounds' search (reached only when α is tiny).
const MaxChooseRounds = 2000

// Trace returns the schedule as a trace: a lane per processor, Send,
// Receive and Compute spans with Step = round, Idle spans for every wait
// up to the makespan, a message per transfer, and a "round k" marker
// (k from 1) on every lane where round k's first transfer starts.
func (s *Schedule) Trace() *trace.Trace {
	t := trace.New("mmdl", s.Procs, func(i int) string { return fmt.Sprintf("P%d", i) })
	last := make([]float64, s.Procs)
	kinds := [...]trace.Kind{Send: trace.Send, Recv: trace.Receive, Compute: trace.Compute}
	for _, op := range s.Ops {
		t.AddSpan(op.Proc, trace.Idle, last[op.Proc], op.Start, op.Round, "")
		label := fmt.Sprintf("%.6g tasks", op.Tasks)
		if op.Kind != Compute {
			label = fmt.Sprintf("%s P%d: %s", op.Kind, op.Peer, label)
		}
		t.AddSpan(op.Proc, kinds[op.Kind], op.Start, op.End, op.Round, label)
		last[op.Proc] = op.End
		if op.Kind == Send {
			t.AddMessage(trace.Message{From: op.Proc, To: op.Peer, Send: op.Start, Arrive: op.End, Step: op.Round, Class: "tasks", Used: true})
		}
	}
	for i := range s.Procs {
		t.AddSpan(i, trace.Idle, last[i], s.Makespan, s.R-1, "")
	}
	if len(s.Ops) > 0 {
		for k, b := range s.Boundaries {
			for i := range s.Procs {
				t.AddMarker(i, b, fmt.Sprintf("round %d", k+1))
			}
		}
	}
	t.Sort()
	return t
}
