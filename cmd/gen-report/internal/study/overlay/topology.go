package overlay

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"commlab/cmd/gen-report/internal/cli"
	"commlab/engine/cost"
	"commlab/engine/sweep"
	"commlab/engine/topology"
	"commlab/internal/boundedio"
	"commlab/internal/shown"
)

// The topology verbs split the paper's Section 2 at the measurements, so
// that real measurements can be fed to the inference and the simulated
// cluster can be checked against it: measure writes the files a cluster
// would give, infer reads such files and prints the tree.
func RunTopology(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("topology: name a verb: infer, measure")
	}
	switch args[0] {
	case "infer":
		return topologyInfer(stdout, stderr, args[1:])
	case "measure":
		return topologyMeasure(stdout, stderr, args[1:])
	}
	return fmt.Errorf("topology: unknown verb %q (verbs: infer, measure)", args[0])
}

// inferredTree is what `topology infer` prints: the Tree JSON of
// engine/topology (so `topology measure --tree` reads it back) with the
// inference's account beside it. The leaf switches come from the RTTs
// alone; the switches above them need the interference observations, and
// when those do not settle the tree, Switches and Edges are empty and
// Needed lists the measurements that would.
type inferredTree struct {
	Nodes    []string         `json:"nodes"`
	Switches []inferredSwitch `json:"switches"`
	Edges    [][2]int         `json:"edges"` // [parent, child] switch IDs, one per non-root switch
	// LeafGroups are the nodes of each leaf switch, as the RTTs give them;
	// Noise is what the inference read from the RTT matrix alone (noise
	// scale, resolution, jump threshold, outliers repaired).
	LeafGroups [][]string     `json:"leaf_groups"`
	Noise      topology.Noise `json:"noise"`
	Settled    bool           `json:"settled"`
	// Used counts the interference questions the inference asked and the
	// observations answered (those it read up front are not counted).
	Used   int                 `json:"interference_asked"`
	Needed []interferenceQuery `json:"interference_needed"`
}

type inferredSwitch struct {
	ID     int      `json:"id"`
	Parent int      `json:"parent"`          // -1 for the root
	Nodes  []string `json:"nodes,omitempty"` // on a leaf switch
}

// interferenceQuery is one measurement the inference asks for: transfers
// a-b and c-d at the same time. Groups are the four nodes' leaf groups
// (indices into leaf_groups): any node of each group will do.
type interferenceQuery struct {
	A      string `json:"a"`
	B      string `json:"b"`
	C      string `json:"c"`
	D      string `json:"d"`
	Groups [4]int `json:"groups"`
}

// noObservations is the oracle of a run without --interference: it knows
// nothing, so the inference lists everything it would need.
type noObservations struct{}

func (noObservations) Interferes(a, b, c, d int) (bool, bool) { return false, false }

