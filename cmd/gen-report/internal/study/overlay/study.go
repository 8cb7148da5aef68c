package overlay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study"
	engine "commlab/engine/overlay"
	"commlab/engine/stats"
	"commlab/engine/sweep"
	"commlab/engine/topology"
)

// Study is paper 004's study (topology inference, sparse connections and shortcuts): gen-report's eval overlay and
// the overlay page.
type Study struct{}

func (Study) Name() string { return "overlay" }

func (Study) Eval(stdout, stderr io.Writer, args []string) error {
	return evalOverlay(stdout, stderr, args)
}

// Sweep lays out the study: every Integer Sort run (Fig. 5's cells, the
// cost sweep's and the readings', each over the study's seeds) is a point,
// a run two of them share laid out once. The measurement side (Fig. 4,
// the inferred trees, the plans' scaling, the reuse distances) takes well
// under a second and is computed where the page is built.
func (Study) Sweep(cfg study.Config) (study.Sweep, error) {
	return newOverlayStudy(cfg.Full, cfg.Seed), nil
}

// overlayStudy is the paper-004 study (specs/connections.md): Fig. 4 (the
// sorted RTTs one node sees), Fig. 5 (Integer Sort under the connection
// policies and shortcut cache sizes, for each reading of what a shortcut
// can carry), the inferred against the true tree, and the measurement
// plans for thousands of nodes that the paper leaves to future work.
type overlayStudy struct {
	Full bool
	Seed uint64

	is     engine.Params // the experiment (Section 4.2), with the grid's iterations
	chunks []int         // Fig. 5's key message granularity, bytes (0: whole messages)
	caches []int         // Fig. 5's shortcut cache sizes
	seeds  int           // runs per cell: trial t of every cell sorts the same keys
	net    topology.Net  // the measurement model
	scale  []overlayScalePoint

	costs      []ovlCostCell // the cost sweep's select() and set-up costs
	sweepCache int           // the topology-aware bar the cost sweep and the readings set against "all"

	runs  []isRun       // every distinct run, in the order laid out
	index map[isRun]int // a run's place in runs
}

// overlayScalePoint is one cluster of the measurement-plan sweep: a
// symmetric switch tree.
type overlayScalePoint struct {
	Levels, Fanout, PerLeaf int
}

// The random streams of the study, one point index each of sweep.RNG.
// Every Integer Sort run of trial t draws from sweep.RNG(seed, ovlRNGIS,
// t), whatever its configuration (common random numbers: one trial's
// cells sort the same keys, so their differences are paired), and the
// overlay scene at the report's seed draws from the stream of trial 0
// (scene.RNG(seed, 0) is sweep.RNG(seed, 0, 0)).
const (
	ovlRNGIS = iota
	ovlRNGFig4
	ovlRNGTrees
	ovlRNGReuse = 200 // the reuse distances
)

// ovlPerLeaf is the scalability sweep's nodes per leaf switch, the
// paper's 14 rounded to a power of two so that N doubles along the axis.
const ovlPerLeaf = 16

func newOverlayStudy(full bool, seed uint64) *overlayStudy {
	s := &overlayStudy{Full: full, Seed: seed, is: engine.Default(), net: topology.DefaultNet(), seeds: 3, sweepCache: 4}
	s.is.Cache = 0 // set per cell
	maxLevels := 7 // 16 · 2^6 = 1,024 nodes
	def := ovlCostCell{s.is.PollPerConn, s.is.HandshakeCPU}
	s.chunks = []int{0, 256}
	// One iteration in both grids: the full report's share for this study
	// is about 40 CPU-s (docs/overlay.md measures it), and 256 B chunks
	// cost five times whole messages; the 10-iteration grid of
	// docs/overlay.md (TestFig5Grid) gives the same relations.
	if full {
		s.caches = []int{0, 1, 4, 8, 16}
		s.is.Iterations = 1
		maxLevels = 9 // 4,096 nodes
		s.costs = []ovlCostCell{{0, def.hs}, def, {2.4e-6, def.hs}, {def.poll, 0}, {def.poll, 200e-6}}
	} else {
		s.caches = []int{0, 4, 16}
		s.is.Iterations = 1
		s.costs = []ovlCostCell{def, {2.4e-6, def.hs}}
	}
	for l := 2; l <= maxLevels; l++ {
		s.scale = append(s.scale, overlayScalePoint{Levels: l, Fanout: 2, PerLeaf: ovlPerLeaf})
	}
	s.layOut()
	return s
}

// isRun is one Integer Sort run of the sweep: its parameters and its
// trial, which names its random stream, sweep.RNG(seed, ovlRNGIS, trial).
type isRun struct {
	p     engine.Params
	trial int
}

// isResult is what the page needs of a run: engine.Result without its
// events.
type isResult = engine.Result

// layOut lists every distinct run: Fig. 5's cells, then the cost sweep's
// ("all" and topology-aware with the sweep's cache per cell and chunk
// size), then the readings' (topology C = 0, topology with the sweep's
// cache, all, per reading), each over the seeds. A run two of them share
// (Fig. 5's "all" is the cost sweep's at the default costs) is laid out
// once, so the page shows one number for one configuration.
func (s *overlayStudy) layOut() {
	s.runs, s.index = nil, map[isRun]int{}
	add := func(p engine.Params) {
		for t := range s.seeds {
			r := isRun{p, t}
			if _, ok := s.index[r]; !ok {
				s.index[r] = len(s.runs)
				s.runs = append(s.runs, r)
			}
		}
	}
	for _, c := range s.fig5Cells() {
		add(s.cellParams(c))
	}
	for _, c := range s.costRuns() {
		add(c.all)
		add(c.topo)
	}
	for _, rd := range ovlReadings {
		for _, p := range s.readingParams(rd) {
			add(p)
		}
	}
}

