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

// Sweep lays out the study: every Integer Sort run (Fig. 5's bars and
// trials, the cost sweep's cells, the readings of "6 switches") is a
// point. The measurement side (Fig. 4, the inferred trees, the plans'
// scaling, the reuse distances) takes well under a second and is
// computed where the page is built.
func (Study) Sweep(cfg study.Config) (study.Sweep, error) {
	return newOverlayStudy(cfg.Full, cfg.Seed), nil
}

// overlayStudy is the paper-004 study (specs/connections.md): Fig. 4 (the
// sorted RTTs one node sees), Fig. 5 (Integer Sort under the connection
// policies and shortcut cache sizes), the inferred against the true tree,
// and the measurement plans for thousands of nodes that the paper leaves
// to future work.
type overlayStudy struct {
	Full bool
	Seed uint64

	is     engine.Params // Fig. 5's experiment
	caches []int         // Fig. 5's shortcut cache sizes
	trials int           // IS runs per Fig. 5 bar (the key draws and the random policy's choice vary)
	net    topology.Net  // the measurement model
	scale  []overlayScalePoint

	polls      []float64 // select() cost per descriptor of the cost sweep, s
	handshakes []float64 // connection set-up CPU per end of the cost sweep, s
	sweepCache int       // the topology-aware bar the cost sweep sets against "all"
	sweepIters int       // iterations per run of the cost sweep and the readings
}

// overlayScalePoint is one cluster of the measurement-plan sweep: a
// symmetric switch tree.
type overlayScalePoint struct {
	Levels, Fanout, PerLeaf int
}

// The random streams of the study, one point index each of sweep.RNG.
const (
	ovlRNGFig4 = iota
	ovlRNGTrees
	ovlRNGIS       = 100  // + the Fig. 5 bar
	ovlRNGReuse    = 200  // the reuse distances
	ovlRNGCosts    = 300  // + the cost sweep's cell
	ovlRNGReadings = 1000 // + the reading
)

// ovlPerLeaf is the scalability sweep's nodes per leaf switch, the
// paper's 14 rounded to a power of two so that N doubles along the axis.
const ovlPerLeaf = 16

func newOverlayStudy(full bool, seed uint64) *overlayStudy {
	s := &overlayStudy{Full: full, Seed: seed, is: engine.Default(), net: topology.DefaultNet()}
	s.is.Cache = 0 // set per bar
	maxLevels := 7 // 16 · 2^6 = 1,024 nodes
	if full {
		for c := 0; c <= 16; c++ {
			s.caches = append(s.caches, c)
		}
		s.trials = 2
		maxLevels = 9 // 4,096 nodes
		s.polls = []float64{0, 0.3e-6, 0.5e-6, 1.2e-6, 2.4e-6}
		s.handshakes = []float64{0, 60e-6, 200e-6}
		s.sweepIters = 3
	} else {
		s.caches = []int{0, 1, 2, 4, 8, 16}
		s.trials = 1
		s.is.Iterations = 2
		s.polls = []float64{0.5e-6, 2.4e-6}
		s.handshakes = []float64{60e-6}
		s.sweepIters = 1
	}
	s.sweepCache = 16
	for l := 2; l <= maxLevels; l++ {
		s.scale = append(s.scale, overlayScalePoint{Levels: l, Fanout: 2, PerLeaf: ovlPerLeaf})
	}
	return s
}

// ovlCase is one bar of Fig. 5.
type ovlCase struct {
	Label  string
	Policy engine.Policy
	Cache  int
}

func (s *overlayStudy) cases() []ovlCase {
	var cs []ovlCase
	for _, c := range s.caches {
		cs = append(cs, ovlCase{strconv.Itoa(c), engine.Topology, c})
	}
	return append(cs, ovlCase{"all", engine.All, 0}, ovlCase{"random", engine.Random, 0})
}