func topologyInfer(stdout, stderr io.Writer, args []string) error {
	fs := cli.NewFlagSet("topology infer", stderr, "gen-report topology infer --rtt rtt.csv [--interference interference.csv] [--needed needed.csv]")
	rttPath := fs.String("rtt", "", "RTT matrix as CSV: a header of node names, then per node its name and its RTTs (µs) to every node")
	intPath := fs.String("interference", "", "interference observations as CSV with header a,b,c,d,interferes, between any nodes of the groups (optional: without it the output lists what is needed)")
	neededPath := fs.String("needed", "", "when the observations do not settle the tree, write the measurements still needed here as a ready list (a,b,c,d,interferes with interferes left blank; any node of each pair's groups will do): measure them, fill in true or false, append them to the --interference file and run again")
	force := cli.AddForce(fs.FlagSet)
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	if *rttPath == "" {
		return fmt.Errorf("topology infer: --rtt is required: the RTT matrix as CSV (topology measure writes one)")
	}
	limit := cli.ReadLimit(*force, math.MaxInt64)
	names, rtt, err := readWith(*rttPath, limit, func(r io.Reader) ([]string, [][]float64, error) { return topology.ReadRTTCSV(r) })
	if err != nil {
		return fmt.Errorf("topology infer: %w", err)
	}
	var oracle topology.Oracle = noObservations{}
	if *intPath != "" {
		oracle, _, err = readWith(*intPath, limit, func(r io.Reader) (topology.Oracle, struct{}, error) {
			o, err := topology.ReadInterferenceCSV(r, names)
			return o, struct{}{}, err
		})
		if err != nil {
			return fmt.Errorf("topology infer: %w", err)
		}
	}
	if err := cli.CheckCost("topology infer", leavesCost(len(names)), *force); err != nil {
		return err
	}
	leaves, noise, err := topology.InferLeavesNoise(rtt)
	if err != nil {
		return fmt.Errorf("topology infer: %s: %w", *rttPath, err)
	}
	// Without observations every question is listed as needed (and
	// printed); with them, at most as many are answered.
	if err := cli.CheckCost("topology infer", inferTreeCost(len(leaves), *intPath != ""), *force); err != nil {
		return err
	}
	tree, plan, err := topology.InferTree(names, leaves, oracle)
	var incomplete *topology.IncompleteError
	if err != nil && !errors.As(err, &incomplete) {
		return fmt.Errorf("topology infer: %w", err)
	}
	desc := describeInferred(names, leaves, tree, plan)
	desc.Noise = noise
	out, err := json.MarshalIndent(desc, "", "  ")
	if err != nil {
		return err
	}
	if tree == nil {
		if *neededPath != "" {
			var b bytes.Buffer
			if err := writeNeeded(&b, desc.Needed); err != nil {
				return fmt.Errorf("topology infer: --needed %s: %w", *neededPath, err)
			}
			if err := cli.WriteFileAtomic(*neededPath, b.Bytes()); err != nil {
				return fmt.Errorf("topology infer: --needed %s: %w", *neededPath, err)
			}
			fmt.Fprintf(stderr, "topology infer: not settled: wrote the %d measurements needed to %s; fill in interferes, append them to the interference file and run again\n", len(desc.Needed), *neededPath)
		} else {
			fmt.Fprintf(stderr, "topology infer: not settled: %d measurements needed (listed in interference_needed; --needed FILE writes them as a ready list)\n", len(desc.Needed))
		}
	}
	_, err = fmt.Fprintf(stdout, "%s\n", out)
	return err
}

