package overlay

import (
	eoverlay "commlab/engine/overlay"
	"commlab/engine/progress"
	"commlab/engine/topology"
	"commlab/engine/trace"
	"commlab/internal/errf"
	"commlab/render"
	"commlab/scene"
)

// Scene is the shortcut-creation scene: an Integer Sort's connections on
// a switch tree, its relayed messages, shortcuts and LRU evictions.
type Scene struct{}

// New returns the shortcut-creation scene.
func New() scene.Scene { return Scene{} }

// Info names the scene for the index page.
func (Scene) Info() scene.Info {
	return scene.Info{
		Name:  "overlay",
		Title: "Shortcut creation: topology-aware connections with an LRU cache",
		Paper: "Paper 004: dynamic connection management from the inferred network topology (§3, Fig. 2, Fig. 5)",
		Summary: "Instead of connecting every pair of processes, each process keeps connections " +
			"chosen from the switch tree: to every process on its own switch and to one on each " +
			"other switch. A message to a process it has no connection to is relayed through " +
			"that connection into the destination's switch; after a relayed message the sender " +
			"opens a direct connection, a shortcut (dashed), and uses it from then on. Each " +
			"process keeps at most C shortcuts: when a new one needs room, the least recently " +
			"used is closed (it fades out, crossed). The arcs under the nodes are the " +
			"connections of an Integer Sort's all-to-all key exchange as it runs; the panel " +
			"counts open connections per process, shortcuts, evictions and relayed messages. " +
			"Change the cache size or switch to the paper's \"all\" and \"random\" policies. " +
			"Membership, the paper's subject, follows the sort: with \"join on switch\" a new node " +
			"measures its RTT to one node per switch (the probes), is placed from those alone and " +
			"opens its connections; with \"node leaves\" a node's connections close (crossed) and " +
			"whoever reached its switch through it connects to another process there.",
	}
}

// Fields are the cache, the policy, the cluster, the sort's length, the
// handshake and the chunk size, and the membership after the sort.
func (Scene) Fields() []scene.Field { return Fields() }

// Build checks every value (a bad one is a *scene.FieldError naming its
// field, even when a caller skipped parsing) and runs the Integer Sort
// with a trace. The seed draws the keys and the random policy's
// connections (scene.RNG(seed, 0)).
func (Scene) Build(v scene.Values, seed uint64) (scene.Run, error) { return checked.Build(v, seed) }

// BuildProgress is Build telling pr the fraction of the sort's iterations
// done (eoverlay.RunISProgress), the build's long part
// (scene.Progressive).
func (Scene) BuildProgress(v scene.Values, seed uint64, pr progress.Func) (scene.Run, error) {
	return checked.BuildProgress(v, seed, pr)
}

// checked is the scene's checked build (scene.Checked): the engine's range
// errors become *scene.FieldError on the scene's keys.
var checked = scene.Checked{
	Fields: Fields,
	Model: func(v scene.Values) (scene.Model, error) {
		p, err := Params(v)
		return &model{p}, err
	},
	Errors: scene.EngineError,
}

// model is what the fields set (scene.Model): the engine's parameters.
type model struct{ p eoverlay.Params }