// bar gathers the runs of configuration p over the seeds.
func (s *overlayStudy) bar(c ovlCell, p engine.Params, res []isResult) ovlBar {
	b := ovlBar{Cell: c, Runs: make([]isResult, s.seeds)}
	for t := range s.seeds {
		b.Runs[t] = res[s.index[isRun{p, t}]]
	}
	return b
}

// Fingerprint names the grid.
func (s *overlayStudy) Fingerprint() string {
	return fmt.Sprintf("overlay/v2 full=%t seed=%d runs=%d chunks=%v caches=%v seeds=%d iterations=%d costs=%v",
		s.Full, s.Seed, len(s.runs), s.chunks, s.caches, s.seeds, s.is.Iterations, s.costs)
}

// Costs are engine/overlay's estimates of each run.
func (s *overlayStudy) Costs() []float64 {
	c := make([]float64, len(s.runs))
	for i, r := range s.runs {
		c[i] = engine.Estimate(r.p, false).Seconds
	}
	return c
}

// Run runs the owned Integer Sort runs over the cores.
func (s *overlayStudy) Run(ctx context.Context, owned []bool, progress func(done, total float64)) ([]json.RawMessage, error) {
	return study.RunPoints(ctx, owned, s.Costs(), progress, func(i int) (isResult, error) {
		r := s.runs[i]
		res, err := engine.RunIS(r.p, sweep.RNG(s.Seed, ovlRNGIS, r.trial), nil)
		if err != nil {
			return res, fmt.Errorf("overlay: run %d (%s, cache %d, %s handshake, chunk_bytes %d, %d switches, trial %d): %w",
				i, r.p.Policy, r.p.Cache, r.p.Handshake, r.p.ChunkBytes, r.p.Switches, r.trial, err)
		}
		res.Events = nil // the page needs the counters only
		return res, nil
	})
}

var _ study.TrialCounter = (*overlayStudy)(nil) // gen-report status counts its trials

// PointTrials is 1: every point is one Integer Sort run of one seed's
// draws (a Fig. 5 cell's seeds are points of their own).
func (s *overlayStudy) PointTrials(int, json.RawMessage) (int, error) { return 1, nil }

// Page builds the page from every run's result and the measurement side.
func (s *overlayStudy) Page(raw []json.RawMessage) (report.Page, error) {
	r, err := s.results(raw)
	if err != nil {
		return report.Page{}, err
	}
	return s.page(r), nil
}