// ovlRun is the mean over trials of one Fig. 5 bar.
type ovlRun struct {
	Case                               ovlCase
	Time, ConnMean, ConnMax, StaticMax float64
	Messages, Relayed, Opened, Evicted float64
	BufferMax, BufferMean              float64
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
	Fig5     []ovlRun
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

// ovlCost is one cell of the cost sweep: "all" against topology-aware
// connections with the sweep's cache, at one select() and set-up cost,
// with whole key messages or chunks of Chunk bytes.
type ovlCost struct {
	Poll, Handshake float64
	Chunk           int
	All, Topo       float64 // s
}

// ovlSweepChunk is the cost sweep's chunk size: class A key messages of
// ~2 KiB go as two chunks, so a shortcut opened by the first can carry
// the second.
const ovlSweepChunk = 1024

// ovlReading is one reading of the experiment's "6 switches".
type ovlReading struct {
	Name                  string
	Leaves, StaticMax     int
	Time0, TimeC, TimeAll float64 // topology C = 0, topology with the sweep's cache, all; s
}

// isRun is one Integer Sort run of the sweep: its parameters and the
// random stream it draws from, sweep.RNG(seed, point, trial) as the
// study's sections number them (ovlRNG*).
type isRun struct {
	p            engine.Params
	seed         uint64
	point, trial int
}

// isResult is what the page needs of a run: engine.Result without its
// events.
type isResult = engine.Result

// runs lays out every Integer Sort run: Fig. 5's bars × trials, then the
// cost sweep's cells ("all" and topology-aware each), then the readings
// (topology C = 0, topology with the sweep's cache, all).
func (s *overlayStudy) runs() []isRun {
	var out []isRun
	for i, c := range s.cases() {
		p := s.is
		p.Policy, p.Cache = c.Policy, c.Cache
		for t := range s.trials {
			out = append(out, isRun{p, s.Seed + ovlRNGIS, i, t})
		}
	}
	for i, c := range s.costCells() {
		for k := range 2 {
			p := s.is
			p.Iterations = s.sweepIters
			p.PollPerConn, p.HandshakeCPU, p.ChunkBytes = c.poll, c.hs, c.chunk
			if k == 0 {
				p.Policy = engine.All
			} else {
				p.Policy, p.Cache = engine.Topology, s.sweepCache
			}
			out = append(out, isRun{p, s.Seed + ovlRNGCosts, 2*i + k, 0})
		}
	}
	for i, r := range ovlReadings {
		for k := range 3 {
			p := s.is
			p.Iterations = s.sweepIters
			p.Switches, p.Fill = r.switches, r.fill
			switch k {
			case 0:
				p.Policy, p.Cache = engine.Topology, 0
			case 1:
				p.Policy, p.Cache = engine.Topology, s.sweepCache
			case 2:
				p.Policy = engine.All
			}
			out = append(out, isRun{p, s.Seed + ovlRNGReadings, 3*i + k, 0})
		}
	}
	return out
}

// Fingerprint names the grid.
func (s *overlayStudy) Fingerprint() string {
	return fmt.Sprintf("overlay/v1 full=%t seed=%d runs=%d caches=%v trials=%d", s.Full, s.Seed, len(s.runs()), s.caches, s.trials)
}

// Costs are engine/overlay's estimates of each run.
func (s *overlayStudy) Costs() []float64 {
	runs := s.runs()
	c := make([]float64, len(runs))
	for i, r := range runs {
		c[i] = engine.Estimate(r.p, false).Seconds
	}
	return c
}

// Run runs the owned Integer Sort runs over the cores.
func (s *overlayStudy) Run(ctx context.Context, owned []bool, progress func(done, total float64)) ([]json.RawMessage, error) {
	runs := s.runs()
	return study.RunPoints(ctx, owned, s.Costs(), progress, func(i int) (isResult, error) {
		r := runs[i]
		res, err := engine.RunIS(r.p, sweep.RNG(r.seed, r.point, r.trial), nil)
		if err != nil {
			return res, fmt.Errorf("overlay: run %d (%s, cache %d, %d switches): %w", i, r.p.Policy, r.p.Cache, r.p.Switches, err)
		}
		res.Events = nil // the page needs the counters only
		return res, nil
	})
}

var _ study.TrialCounter = (*overlayStudy)(nil) // gen-report status counts its trials

// PointTrials is 1: every point is one Integer Sort run of its own draws.
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
	n := s.fig5From(r, res)
	n += s.costsFrom(r, res[n:])
	s.readingsFrom(r, res[n:])
	return r, nil
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

// ovlCostCell is one cell of the cost sweep.
type ovlCostCell struct {
	poll, hs float64
	chunk    int
}

// costCells are the cost sweep's cells: every select() cost × set-up
// cost, with whole key messages and in chunks.
func (s *overlayStudy) costCells() []ovlCostCell {
	var cells []ovlCostCell
	for _, chunk := range []int{0, ovlSweepChunk} {
		for _, h := range s.handshakes {
			for _, pc := range s.polls {
				cells = append(cells, ovlCostCell{pc, h, chunk})
			}
		}
	}
	return cells
}

// costsFrom reads the cost sweep's runs ("all", topology-aware, per
// cell) into r and returns how many it read.
func (s *overlayStudy) costsFrom(r *overlayResults, res []isResult) int {
	cells := s.costCells()
	r.Costs = make([]ovlCost, len(cells))
	for i, c := range cells {
		r.Costs[i] = ovlCost{Poll: c.poll, Handshake: c.hs, Chunk: c.chunk, All: res[2*i].Time, Topo: res[2*i+1].Time}
	}
	return 2 * len(cells)
}

// ovlReadings are the two readings of the experiment's "6 switches".
var ovlReadings = []struct {
	name           string
	switches, fill int
}{
	{"6 leaf switches, nodes spread evenly (11, 11, 11, 11, 10, 10)", 6, 0},
	{"5 leaf switches of the cluster's 14 nodes (14, 14, 14, 14, 8) under 1 upper switch", 5, 14},
}

// readingsFrom reads the readings' runs (topology C = 0, topology with
// the sweep's cache, all; per reading) into r.
func (s *overlayStudy) readingsFrom(r *overlayResults, res []isResult) {
	r.Readings = make([]ovlReading, len(ovlReadings))
	for i, rd := range ovlReadings {
		r.Readings[i] = ovlReading{Name: rd.name, Leaves: rd.switches, StaticMax: int(res[3*i].StaticMax),
			Time0: res[3*i].Time, TimeC: res[3*i+1].Time, TimeAll: res[3*i+2].Time}
	}
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

// fig5From averages each Fig. 5 bar's trials into r and returns how many
// runs it read.
func (s *overlayStudy) fig5From(r *overlayResults, res []isResult) int {
	cases := s.cases()
	r.Fig5 = make([]ovlRun, len(cases))
	n := float64(s.trials)
	for i, c := range cases {
		o := ovlRun{Case: c}
		for _, x := range res[i*s.trials : (i+1)*s.trials] {
			o.Time += x.Time / n
			o.ConnMean += x.ConnMean / n
			o.ConnMax += x.ConnMax / n
			o.StaticMax += x.StaticMax / n
			o.Messages += float64(x.Messages) / n
			o.Relayed += float64(x.Relayed) / n
			o.Opened += float64(x.ShortcutsOpened) / n
			o.Evicted += float64(x.Evicted) / n
			o.BufferMax += x.BufferBytes / n
			o.BufferMean += x.BufferMean / n
		}
		r.Fig5[i] = o
	}
	return len(cases) * s.trials
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
	p.Sections = append(p.Sections,
		report.Section{
			Title: "The paper's Fig. 4: the RTTs one node sees, sorted",
			Intro: "The paper's cluster: 112 nodes, 14 per leaf switch, the switches connected hierarchically. One node pings every other; its RTTs in ascending order stay flat over the nodes of its own switch and jump where the other switches begin (the paper: between the 13th and the 14th node). Further up the tree every level adds a jump of about the same height, so the inference takes the first jump that stands out from the noise, and combines all nodes' views.",
			Items: []any{s.fig4Chart(r.Fig4)},
		},
		report.Section{
			Title: "The paper's Fig. 5: Integer Sort under the connection policies",
			Intro: fmt.Sprintf("Execution time of the sort with topology-aware static connections and a shortcut cache of C = %s, against all-to-all connections (\"all\") and %d random connections per process (\"random\"). The second chart gives the connections per process each needs (its peak, static plus shortcuts), the paper's other axis: topology-aware connections are far fewer. Mean of %d run(s) per bar.",
				cacheRange(s.caches), s.is.RandomDegree, s.trials),
			Items: []any{s.fig5Chart(r.Fig5), s.fig5Conns(r.Fig5), s.fig5Table(r.Fig5)},
		},
		report.Section{
			Title: "Fig. 5 on the paper's mechanisms: when can a cache of C help, and when do shortcuts beat \"all\"",
			Intro: fmt.Sprintf("NPB IS exchanges, every iteration, the bucket sizes (an allreduce), the send counts (an all-to-all of one int) and then the keys (an all-to-all-v); each process posts the P−1 sends of an exchange at once, in the pattern's order. A shortcut helps only when its destination comes back before C other relayed destinations have pushed it out of the LRU cache: the reuse distance of the first table. Whole messages in any of the three orders come back only after about all other destinations, so no cache of C ≤ 16 can serve them; a message layer that splits messages into chunks sent one after another brings the destination back at once, and then even C = 1 serves 40 to 80 %% of them. Serving is not yet winning: a shortcut is ready a round trip and a half after the relayed message that opened it, and chunks posted at once have gone by then. The cost sweep sets topology-aware connections with C = %d against \"all\" for select() costs per descriptor and connection set-up costs (CPU per end; the handshake also takes a round trip and a half) around the defaults, %d iteration(s) per run; the last table runs both readings of the experiment's \"6 switches\".",
				s.sweepCache, s.sweepIters),
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

func (s *overlayStudy) itersNote() string {
	if s.Full {
		return ""
	}
	return " (NPB's 10 in the full report)"
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

func fig5Axis(runs []ovlRun) report.Axis {
	// The cases are shortcut cache sizes C plus the all-to-all and random
	// policies, not counts of connections.
	x := report.Axis{Name: "policy: cache size C, all or random"}
	for _, r := range runs {
		x.Labels = append(x.Labels, r.Case.Label)
	}
	return x
}

func (s *overlayStudy) fig5Chart(runs []ovlRun) *report.BarChart {
	t := make([]float64, len(runs))
	for i, r := range runs {
		t[i] = ms(r.Time)
	}
	return &report.BarChart{
		ID: "overlay-fig5", Title: "Fig. 5: Integer Sort execution time",
		Caption: fmt.Sprintf("%d processes on %d nodes over %d switches. %s: topology-aware static connections and a shortcut cache of that size; all: every pair connected; random: %d random connections per process.",
			s.is.Procs, s.is.Nodes, s.is.Switches, cacheRange(s.caches), s.is.RandomDegree),
		X: fig5Axis(runs), YName: "execution time (ms)", Digits: 4,
		Series: []report.BarSeries{{Name: "time", Values: t}},
	}
}

func (s *overlayStudy) fig5Conns(runs []ovlRun) *report.BarChart {
	mean, mx := make([]float64, len(runs)), make([]float64, len(runs))
	for i, r := range runs {
		mean[i], mx[i] = r.ConnMean, r.ConnMax
	}
	return &report.BarChart{
		ID: "overlay-fig5-conns", Title: "Connections per process in Fig. 5's runs",
		Caption: "Each process's peak number of open connections (static and shortcuts, either end), mean and maximum over the processes. The paper: at most 31 static connections with the topology, 127 with all, 64 random.",
		X:       fig5Axis(runs), YName: "connections per process", Digits: 4,
		Series: []report.BarSeries{{Name: "mean", Values: mean}, {Name: "max", Values: mx}},
	}
}

func (s *overlayStudy) fig5Table(runs []ovlRun) *report.Table {
	t := &report.Table{
		ID: "overlay-fig5-table", Title: "Fig. 5's runs in numbers",
		Caption: "Per bar: time, connections, messages relayed, shortcuts opened and evicted by LRU, and the buffer memory connections hold (each its path's bandwidth-delay product), mean over the runs.",
		Header:  []string{"policy (cache size C)", "time (ms)", "conn. mean", "conn. max", "static max", "relayed", "shortcuts opened", "evicted", "buffer max (KiB)", "buffer mean (KiB)"},
	}
	for _, r := range runs {
		t.Rows = append(t.Rows, []string{r.Case.Label, fmt.Sprintf("%.4g", ms(r.Time)), fmt.Sprintf("%.1f", r.ConnMean), fmt.Sprintf("%.0f", r.ConnMax),
			fmt.Sprintf("%.0f", r.StaticMax), fmt.Sprintf("%.0f", r.Relayed), fmt.Sprintf("%.0f", r.Opened), fmt.Sprintf("%.0f", r.Evicted),
			fmt.Sprintf("%.1f", r.BufferMax/1024), fmt.Sprintf("%.1f", r.BufferMean/1024)})
	}
	return t
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
		Caption: fmt.Sprintf("Execution time of %d iteration(s) at each select() cost per descriptor and connection set-up cost; \"beats all\" marks the cells where the topology-aware connections with shortcuts are faster. Defaults: %g µs per descriptor, %g µs set-up.",
			s.sweepIters, s.is.PollPerConn*1e6, s.is.HandshakeCPU*1e6),
		Header: []string{"key messages", "select() per descriptor (µs)", "set-up per end (µs)", "all (ms)", fmt.Sprintf("topology, C = %d (ms)", s.sweepCache), "ratio", "beats all"},
	}
	for _, c := range cs {
		msgs := "whole"
		if c.Chunk > 0 {
			msgs = fmt.Sprintf("%d B chunks", c.Chunk)
		}
		t.Rows = append(t.Rows, []string{msgs, fmt.Sprintf("%g", c.Poll*1e6), fmt.Sprintf("%g", c.Handshake*1e6), fmt.Sprintf("%.4g", ms(c.All)), fmt.Sprintf("%.4g", ms(c.Topo)),
			fmt.Sprintf("%.3f", c.Topo/c.All), yesNo(c.Topo < c.All)})
	}
	return t
}

func (s *overlayStudy) readingTable(rs []ovlReading) *report.Table {
	t := &report.Table{
		ID: "overlay-readings", Title: "The experiment's \"6 switches\", read two ways",
		Caption: fmt.Sprintf("64 nodes, 128 processes, %d iteration(s). The paper says the nodes span 6 switches and that there are at most 31 static connections per process; 5 leaf switches of 14 nodes (the cluster's) under one upper switch give exactly 31: 27 on the switch and one to each of the 4 others.", s.sweepIters),
		Header:  []string{"reading", "leaf switches", "static connections, max", "topology C = 0 (ms)", fmt.Sprintf("topology C = %d (ms)", s.sweepCache), "all (ms)"},
	}
	for _, r := range rs {
		t.Rows = append(t.Rows, []string{r.Name, strconv.Itoa(r.Leaves), strconv.Itoa(r.StaticMax), fmt.Sprintf("%.4g", ms(r.Time0)), fmt.Sprintf("%.4g", ms(r.TimeC)), fmt.Sprintf("%.4g", ms(r.TimeAll))})
	}
	return t
}

// ms converts seconds to milliseconds, the unit of Fig. 5.
func ms(t float64) float64 { return t * 1e3 }

func fmtMs(t float64) string { return fmt.Sprintf("%.3g ms", ms(t)) }