// Run is the scene's build once the values are checked.
func (m *model) Run(v scene.Values, seed uint64, pr progress.Func) (scene.Run, error) {
	p := m.p
	if err := checkMembership(v); err != nil {
		return nil, err
	}
	tr := new(trace.Trace)
	res, err := eoverlay.RunISProgress(p, scene.RNG(seed, 0), tr, pr)
	if err != nil {
		return nil, err
	}
	if !(res.Time > 0) {
		return nil, errf.Errorf("the sort took %v s", res.Time)
	}
	tree, err := eoverlay.Cluster(p)
	if err != nil {
		return nil, err
	}
	r := &run{p: p, res: res, tr: tr, mb: &membershipOff, end: res.Time}
	procNode := make([]int, p.Procs)
	for q := range procNode {
		procNode[q] = eoverlay.ProcNode(q, p.Procs, p.Nodes)
	}
	if v.Int(KeyJoin) >= 0 || v.Int(KeyLeave) >= 0 {
		// The membership's draws come from a stream of their own, so the
		// sort is the same run with and without it.
		r.mb, tree, procNode, err = newMembership(p, tree, v.Int(KeyJoin), v.Int(KeyLeave), res.Time, scene.RNG(seed, 1))
		if err != nil {
			return nil, err
		}
	}
	r.cl = engineCluster(tree, procNode)
	r.h = newHistory(len(procNode), res, tr)
	fade := evictFade * res.Time
	if r.mb.on() {
		r.h.applyMembership(r.mb, fade)
		r.end = r.mb.end
		if r.mb.leaveNode >= 0 {
			r.end = max(r.end, r.mb.leaveAt+fade)
		}
	}
	r.steps = append(r.steps, 0)
	for _, t := range r.h.keySteps {
		if t > 0 && t < r.end {
			r.steps = append(r.steps, t)
		}
	}
	r.steps = append(r.steps, r.end)
	return r, nil
}

// run is one built scene.
type run struct {
	p     eoverlay.Params
	res   eoverlay.Result
	tr    *trace.Trace
	cl    *cluster
	h     *history
	steps []float64
	mb    *membership // the join and leave after the sort (none: membershipOff)
	end   float64     // the sort's end, or the membership's
}

// End is the Integer Sort's end (its last process finishes its ranking),
// or with a join or a leave the membership's: its last connection ready
// and the leaver's closed connections faded out.
func (r *run) End() float64 { return r.end }

// Steps are the start, every shortcut's open and ready and every eviction,
// and the end: the step keys move from one connection event to the next.
func (r *run) Steps() []float64                          { return r.steps }
func (r *run) Frame(t float64, v scene.View) render.List { l, _ := r.paint(t, v); return l }
func (r *run) Trace() *trace.Trace                       { return r.tr }

// Numbers are the engine's results: the sort's time, the peak open
// connections per process (mean and max), the relayed messages, and the
// shortcuts opened and evicted; with a join, the RTTs it measured, the
// switch it was placed on (-1: refused) and the connections it opened;
// with a leave, the connections closed and opened and the routes changed.
func (r *run) Numbers() map[string]float64 {
	out := map[string]float64{
		"time":      r.res.Time,
		"conn_mean": r.res.ConnMean,
		"conn_max":  r.res.ConnMax,
		"relayed":   float64(r.res.Relayed),
		"shortcuts": float64(r.res.ShortcutsOpened),
		"evicted":   float64(r.res.Evicted),
	}
	if mb := r.mb; mb.joinLeaf >= 0 {
		out["join_rtts"] = float64(len(mb.rtt))
		out["join_switch"] = float64(mb.placed)
		n := 0
		for _, c := range mb.conns {
			if c.a == mb.joinProc || c.b == mb.joinProc {
				n++
			}
		}
		out["join_connections"] = float64(n)
	}
	if mb := r.mb; mb.leaveNode >= 0 {
		out["leave_closed"] = float64(mb.closed)
		out["leave_opened"] = float64(mb.opened)
		out["rerouted"] = float64(mb.rerouted)
	}
	return out
}

// engineCluster is the cluster eoverlay.RunIS simulates (eoverlay.Cluster,
// processes placed by eoverlay.ProcNode), with a joining node where it is
// cabled, in the form the picture lays out, so the drawing cannot drift
// from the engine.
func engineCluster(t *topology.Tree, procNode []int) *cluster {
	parent := make([]int, len(t.Switches))
	on := make([][]int, len(t.Switches))
	for i, sw := range t.Switches {
		parent[i], on[i] = sw.Parent, sw.Nodes
	}
	return newCluster(len(t.Nodes), parent, on, procNode)
}