// results decodes every run's result (vetting what a shard file holds)
// and computes the measurement side.
func (s *overlayStudy) results(raw []json.RawMessage) (*overlayResults, error) {
	if len(raw) != len(s.runs) {
		return nil, fmt.Errorf("overlay: %d results for %d runs", len(raw), len(s.runs))
	}
	res, err := study.Decode(raw, func(_ int, r isResult) error {
		for _, f := range []struct {
			what string
			v    float64
		}{{"time_s", r.Time}, {"conn_mean", r.ConnMean}, {"conn_max", r.ConnMax}, {"static_mean", r.StaticMean}, {"static_max", r.StaticMax},
			{"buffer_bytes", r.BufferBytes}, {"buffer_mean_bytes", r.BufferMean}} {
			if err := study.NonNegative(f.what, f.v); err != nil {
				return err
			}
		}
		if !(r.Time > 0) {
			return fmt.Errorf("time_s is %v, want > 0: every sort takes time", r.Time)
		}
		if r.Messages < 0 || r.Relayed < 0 || r.Relayed > r.Messages || r.ShortcutsOpened < 0 || r.Evicted < 0 || r.Evicted > r.ShortcutsOpened {
			return fmt.Errorf("counts messages %d, relayed %d, opened %d, evicted %d: want 0 ≤ relayed ≤ messages and 0 ≤ evicted ≤ opened",
				r.Messages, r.Relayed, r.ShortcutsOpened, r.Evicted)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r := &overlayResults{}
	if r.Fig4, err = s.fig4(); err != nil {
		return nil, err
	}
	if r.Trees, err = s.trees(); err != nil {
		return nil, err
	}
	if r.Scale, err = s.scaling(); err != nil {
		return nil, err
	}
	if r.Reuse, err = s.reuse(); err != nil {
		return nil, err
	}
	var bars []ovlBar
	for _, c := range s.fig5Cells() {
		bars = append(bars, s.bar(c, s.cellParams(c), res))
	}
	if r.Fig5, err = newFig5(bars); err != nil {
		return nil, err
	}
	for _, c := range s.costRuns() {
		r.Costs = append(r.Costs, ovlCost{Poll: c.cell.poll, Handshake: c.cell.hs, Chunk: c.chunk,
			All:  s.bar(ovlCell{c.chunk, engine.All, 0, engine.HandshakeKernel}, c.all, res),
			Topo: s.bar(ovlCell{c.chunk, engine.Topology, s.sweepCache, engine.HandshakeKernel}, c.topo, res)})
	}
	for _, rd := range ovlReadings {
		ps := s.readingParams(rd)
		o := ovlReading{Name: rd.name, Leaves: rd.switches,
			C0:  s.bar(ovlCell{0, engine.Topology, 0, engine.HandshakeKernel}, ps[0], res),
			CC:  s.bar(ovlCell{0, engine.Topology, s.sweepCache, engine.HandshakeKernel}, ps[1], res),
			All: s.bar(ovlCell{0, engine.All, 0, engine.HandshakeKernel}, ps[2], res)}
		o.StaticMax = int(o.C0.Runs[0].StaticMax)
		r.Readings = append(r.Readings, o)
	}
	return r, nil
}

// ovlTree is one cluster inferred from simulated measurements.
type ovlTree struct {
	Name           string
	True, Inferred *topology.Tree
	Plan           topology.Plan
	Leaves         int // leaf switches inferred from the RTTs
	Iso            bool
}

// ovlFig4 is one node's sorted RTTs on the paper's cluster.
type ovlFig4 struct {
	Node     string
	Sorted   []float64 // µs, to the other N−1 nodes, ascending
	GapAfter int       // the first jump that stands out: between the GapAfter-th and the next (1-based)
	Group    int       // the node's leaf-switch group size the inference found (all views combined)
	PerLeaf  int       // the true nodes per switch
}

// ovlScale is one N of the measurement-plan sweep.
type ovlScale struct {
	N, Leaves       int
	Naive, Scalable topology.MeasurePlan
}

type overlayResults struct {
	Fig4     ovlFig4
	Fig5     ovlFig5
	Trees    []ovlTree
	Scale    []ovlScale
	Reuse    []ovlReuse
	Costs    []ovlCost
	Readings []ovlReading
}

// ovlReuse is the reuse-distance distribution of one exchange pattern.
type ovlReuse struct {
	Name  string
	Chunk int
	Reuse engine.Reuse
}

// ovlCost is one cell of the cost sweep at one chunk size: "all" against
// topology-aware connections with the sweep's cache, at one select() and
// set-up cost, over the seeds.
type ovlCost struct {
	Poll, Handshake float64
	Chunk           int
	All, Topo       ovlBar
}

// ovlReading is one reading of the experiment's "6 switches".
type ovlReading struct {
	Name              string
	Leaves, StaticMax int
	C0, CC, All       ovlBar // topology C = 0, topology with the sweep's cache, all
}

// reuse computes the reuse distances of the experiment's messages for the
// exchange patterns, whole and in chunks.
func (s *overlayStudy) reuse() ([]ovlReuse, error) {
	var out []ovlReuse
	for _, c := range []struct {
		name  string
		pat   engine.Pattern
		chunk int
	}{
		{"shift, whole messages (the model's default)", engine.PatternShift, 0},
		{"pairwise, whole messages", engine.PatternPairwise, 0},
		{"random order, whole messages", engine.PatternRandom, 0},
		{"shift, 1 KiB chunks", engine.PatternShift, 1024},
		{"shift, 256 B chunks", engine.PatternShift, 256},
	} {
		p := s.is
		p.Pattern, p.ChunkBytes = c.pat, c.chunk
		r, err := engine.ReuseDistances(p, sweep.RNG(s.Seed, ovlRNGReuse, 0))
		if err != nil {
			return nil, fmt.Errorf("overlay: reuse distances: %w", err)
		}
		out = append(out, ovlReuse{Name: c.name, Chunk: c.chunk, Reuse: r})
	}
	return out, nil
}

// ovlCostCell is one cell of the cost sweep: a select() cost per
// descriptor and a set-up cost per end (s).
type ovlCostCell struct {
	poll, hs float64
}

// ovlCostRun is one cell of the cost sweep at one chunk size: its "all"
// and its topology-aware run's parameters.
type ovlCostRun struct {
	cell      ovlCostCell
	chunk     int
	all, topo engine.Params
}

// costRuns are the cost sweep's cells: "all" against topology-aware
// connections with the sweep's cache under the kernel's handshake, every
// cost with whole messages and the default costs at every chunk size of
// Fig. 5 (those are Fig. 5's runs).
func (s *overlayStudy) costRuns() []ovlCostRun {
	var out []ovlCostRun
	def := ovlCostCell{s.is.PollPerConn, s.is.HandshakeCPU}
	for _, chunk := range s.chunks {
		for _, c := range s.costs {
			if chunk != 0 && c != def {
				continue // chunks cost 5× whole messages: away from the defaults, whole messages only
			}
			all := s.cellParams(ovlCell{chunk, engine.All, 0, engine.HandshakeKernel})
			topo := s.cellParams(ovlCell{chunk, engine.Topology, s.sweepCache, engine.HandshakeKernel})
			all.PollPerConn, all.HandshakeCPU = c.poll, c.hs
			topo.PollPerConn, topo.HandshakeCPU = c.poll, c.hs
			out = append(out, ovlCostRun{c, chunk, all, topo})
		}
	}
	return out
}

// ovlReadings are the two readings of the experiment's "6 switches".
var ovlReadings = []ovlSwitchReading{
	{"6 leaf switches, nodes spread evenly (11, 11, 11, 11, 10, 10)", 6, 0},
	{"5 leaf switches of the cluster's 14 nodes (14, 14, 14, 14, 8) under 1 upper switch", 5, 14},
}

// ovlSwitchReading is one reading of the experiment's switches.
type ovlSwitchReading struct {
	name           string
	switches, fill int
}

// readingParams are a reading's runs, whole messages: topology-aware
// with C = 0, with the sweep's cache, and "all".
func (s *overlayStudy) readingParams(rd ovlSwitchReading) [3]engine.Params {
	var out [3]engine.Params
	for k, c := range []ovlCell{{0, engine.Topology, 0, engine.HandshakeKernel}, {0, engine.Topology, s.sweepCache, engine.HandshakeKernel}, {0, engine.All, 0, engine.HandshakeKernel}} {
		p := s.cellParams(c)
		p.Switches, p.Fill = rd.switches, rd.fill
		out[k] = p
	}
	return out
}

// fig4 measures the paper's cluster and sorts node 0's RTTs.
func (s *overlayStudy) fig4() (ovlFig4, error) {
	t := topology.PaperCluster()
	rtt := topology.MeasureRTT(t, s.net, sweep.RNG(s.Seed, ovlRNGFig4, 0))
	const node = 0
	var row []float64
	for v, x := range rtt[node] {
		if v != node {
			row = append(row, x)
		}
	}
	slices.Sort(row)
	leaves, err := topology.InferLeaves(rtt)
	if err != nil {
		return ovlFig4{}, fmt.Errorf("overlay: Fig. 4: %w", err)
	}
	f := ovlFig4{Node: t.Nodes[node], Sorted: row, GapAfter: firstJump(row), PerLeaf: len(t.Switches[t.Leaf(node)].Nodes)}
	for _, g := range leaves {
		if slices.Contains(g, node) {
			f.Group = len(g)
		}
	}
	return f, nil
}

// firstJump is the paper's reading of Fig. 4: where the sorted RTTs first
// jump. A deeper tree adds a jump per level, all of about the same height
// (a level adds the same hops), so the largest step is not the answer;
// the first step above half the largest is, and noise steps stay well
// under that. It returns k for a jump between the k-th and (k+1)-th
// value, 1-based; 0 when there are fewer than two values.
func firstJump(sorted []float64) int {
	var big float64
	for i := 1; i < len(sorted); i++ {
		big = max(big, sorted[i]-sorted[i-1])
	}
	for i := 1; i < len(sorted); i++ {
		if big > 0 && sorted[i]-sorted[i-1] > big/2 {
			return i
		}
	}
	return 0
}

// trees infers the paper's two clusters and a random tree with leaves at
// different depths from simulated measurements.
func (s *overlayStudy) trees() ([]ovlTree, error) {
	rng := sweep.RNG(s.Seed, ovlRNGTrees, 0)
	cases := []struct {
		name string
		t    *topology.Tree
	}{
		{"the paper's experiment", topology.PaperExperiment()},
		{"the paper's cluster", topology.PaperCluster()},
		{"a random tree", topology.Random(rng, 96)},
	}
	var out []ovlTree
	for _, c := range cases {
		rtt := topology.MeasureRTT(c.t, s.net, rng)
		leaves, err := topology.InferLeaves(rtt)
		if err != nil {
			return nil, fmt.Errorf("overlay: %s: %w", c.name, err)
		}
		inf, plan, err := topology.InferTree(c.t.Nodes, leaves, topology.Measured{T: c.t})
		if err != nil {
			return nil, fmt.Errorf("overlay: %s: %w", c.name, err)
		}
		out = append(out, ovlTree{Name: c.name, True: c.t, Inferred: inf, Plan: plan, Leaves: len(leaves), Iso: topology.Isomorphic(c.t, inf)})
	}
	return out, nil
}

// scaling counts the measurements of the naive and the scalable plan on
// symmetric trees of growing N.
func (s *overlayStudy) scaling() ([]ovlScale, error) {
	var out []ovlScale
	for _, p := range s.scale {
		t, err := topology.Generate(p.Levels, p.Fanout, p.PerLeaf)
		if err != nil {
			return nil, fmt.Errorf("overlay: scaling: %w", err)
		}
		leaves := 0
		for _, sw := range t.Switches {
			if len(sw.Nodes) > 0 {
				leaves++
			}
		}
		out = append(out, ovlScale{N: len(t.Nodes), Leaves: leaves, Naive: topology.NaivePlan(t, s.net), Scalable: topology.ScalablePlan(t, s.net)})
	}
	return out, nil
}

// page builds the paper-004 report page.
func (s *overlayStudy) page(r *overlayResults) report.Page {
	mode := "full grids"
	if !s.Full {
		mode = "quick grids (make report regenerates the full grids)"
	}
	p := report.Page{
		File:     "overlay.html",
		Title:    "Dynamic connection management: topology inference, sparse connections and shortcuts",
		Subtitle: "Paper 004 (Phoenix message passing on a 112-node cluster): Fig. 4 and 5 regenerated, the inferred against the true switch tree, and the measurement plans for thousands of nodes the paper leaves to future work, " + mode,
		Intro: strings.Join([]string{
			"Processes of a cluster connect only to the processes on their own leaf switch and to one process of every other switch, relay the rest of their messages, and open a direct connection (a shortcut) after a relayed message, at most C of them, closing the least recently used. The switch tree comes from measurements: the RTT jump tells which nodes share a leaf switch, and which transfers halve each other's throughput tells how the switches hang together (the paper's Fig. 1). Model as in specs/connections.md: engine/topology simulates the measurements and infers the tree, engine/overlay the connections and NAS Integer Sort on the discrete-event core. gen-report topology measure|infer and gen-report eval overlay run one point.",
			fmt.Sprintf("Measurement model (engine/topology defaults): RTT = %g µs + %g µs per switch hop + noise of scale %g µs, the minimum of %d pings. Integer Sort (engine/overlay defaults, the paper's experiment): %d processes on %d nodes over %d leaf switches, %d keys, %d timed iterations%s; link bandwidth %.3g MB/s, latency %g µs plus %g µs per switch, %g µs CPU per message, %g µs per open connection per message (select()), relay %g µs, handshake %g µs.",
				s.net.Base, s.net.HopLatency, s.net.Noise, s.net.Pings,
				s.is.Procs, s.is.Nodes, s.is.Switches, s.is.Keys, s.is.Iterations, s.itersNote(),
				s.is.Bandwidth/1e6, s.is.Latency*1e6, s.is.HopLatency*1e6, s.is.MsgCPU*1e6, s.is.PollPerConn*1e6, s.is.RelayCPU*1e6, s.is.HandshakeCPU*1e6),
			"Every chart links to its data as CSV and JSON.",
		}, "\n\n"),
	}
	readings, best := s.readingsTable(r.Fig5)
	var fig5Items []any
	for _, ch := range s.chunks {
		fig5Items = append(fig5Items, s.fig5Chart(r.Fig5, ch))
	}
	fig5Items = append(fig5Items,
		s.diffChart(r.Fig5, "overlay-fig5-vs0", "Shortcuts against none: topology-aware with C shortcuts against C = 0", "C = 0", s.caches[1:], func(d ovlDiffs) (stats.Interval, bool) { return d.VsC0, d.HasC0 }),
		s.diffChart(r.Fig5, "overlay-fig5-vsall", "Topology-aware against \"all\"", "\"all\"", s.caches, func(d ovlDiffs) (stats.Interval, bool) { return d.VsAll, d.HasAll }),
		s.diffChart(r.Fig5, "overlay-fig5-vsrandom", "Topology-aware against \"random\"", "\"random\"", s.caches, func(d ovlDiffs) (stats.Interval, bool) { return d.VsRandom, d.HasRandom }),
		s.fig5Conns(r.Fig5), s.fig5Table(r.Fig5), readings)
	p.Sections = append(p.Sections,
		report.Section{
			Title: "The paper's Fig. 4: the RTTs one node sees, sorted",
			Intro: "The paper's cluster: 112 nodes, 14 per leaf switch, the switches connected hierarchically. One node pings every other; its RTTs in ascending order stay flat over the nodes of its own switch and jump where the other switches begin (the paper: between the 13th and the 14th node). Further up the tree every level adds a jump of about the same height, so the inference takes the first jump that stands out from the noise, and combines all nodes' views.",
			Items: []any{s.fig4Chart(r.Fig4)},
		},
		report.Section{
			Title: "The paper's Fig. 5: Integer Sort under the connection policies, for each reading",
			Intro: s.fig5Intro(r, best),
			Items: fig5Items,
		},
		report.Section{
			Title: "Fig. 5 on the paper's mechanisms: when can a cache of C help, and when do shortcuts beat \"all\"",
			Intro: fmt.Sprintf("NPB IS exchanges, every iteration, the bucket sizes (an allreduce), the send counts (an all-to-all of one int) and then the keys (an all-to-all-v); each process posts the P−1 sends of an exchange at once, in the pattern's order. A shortcut helps only when its destination comes back before C other relayed destinations have pushed it out of the LRU cache: the reuse distance of the first table. Whole messages in any of the three orders come back only after about all other destinations, so no cache of C ≤ 16 can serve them; a message layer that splits messages into chunks sent one after another brings the destination back at once, and then even C = 1 serves 40 to 80 %% of them. Under the kernel's handshake (the default) the sender may use a shortcut one round trip after the relay that opened it (SYN out, SYN-ACK back), while its CPU is still working through the chunks it posted, so the later chunks of that message go direct; the far end uses it once it has accepted it. Whether serving wins depends on the chunk size: each shortcut costs 2 × %g µs of set-up and 2 × %g µs of teardown CPU and one more descriptor in every select() scan. The cost sweep sets topology-aware connections with C = %d against \"all\" for select() costs per descriptor and connection set-up costs (CPU per end, paid when each end's CPU gets to it; SYN, SYN-ACK and ACK each take the path's one-way latency) around the defaults, at every chunk size of Fig. 5, %d seeds and %d iteration(s) per run; the last table runs both readings of the experiment's \"6 switches\".",
				s.is.HandshakeCPU*1e6, s.is.TeardownCPU*1e6, s.sweepCache, s.seeds, s.is.Iterations),
			Items: []any{s.reuseTable(r.Reuse), sourcesTable(), s.costTable(r.Costs), s.readingTable(r.Readings)},
		},
		report.Section{
			Title: "The inferred against the true switch tree",
			Intro: "Each cluster is measured in simulation (RTTs with noise, interference from the paths' shared links), then inferred: leaf switches from the RTT jumps, the tree above them by the paper's Fig. 1. The tables put every true switch beside the inferred switch with the same nodes below it (switch numbers differ: the inference numbers the leaf switches first); whether the trees are the same as a whole is the isomorphism test of the summary table.",
			Items: s.treeItems(r.Trees),
		},
		report.Section{
			Title: "Beyond the paper: measurements for thousands of nodes",
			Intro: fmt.Sprintf("The paper measures every pair's RTT and the interference of switch pairs, one after another, and names its growth as future work. The scalable plan measures in parallel where the paths are disjoint and skips measurements that cannot change the answer. Symmetric trees of fan-out 2 with %d nodes per leaf switch, N = %d … %d; both axes are logarithmic (N doubles along X).",
				ovlPerLeaf, r.Scale[0].N, r.Scale[len(r.Scale)-1].N),
			Items: []any{s.scaleCount(r.Scale), s.scaleTime(r.Scale)},
		},
		report.Section{
			Title: "What the simulation says about the paper's findings",
			Items: []any{report.Findings{Items: overlayFindings(s, r)}},
		},
	)
	return p
}

// itersNote says why the runs are shorter than NPB's 10 timed iterations.
func (s *overlayStudy) itersNote() string {
	if s.is.Iterations == 10 {
		return ""
	}
	return " (NPB times 10; docs/overlay.md sets this grid against 10 iterations of 5 seeds)"
}

// fig5Intro says what the Fig. 5 section shows and which reading fits the
// paper's words best.
func (s *overlayStudy) fig5Intro(r *overlayResults, best string) string {
	return strings.Join([]string{
		fmt.Sprintf("Execution time of the sort with topology-aware static connections and a shortcut cache of C = %s, against all-to-all connections (\"all\") and %d random connections per process (\"random\"), for every reading of what a shortcut can carry: key messages whole or in %s chunks, and the TCP handshake completed by the kernel (the default: the sender may use a shortcut one round trip after the relay that opened it, so the later chunks of that message go direct) or by the application (behind the work queued at both ends: no message posted before the shortcut opened can use it). The paper says neither how Phoenix cut its messages nor when a shortcut became usable, only \"以降は\" (from then on, Section 3.2): docs/overlay.md gives the readings' sources.",
			cacheRange(s.caches), s.is.RandomDegree, chunkList(s.chunks)),
		fmt.Sprintf("Every cell runs %d seeds, %d iteration(s) each; the cells of one seed sort the same keys (common random numbers), so their differences are paired by seed: the bars give the means, the line charts the paired differences with Fieller's 95 %% interval of the ratio of the means as error bars, the table both. Verdicts rest on those intervals alone.", s.seeds, s.is.Iterations),
		fmt.Sprintf("The last table sets the readings side by side; the one under which most of the paper's Fig. 5 claims hold: %s. The study's default reading, under which the findings below judge the claims at each chunk size, is the kernel's handshake: it is what TCP does on the unmodified Linux the paper builds on (Section 1, \"TCPや OSの実装を改変することなしに\": the kernel answers a SYN and queues the established connection for accept(), Linux listen(2)), it is the only reading under which \"以降は\" (from then on) includes the later chunks of the message that opened a shortcut, and it is the only one under which the paper's Section 4.2 claims can hold together (the application's reading makes every cache slower than C = 0 at every chunk size). The chunk size is left open: the paper does not say how Phoenix cut its messages, so each gets its own findings.", best),
	}, "\n\n")
}

// chunkList writes the chunked sizes of the grid: "256 B".
func chunkList(chunks []int) string {
	var out []string
	for _, c := range chunks {
		if c > 0 {
			out = append(out, fmt.Sprintf("%d B", c))
		}
	}
	return strings.Join(out, " or ")
}

// cacheRange writes the cache grid: "0 … 16" when it is every integer.
func cacheRange(cs []int) string {
	if len(cs) > 2 && cs[len(cs)-1]-cs[0] == len(cs)-1 {
		return fmt.Sprintf("%d … %d", cs[0], cs[len(cs)-1])
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = strconv.Itoa(c)
	}
	return strings.Join(parts, ", ")
}

func (s *overlayStudy) fig4Chart(f ovlFig4) *report.LineChart {
	x := report.Axis{Name: "rank"}
	rtt := make([]float64, len(f.Sorted))
	gap := make([]float64, len(f.Sorted))
	for i, v := range f.Sorted {
		x.Labels = append(x.Labels, strconv.Itoa(i+1))
		x.Values = append(x.Values, float64(i+1))
		rtt[i] = v
		gap[i] = math.NaN()
	}
	if k := f.GapAfter; k > 0 {
		gap[k-1], gap[k] = f.Sorted[k-1], f.Sorted[k]
	}
	return &report.LineChart{
		ID: "overlay-fig4", Title: "Fig. 4: measured RTTs from one node, ascending",
		Caption: fmt.Sprintf("Node %s of the paper's cluster (112 nodes, %d per switch): its RTTs to the other %d nodes, each the minimum of %d pings, sorted. The marked segment is the first jump that stands out: between the %s and the %s node.",
			f.Node, f.PerLeaf, len(f.Sorted), s.net.Pings, ordinal(f.GapAfter), ordinal(f.GapAfter+1)),
		X: x, YName: "RTT (µs)", Digits: 4,
		Series: []report.Series{{Name: "RTT", Values: rtt}, {Name: "the jump to the other switches", Values: gap}},
	}
}

// ordinal writes 1st, 2nd, 3rd, 13th, 21st.
func ordinal(n int) string {
	suf := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suf = "st"
		case 2:
			suf = "nd"
		case 3:
			suf = "rd"
		}
	}
	return strconv.Itoa(n) + suf
}

// treeItems is a summary table of the inferred clusters and one
// side-by-side table per cluster.
func (s *overlayStudy) treeItems(trees []ovlTree) []any {
	sum := &report.Table{
		ID: "overlay-trees", Title: "Inferred clusters",
		Caption: "Per cluster: its size, the leaf switches found from the RTTs, the interference measurements the tree step consulted, and whether the inferred tree is isomorphic to the true one (the same switches with the same nodes below, up to the switches' numbering).",
		Header:  []string{"cluster", "nodes", "switches (true)", "switches (inferred)", "leaf switches inferred", "interference measurements", "isomorphic"},
	}
	items := []any{sum}
	for i, t := range trees {
		sum.Rows = append(sum.Rows, []string{t.Name, strconv.Itoa(len(t.True.Nodes)), strconv.Itoa(len(t.True.Switches)), strconv.Itoa(len(t.Inferred.Switches)),
			strconv.Itoa(t.Leaves), strconv.Itoa(len(t.Plan.Used)), yesNo(t.Iso)})
		items = append(items, treeTable(fmt.Sprintf("overlay-tree-%d", i+1), t))
	}
	return items
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// below is, per switch, the sorted node IDs in its subtree, as a key.
func below(t *topology.Tree) []string {
	sets := make([][]int, len(t.Switches))
	for i, sw := range t.Switches {
		for j := i; j >= 0; j = t.Switches[j].Parent {
			sets[j] = append(sets[j], sw.Nodes...)
		}
	}
	keys := make([]string, len(sets))
	for i, s := range sets {
		slices.Sort(s)
		keys[i] = fmt.Sprint(s)
	}
	return keys
}

// treeTable lists each true switch beside the inferred one with the same
// nodes below it. (A switch no measurement can see, one with a single
// child, has the same nodes below as its child, so it matches too.)
func treeTable(id string, t ovlTree) *report.Table {
	tb := &report.Table{
		ID: id, Title: "True and inferred switches: " + t.Name,
		Caption: fmt.Sprintf("%d nodes. A leaf switch lists its nodes, an inner one the switches under it. Each true switch is beside the inferred switch with the same nodes below it; parents are shown for reading, the isomorphism test above compares the trees as a whole.", len(t.True.Nodes)),
		Header:  []string{"true switch", "parent", "nodes or child switches", "inferred switch", "parent", "nodes or child switches", "same nodes below"},
	}
	tk, ik := below(t.True), below(t.Inferred)
	byKey := map[string]int{}
	for i, k := range ik {
		byKey[k] = i
	}
	used := map[int]bool{}
	for i, sw := range t.True.Switches {
		row := []string{switchName(i), parentName(sw.Parent), switchContents(t.True, i), "—", "", "", "no"}
		if j, ok := byKey[tk[i]]; ok {
			used[j] = true
			isw := t.Inferred.Switches[j]
			row[3], row[4], row[5], row[6] = switchName(j), parentName(isw.Parent), switchContents(t.Inferred, j), "yes"
		}
		tb.Rows = append(tb.Rows, row)
	}
	for j := range t.Inferred.Switches {
		if !used[j] {
			tb.Rows = append(tb.Rows, []string{"—", "", "", switchName(j), parentName(t.Inferred.Switches[j].Parent), switchContents(t.Inferred, j), "no"})
		}
	}
	return tb
}

func switchName(i int) string { return "s" + strconv.Itoa(i) }

func parentName(p int) string {
	if p < 0 {
		return "root"
	}
	return switchName(p)
}

// switchContents lists a leaf switch's nodes (runs of consecutive IDs
// written first–last) or an inner switch's children.
func switchContents(t *topology.Tree, i int) string {
	if ns := t.Switches[i].Nodes; len(ns) > 0 {
		ids := slices.Clone(ns)
		slices.Sort(ids)
		var parts []string
		for a := 0; a < len(ids); {
			b := a
			for b+1 < len(ids) && ids[b+1] == ids[b]+1 {
				b++
			}
			if b > a {
				parts = append(parts, t.Nodes[ids[a]]+"–"+t.Nodes[ids[b]])
			} else {
				parts = append(parts, t.Nodes[ids[a]])
			}
			a = b + 1
		}
		return strings.Join(parts, ", ")
	}
	var kids []string
	for j, sw := range t.Switches {
		if sw.Parent == i {
			kids = append(kids, switchName(j))
		}
	}
	return "switches " + strings.Join(kids, ", ")
}

func scaleAxis(sc []ovlScale) report.Axis {
	x := report.Axis{Name: "nodes N"}
	for _, p := range sc {
		x.Labels = append(x.Labels, strconv.Itoa(p.N))
		x.Values = append(x.Values, float64(p.N))
	}
	return x
}

func (s *overlayStudy) scaleCount(sc []ovlScale) *report.LineChart {
	naive, scal := make([]float64, len(sc)), make([]float64, len(sc))
	for i, p := range sc {
		naive[i], scal[i] = float64(p.Naive.Count), float64(p.Scalable.Count)
	}
	return &report.LineChart{
		ID: "overlay-scale-count", Title: "Measurements needed to infer the tree",
		Caption: "RTT and interference measurements together, by plan. Both axes logarithmic.",
		X:       scaleAxis(sc), YName: "measurements", YLog: true, Digits: 4,
		Series: []report.Series{{Name: "naive plan", Values: naive}, {Name: "scalable plan", Values: scal}},
	}
}

func (s *overlayStudy) scaleTime(sc []ovlScale) *report.LineChart {
	naive, scal := make([]float64, len(sc)), make([]float64, len(sc))
	for i, p := range sc {
		naive[i], scal[i] = p.Naive.Time/1e6, p.Scalable.Time/1e6 // µs to s
	}
	return &report.LineChart{
		ID: "overlay-scale-time", Title: "Simulated time to take the measurements",
		Caption: "The naive plan one measurement after another; the scalable plan runs measurements whose paths are disjoint at the same time. Both axes logarithmic.",
		X:       scaleAxis(sc), YName: "measurement time (s)", YLog: true, Digits: 4,
		Series: []report.Series{{Name: "naive plan", Values: naive}, {Name: "scalable plan", Values: scal}},
	}
}

// ovlReuseCaches are the cache sizes the reuse table shows.
var ovlReuseCaches = []int{1, 2, 4, 8, 16, 32}

func (s *overlayStudy) reuseTable(rs []ovlReuse) *report.Table {
	t := &report.Table{
		ID: "overlay-reuse", Title: "Reuse distance of relayed destinations against the cache size C",
		Caption: fmt.Sprintf("Per exchange pattern: the sends of the experiment's %d processes (%d iteration(s), keys as NPB draws them) to destinations without a static connection, and the share of them a cache of C shortcuts can serve (the destination sent to fewer than C other such destinations ago, the sender's own sends counted; first sends are misses). NPB IS class A messages carry about %d keys, %d bytes.",
			s.is.Procs, s.is.Iterations, s.is.Keys/s.is.Procs/s.is.Procs, int(float64(s.is.Keys/s.is.Procs/s.is.Procs)*s.is.KeyBytes)),
		Header: []string{"pattern", "sends", "first sends"},
	}
	for _, c := range ovlReuseCaches {
		t.Header = append(t.Header, fmt.Sprintf("C = %d", c))
	}
	for _, r := range rs {
		row := []string{r.Name, strconv.Itoa(r.Reuse.Sends), strconv.Itoa(r.Reuse.Cold)}
		for _, c := range ovlReuseCaches {
			row = append(row, fmt.Sprintf("%.1f %%", 100*r.Reuse.Hits(c)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// sourcesTable cites the defaults of the costs the sweep varies
// (engine.CostSources).
func sourcesTable() *report.Table {
	t := &report.Table{
		ID: "overlay-cost-sources", Title: "Where the cost defaults come from",
		Caption: "The paper's nodes (Section 4.2): Intel Xeon 2.4 GHz, 2 GB, Linux 2.4; it names the select() cost but gives neither number. Each default with its source and what the source says.",
		Header:  []string{"parameter", "default", "source", "what it says"},
	}
	for _, c := range engine.CostSources {
		t.Rows = append(t.Rows, []string{c.Field, c.Value, c.Source, c.Says})
	}
	return t
}

func (s *overlayStudy) costTable(cs []ovlCost) *report.Table {
	t := &report.Table{
		ID: "overlay-costs", Title: fmt.Sprintf("Cost sweep: topology-aware with C = %d against \"all\"", s.sweepCache),
		Caption: fmt.Sprintf("Execution time of %d iteration(s), mean over %d seeds with its 95 %% t-interval, at each select() cost per descriptor and connection set-up cost, kernel handshake; the difference is paired by seed (Fieller's 95 %% interval of the ratio of the means), and \"beats all\" says whether that interval lies wholly below 0 (\"yes\"), wholly above (\"no\") or reaches across (\"undecided\"). Defaults: %g µs per descriptor, %g µs set-up: those cells are Fig. 5's runs. A click on a row opens the overlay scene with the topology-aware configuration (at the scene's default costs).",
			s.is.Iterations, s.seeds, s.is.PollPerConn*1e6, s.is.HandshakeCPU*1e6),
		Header: []string{"key messages", "select() per descriptor (µs)", "set-up per end (µs)", "all (ms)", fmt.Sprintf("topology, C = %d (ms)", s.sweepCache), "difference", "beats all"},
	}
	for _, c := range cs {
		diff, beats := "—", "—"
		if iv, err := vs(c.Topo, c.All); err == nil {
			diff = fmtPct(iv)
			switch {
			case iv.Hi < 0:
				beats = "yes"
			case iv.Lo > 0:
				beats = "no"
			default:
				beats = "undecided"
			}
		}
		t.Rows = append(t.Rows, []string{chunkShort(c.Chunk), fmt.Sprintf("%g", c.Poll*1e6), fmt.Sprintf("%g", c.Handshake*1e6), msIv(c.All.time()), msIv(c.Topo.time()), diff, beats})
		title := fmt.Sprintf("the cost sweep's cell at select() %g µs per descriptor and set-up %g µs, %s: %s", c.Poll*1e6, c.Handshake*1e6, chunkName(c.Chunk), diff)
		if c.Poll != s.is.PollPerConn || c.Handshake != s.is.HandshakeCPU {
			title += "; the scene runs the default costs"
		}
		t.RowLinks = append(t.RowLinks, s.sceneLink(c.Topo.Cell, title))
	}
	return t
}

func (s *overlayStudy) readingTable(rs []ovlReading) *report.Table {
	t := &report.Table{
		ID: "overlay-readings", Title: "The experiment's \"6 switches\", read two ways",
		Caption: fmt.Sprintf("64 nodes, 128 processes, whole key messages, %d iteration(s), mean over %d seeds with its 95 %% t-interval; the last column paired by seed. The paper says the nodes span 6 switches and that there are at most 31 static connections per process; 5 leaf switches of 14 nodes (the cluster's) under one upper switch give exactly 31: 27 on the switch and one to each of the 4 others.", s.is.Iterations, s.seeds),
		Header:  []string{"reading", "leaf switches", "static connections, max", "topology C = 0 (ms)", fmt.Sprintf("topology C = %d (ms)", s.sweepCache), "all (ms)", "C = 0 against all"},
	}
	for _, r := range rs {
		diff := "—"
		if iv, err := vs(r.C0, r.All); err == nil {
			diff = fmtPct(iv)
		}
		t.Rows = append(t.Rows, []string{r.Name, strconv.Itoa(r.Leaves), strconv.Itoa(r.StaticMax), msIv(r.C0.time()), msIv(r.CC.time()), msIv(r.All.time()), diff})
	}
	return t
}

// ms converts seconds to milliseconds, the unit of Fig. 5.
func ms(t float64) float64 { return t * 1e3 }

func fmtMs(t float64) string { return fmt.Sprintf("%.3g ms", ms(t)) }