// writeNeeded writes the ready list: the interference CSV's header and one
// row per measurement needed, interferes left blank for the measurer.
func writeNeeded(w io.Writer, needed []interferenceQuery) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"a", "b", "c", "d", "interferes"}); err != nil {
		return err
	}
	for _, q := range needed {
		if err := cw.Write([]string{q.A, q.B, q.C, q.D, ""}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// describeInferred turns the engine's tree (nil when unsettled) and plan
// into the printed form.
func describeInferred(names []string, leaves [][]int, t *topology.Tree, plan topology.Plan) inferredTree {
	out := inferredTree{Nodes: names, Switches: []inferredSwitch{}, Edges: [][2]int{}, Needed: []interferenceQuery{}, Settled: t != nil, Used: len(plan.Used)}
	for _, g := range leaves {
		var ns []string
		for _, v := range g {
			ns = append(ns, names[v])
		}
		out.LeafGroups = append(out.LeafGroups, ns)
	}
	if t != nil {
		for _, s := range t.Switches {
			sw := inferredSwitch{ID: s.ID, Parent: s.Parent}
			for _, n := range s.Nodes {
				sw.Nodes = append(sw.Nodes, names[n])
			}
			out.Switches = append(out.Switches, sw)
			if s.Parent >= 0 {
				out.Edges = append(out.Edges, [2]int{s.Parent, s.ID})
			}
		}
	}
	for i, q := range plan.Needed {
		out.Needed = append(out.Needed, interferenceQuery{names[q.A], names[q.B], names[q.C], names[q.D], plan.NeededGroups[i]})
	}
	return out
}

// readWith opens path and hands it to read; errors name the file (the
// engine's readers name the line).
func readWith[A, B any](path string, limit int64, read func(io.Reader) (A, B, error)) (A, B, error) {
	var a A
	var b B
	f, err := os.Open(path)
	if err != nil {
		return a, b, err // *PathError names the file
	}
	defer f.Close()
	a, b, err = read(boundedio.NewLines(path, boundedio.NewReader(path, f, limit), maxCSVLine))
	var le *boundedio.LimitError
	var ll *boundedio.LineError
	switch {
	case errors.As(err, &le):
		return a, b, le // it names the file
	case errors.As(err, &ll):
		return a, b, ll
	}
	if err != nil {
		return a, b, fmt.Errorf("%s: %w", path, err)
	}
	return a, b, nil
}

// topologyPresets are the paper's clusters by the name --preset takes.
var topologyPresets = map[string]func() *topology.Tree{
	"paper":      topology.PaperCluster,
	"experiment": topology.PaperExperiment,
}

func topologyMeasure(stdout, stderr io.Writer, args []string) error {
	fs := cli.NewFlagSet("topology measure", stderr, "gen-report topology measure (--tree tree.json | --preset paper|experiment) [--seed S] --out DIR [network flags]")
	treePath := fs.String("tree", "", `the cluster as Tree JSON: {"nodes": [names...], "switches": [{"id", "parent", "nodes": [names...]}]}`)
	preset := fs.String("preset", "", "a cluster of the paper instead of --tree: paper (112 nodes, 14 per switch) or experiment (64 nodes over 6 switches)")
	seed := fs.Uint64("seed", 1, "random seed of the measurement noise; the same seed writes the same bytes")
	out := fs.String("out", "", "directory rtt.csv and interference.csv are written to (created if needed)")
	force := cli.AddForce(fs.FlagSet)
	net := topology.DefaultNet()
	cli.BindParams(fs.FlagSet, &net)
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("topology measure: --out is required: the directory rtt.csv and interference.csv are written to")
	}
	var tree *topology.Tree
	switch {
	case *treePath != "" && *preset != "":
		return fmt.Errorf("topology measure: give --tree or --preset, not both")
	case *treePath != "":
		var err error
		if tree, err = readTreeJSON(*treePath); err != nil {
			return fmt.Errorf("topology measure: %w", err)
		}
	case *preset != "":
		mk, ok := topologyPresets[*preset]
		if !ok {
			return fmt.Errorf("topology measure: --preset %q is unknown: want paper or experiment", *preset)
		}
		tree = mk()
	default:
		return fmt.Errorf("topology measure: give the cluster: --tree tree.json or --preset paper|experiment")
	}
	if err := net.Validate(); err != nil {
		// The engine names the field by its JSON name, which is the flag's.
		return fmt.Errorf("topology measure: -%s", strings.TrimPrefix(strings.TrimPrefix(err.Error(), "topology: "), "net "))
	}
	if err := cli.CheckCost("topology measure", measureCost(tree), *force); err != nil {
		return err
	}
	rttCSV, intCSV, count, err := measureFiles(tree, net, *seed)
	if err != nil {
		return fmt.Errorf("topology measure: %w", err)
	}
	// Everything is in memory before the first byte is written, and each
	// file goes in through a rename: a failure leaves no half file.
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("topology measure: --out %s: %w", *out, err)
	}
	rttName, intName := filepath.Join(*out, "rtt.csv"), filepath.Join(*out, "interference.csv")
	if err := cli.WriteFileAtomic(rttName, rttCSV); err != nil {
		return fmt.Errorf("topology measure: --out %s: %w", *out, err)
	}
	if err := cli.WriteFileAtomic(intName, intCSV); err != nil {
		os.Remove(rttName)
		return fmt.Errorf("topology measure: --out %s: %w", *out, err)
	}
	_, err = fmt.Fprintf(stdout, "wrote %s (%d nodes) and %s (%d observations)\n", rttName, len(tree.Nodes), intName, count)
	return err
}

// measureFiles simulates the measurements of the cluster: the RTT matrix
// from noisy pings, and the interference observations the inference asks
// for, measured on the cluster (topology.Measured). So the file holds what
// a measuring run takes, not every pair-pair.
func measureFiles(tree *topology.Tree, net topology.Net, seed uint64) (rttCSV, intCSV []byte, count int, err error) {
	rtt := topology.MeasureRTT(tree, net, sweep.RNG(seed, 0, 0))
	var rb bytes.Buffer
	if err := topology.WriteRTTCSV(&rb, tree.Nodes, rtt); err != nil {
		return nil, nil, 0, err
	}
	leaves, err := topology.InferLeaves(rtt)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("the measured RTTs do not give leaf switches (noise too high for this tree?): %w", err)
	}
	_, plan, err := topology.InferTree(tree.Nodes, leaves, topology.Measured{T: tree})
	if err != nil {
		return nil, nil, 0, err
	}
	var ib bytes.Buffer
	if err := topology.WriteInterferenceCSV(&ib, tree.Nodes, plan.Used); err != nil {
		return nil, nil, 0, err
	}
	return rb.Bytes(), ib.Bytes(), len(plan.Used), nil
}

// treeFile is what --tree reads: Tree JSON, or what `topology infer`
// prints (Tree JSON with the inference's account beside it). Edges stays
// raw so that a file without "edges" stays without (Tree checks them only
// when given).
type treeFile struct {
	inferredTree
	Edges json.RawMessage `json:"edges"`
}

// maxCSVLine bounds a line of the RTT and interference CSVs: an RTT row
// holds a name and topology.MaxNodes numbers, some 30 bytes each at most.
const maxCSVLine = 1 << 20

// maxTreeBytes bounds a tree JSON file: topology.MaxNodes nodes with names
// of a few dozen bytes and their switches take a few megabytes.
const maxTreeBytes = 64 << 20

// readTreeJSON reads a Tree JSON file strictly (unknown fields are errors,
// at any level: the keys of Tree JSON and those `topology infer` prints
// beside them) and validates it; errors name the file and, for malformed
// JSON, the line.
func readTreeJSON(path string) (*topology.Tree, error) {
	b, err := boundedio.ReadFile(path, cli.ReadLimit(false, maxTreeBytes))
	if err != nil {
		return nil, err
	}
	return parseTreeJSON(path, b)
}

// parseTreeJSON is readTreeJSON on the file's bytes b.
func parseTreeJSON(path string, b []byte) (*topology.Tree, error) {
	// A byte-order mark is read past, as the CSV, GOAL and noise-trace
	// readers do: editors on Windows write one.
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	// Decoding into topology.Tree directly would not be strict: a
	// decoder's DisallowUnknownFields does not reach into Tree's
	// UnmarshalJSON. treeFile has none, so every key is checked here.
	var f treeFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s: %s: %v", path, lineCol(b, se.Offset-1), err)
		case errors.As(err, &te):
			return nil, fmt.Errorf("%s: %s: tree JSON: %s", path, lineCol(b, te.Offset), untagged(err))
		case errors.Is(err, io.EOF):
			return nil, fmt.Errorf("%s: empty file, want Tree JSON", path)
		}
		return nil, fmt.Errorf("%s: tree JSON: %s", path, shown.Quoted(untagged(err)))
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: %s: more after the tree's JSON object", path, lineCol(b, dec.InputOffset()))
	}
	tb, err := json.Marshal(struct {
		Nodes    []string         `json:"nodes"`
		Switches []inferredSwitch `json:"switches"`
		Edges    json.RawMessage  `json:"edges,omitempty"`
	}{f.Nodes, f.Switches, f.Edges})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var t topology.Tree
	if err := json.Unmarshal(tb, &t); err != nil {
		return nil, fmt.Errorf("%s: %s", path, untagged(err))
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %s", path, untagged(err))
	}
	return &t, nil
}

// untagged is the engine's message without its package tags ("topology:
// tree JSON: topology: switch 0 …"): the command names the file instead.
func untagged(err error) string {
	return strings.ReplaceAll(err.Error(), "topology: ", "")
}

// lineCol is "line L, column C" (both 1-based, C in bytes) of byte offset
// off in b.
func lineCol(b []byte, off int64) string {
	off = min(max(off, 0), int64(len(b)))
	before := string(b[:off])
	line := 1 + strings.Count(before, "\n")
	col := len(before) - strings.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// neededOutputBytes is what topology infer adds per question it lists as
// needed: the question in its output and its JSON (measured: 3.9 M
// questions on 200 leaf groups peaked at 3.0 GB, InferTree's share about
// 2.3 GB).
const neededOutputBytes = 400

// inferTreeCost is topology.EstimateTree with the needed list's output.
func inferTreeCost(leaves int, answered bool) cost.Cost {
	c := topology.EstimateTree(leaves, answered)
	if !answered {
		c.Bytes += neededOutputBytes * c.Events
	}
	return c
}

// gcSlack is how far the heap grows past what is live before the collector
// runs (GOGC=100: up to twice). The topology commands hold most of what
// they allocate at once (the N×N RTT matrix and its copies), so their peak
// is about twice the engine's count: topology measure on 4,096 nodes
// allocated 0.9 GB and peaked at 1.77 GB RSS.
const gcSlack = 2

// leavesCost is topology.EstimateLeaves as a command's peak.
func leavesCost(n int) cost.Cost {
	c := topology.EstimateLeaves(n)
	c.Bytes *= gcSlack
	return c
}

// measureCost is topology.EstimateMeasure as a command's peak, with the
// RTT CSV's text (about 10 bytes an entry).
func measureCost(t *topology.Tree) cost.Cost {
	c := topology.EstimateMeasure(t)
	n := float64(len(t.Nodes))
	c.Bytes = gcSlack*c.Bytes + 10*n*n
	return c
}
