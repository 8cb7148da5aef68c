package overlay

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/clitest"
	"commlab/engine/sweep"
	"commlab/engine/topology"
)

// measureAndInfer runs `topology measure` on args into a fresh directory,
// then `topology infer` on what it wrote, and returns the directory and
// the printed inference.
func measureAndInfer(t *testing.T, args ...string) (string, inferredTree) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "m")
	if _, _, err := clitest.Run(t, topologyCmd, append([]string{"topology", "measure", "--out", dir}, args...)...); err != nil {
		t.Fatal(err)
	}
	out, _, err := clitest.Run(t, topologyCmd, "topology", "infer", "--rtt", filepath.Join(dir, "rtt.csv"), "--interference", filepath.Join(dir, "interference.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var inf inferredTree
	if err := json.Unmarshal([]byte(out), &inf); err != nil {
		t.Fatalf("infer printed no JSON: %v", err)
	}
	return dir, inf
}

// asTree reads infer's output back as a Tree: the output is Tree JSON with
// the inference's account beside it.
func asTree(t *testing.T, inf inferredTree) *topology.Tree {
	t.Helper()
	b, err := json.Marshal(inf)
	if err != nil {
		t.Fatal(err)
	}
	// As `topology measure --tree` reads it (Tree JSON is strict; the
	// command knows the keys infer prints beside it).
	name := filepath.Join(t.TempDir(), "inferred.json")
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := readTreeJSON(name)
	if err != nil {
		t.Fatalf("infer's output is not Tree JSON: %v", err)
	}
	return tr
}

// TestTopologyRoundTrip: a cluster measured in simulation and inferred
// from the files comes back isomorphic, for the paper's two clusters, a
// hand-made tree with leaves at two depths, and random trees.
func TestTopologyRoundTrip(t *testing.T) {
	dir := t.TempDir()
	type tc struct {
		name string
		args []string
		tree *topology.Tree
	}
	cases := []tc{
		{"paper", []string{"--preset", "paper"}, topology.PaperCluster()},
		{"experiment", []string{"--preset", "experiment"}, topology.PaperExperiment()},
		{"small", []string{"--tree", "testdata/topology/small_tree.json"}, readSmall(t)},
	}
	for i := range 6 {
		tr := topology.Random(sweep.RNG(7, i, 0), 60)
		b, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, fmt.Sprintf("random%d.json", i))
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tc{fmt.Sprintf("random%d", i), []string{"--tree", name, "--seed", fmt.Sprint(i + 1)}, tr})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, inf := measureAndInfer(t, c.args...)
			if !inf.Settled || len(inf.Needed) != 0 {
				t.Fatalf("not settled: %d measurements needed", len(inf.Needed))
			}
			if len(inf.Edges) != len(inf.Switches)-1 {
				t.Errorf("%d edges for %d switches", len(inf.Edges), len(inf.Switches))
			}
			if got := asTree(t, inf); !topology.Isomorphic(c.tree, got) {
				t.Errorf("inferred tree is not isomorphic to the measured one:\n%s", mustJSON(t, inf))
			}
		})
	}
}

func readSmall(t *testing.T) *topology.Tree {
	t.Helper()
	tr, err := readTreeJSON("testdata/topology/small_tree.json")
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTopologyGolden pins what measure writes for the hand-made tree and
// what infer prints from it: the same seed gives the same bytes.
func TestTopologyGolden(t *testing.T) {
	dir, _ := measureAndInfer(t, "--tree", "testdata/topology/small_tree.json", "--seed", "1")
	for _, f := range []string{"rtt.csv", "interference.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		clitest.Golden(t, filepath.Join("topology", "small."+f+".golden"), b)
	}
	// infer reads the goldens (with -update, the ones just written).
	clitest.EvalGolden(t, topologyCmd, filepath.Join("topology", "small.infer.stdout"),
		"topology infer --rtt testdata/topology/small.rtt.csv.golden --interference testdata/topology/small.interference.csv.golden")
	out, _, err := clitest.Run(t, topologyCmd, "topology", "measure", "--tree", "testdata/topology/small_tree.json", "--seed", "1", "--out", dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("wrote %s (14 nodes) and %s (", filepath.Join(dir, "rtt.csv"), filepath.Join(dir, "interference.csv")); !strings.HasPrefix(out, want) {
		t.Errorf("measure printed %q, want it to start %q", out, want)
	}
}

// TestTopologyNeeded: with observations missing, infer says which it needs;
// answering those (from the true tree) settles it. Without any
// observations the leaf switches still come from the RTTs.
func TestTopologyNeeded(t *testing.T) {
	truth := readSmall(t)
	dir, _ := measureAndInfer(t, "--tree", "testdata/topology/small_tree.json")
	names := truth.Nodes
	id := map[string]int{}
	for i, n := range names {
		id[n] = i
	}
	rtt := filepath.Join(dir, "rtt.csv")
	out, _, err := clitest.Run(t, topologyCmd, "topology", "infer", "--rtt", rtt)
	if err != nil {
		t.Fatal(err)
	}
	var inf inferredTree
	if err := json.Unmarshal([]byte(out), &inf); err != nil {
		t.Fatal(err)
	}
	if inf.Settled || len(inf.Needed) == 0 || len(inf.Switches) != 0 || inf.Used != 0 {
		t.Fatalf("without observations: settled %v, %d needed, %d switches, %d used", inf.Settled, len(inf.Needed), len(inf.Switches), inf.Used)
	}
	if len(inf.LeafGroups) != 5 {
		t.Errorf("%d leaf groups from the RTTs, want 5", len(inf.LeafGroups))
	}
	// Answer what is asked, round by round, as a measuring operator would.
	var obs []topology.Observation
	for round := 0; !inf.Settled; round++ {
		if round > 10 {
			t.Fatalf("not settled after %d rounds of answering what infer asks", round)
		}
		for _, q := range inf.Needed {
			a, b, c, d := id[q.A], id[q.B], id[q.C], id[q.D]
			obs = append(obs, topology.Observation{A: a, B: b, C: c, D: d, Interferes: topology.Interferes(truth, a, b, c, d)})
		}
		var buf bytes.Buffer
		if err := topology.WriteInterferenceCSV(&buf, names, obs); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, fmt.Sprintf("answers%d.csv", round))
		if err := os.WriteFile(f, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _, err := clitest.Run(t, topologyCmd, "topology", "infer", "--rtt", rtt, "--interference", f)
		if err != nil {
			t.Fatal(err)
		}
		inf = inferredTree{}
		if err := json.Unmarshal([]byte(out), &inf); err != nil {
			t.Fatal(err)
		}
	}
	if !topology.Isomorphic(truth, asTree(t, inf)) {
		t.Errorf("settled from the answers but not isomorphic: %s", mustJSON(t, inf))
	}
}

// TestTopologyBadInput: one line naming the file and line (or the flag),
// nothing on stdout, nothing written to --out.
func TestTopologyBadInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	td := "testdata/topology/"
	for _, tc := range []struct {
		args string
		want string
	}{
		{"topology", "name a verb: infer, measure"},
		{"topology bogus", `unknown verb "bogus"`},
		{"topology infer", "--rtt is required"},
		{"topology infer --rtt /nonexistent/rtt.csv", "/nonexistent/rtt.csv: no such file"},
		// Issue 26: devices and endless inputs are refused within a bound.
		{"topology infer --rtt /dev/zero", "/dev/zero: line 1 is longer than 1.05 MB"},
		{"topology measure --tree /dev/zero --out " + out, "/dev/zero holds more than 67.1 MB, the limit for reading an input"},
		{"topology infer --rtt " + td + "ok_rtt4.csv extra", `unexpected argument "extra"`},
		{"topology infer --rtt " + td + "bad_rtt_ragged.csv", "bad_rtt_ragged.csv: rtt csv: line 3, column 4: 3 fields, want 4"},
		{"topology infer --rtt " + td + "bad_rtt_nan.csv", `bad_rtt_nan.csv: rtt csv: line 3, column 4 (b to c): "x" is not a finite number`},
		{"topology infer --rtt " + td + "bad_rtt_asym.csv", "bad_rtt_asym.csv: rtt csv: line 4, column 2: c to a is 700"},
		{"topology infer --rtt " + td + "bad_rtt_name.csv", `bad_rtt_name.csv: rtt csv: line 4, column 1: node "q" is not in the header`},
		{"topology infer --rtt " + td + "ok_rtt4.csv --interference " + td + "bad_int_name.csv", `bad_int_name.csv: interference csv: line 3, column 4 (d): node "zz"`},
		{"topology infer --rtt " + td + "ok_rtt4.csv --interference " + td + "bad_int_value.csv", `bad_int_value.csv: interference csv: line 2, column 5 (interferes): "maybe", want true or false`},
		{"topology infer --rtt " + td + "ok_rtt4.csv --interference " + td + "bad_int_header.csv", "bad_int_header.csv: interference csv: line 1, column"},
		{"topology infer --rtt " + td + "ok_rtt4.csv --interference /nonexistent.csv", "/nonexistent.csv: no such file"},
		{"topology measure --preset paper", "--out is required"},
		{"topology measure --out " + out, "give the cluster: --tree tree.json or --preset paper|experiment"},
		{"topology measure --preset big --out " + out, `--preset "big" is unknown: want paper or experiment`},
		{"topology measure --preset paper --tree " + td + "small_tree.json --out " + out, "give --tree or --preset, not both"},
		{"topology measure --tree /nonexistent.json --out " + out, "/nonexistent.json: no such file"},
		{"topology measure --tree " + td + "bad_tree_syntax.json --out " + out, "bad_tree_syntax.json: line 4, column 14: invalid character"},
		{"topology measure --tree " + td + "bad_tree_type.json --out " + out, "bad_tree_type.json: line 4, column 31: tree JSON: json: cannot unmarshal string"},
		{"topology measure --tree " + td + "bad_tree_name.json --out " + out, `bad_tree_name.json: tree JSON: "switches"[0]: node "zz" is not in "nodes"`},
		{"topology measure --tree " + td + "bad_tree_parent.json --out " + out, "bad_tree_parent.json: tree JSON: switch 0 has parent 3"},
		{"topology measure --tree " + td + "ok_rtt4.csv --out " + out, "ok_rtt4.csv: line 1, column 2: invalid character"},
		{"topology measure --preset paper --pings 0 --out " + out, "-pings = 0, want 1 … 1000"},
		{"topology measure --preset paper --noise -1 --out " + out, "-noise = -1, want 0 … 1e+06"},
		{"topology measure --preset paper --seed x --out " + out, `invalid value "x" for flag -seed`},
		{"topology measure --preset paper --out /proc/commlab-cannot-be-here", "--out /proc/commlab-cannot-be-here"},
	} {
		t.Run(tc.args, func(t *testing.T) { clitest.BadInput(t, topologyCmd, tc.args, tc.want) })
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed measure left %s behind (%v)", out, err)
	}
}

// TestTopologyMeasureKeepsOldFiles: a failing measure into a directory
// that holds an earlier run leaves those files as they were.
func TestTopologyMeasureKeepsOldFiles(t *testing.T) {
	dir, _ := measureAndInfer(t, "--preset", "experiment")
	before := clitest.ReadTree(t, dir)
	clitest.BadInput(t, topologyCmd, "topology measure --tree testdata/topology/bad_tree_name.json --out "+dir, "bad_tree_name.json")
	after := clitest.ReadTree(t, dir)
	if len(after) != len(before) {
		t.Fatalf("%d files before, %d after", len(before), len(after))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("%s changed", name)
		}
	}
}

func TestLineCol(t *testing.T) {
	b := []byte("a\nbc\n\nd")
	for _, tc := range []struct {
		off  int64
		want string
	}{{0, "line 1, column 1"}, {1, "line 1, column 2"}, {2, "line 2, column 1"}, {4, "line 2, column 3"}, {5, "line 3, column 1"}, {6, "line 4, column 1"}, {100, "line 4, column 2"}, {-1, "line 1, column 1"}} {
		if got := lineCol(b, tc.off); got != tc.want {
			t.Errorf("lineCol(%d) = %q, want %q", tc.off, got, tc.want)
		}
	}
}

// TestTopologyOutsideFiles is the scenario: files written by
// another tool. The RTT matrix is symmetric (each pair pinged once),
// rounded to whole µs, over a tree of three switch levels with a different
// latency per level and two slow pings; the interference file holds one
// observation per pair of disjoint leaf-switch pairs, each through the
// last node of each switch (not the one the inference would pick). The
// tree must come out; and from the RTTs alone, the ready list --needed
// writes, answered through random nodes of the named groups, must settle
// it in a few rounds.
func TestTopologyOutsideFiles(t *testing.T) {
	truth, err := topology.Generate(3, 3, 4) // root, 3 switches, 9 leaf switches of 4
	if err != nil {
		t.Fatal(err)
	}
	n := len(truth.Nodes)
	rng := sweep.RNG(13, 0, 0)
	linkRTT := func(s int) float64 { // the link above switch s, both ways
		if s <= 3 {
			return 7 // upper level
		}
		return 3 // leaf switch to its parent
	}
	rtt := make([][]float64, n)
	for u := range rtt {
		rtt[u] = make([]float64, n)
	}
	for u := range n {
		for v := u + 1; v < n; v++ {
			x := 44.0 // hosts and the two node links
			for _, l := range truth.Path(u, v) {
				x += linkRTT(l.Child)
			}
			x = math.Round(x + 0.5*rng.ExpFloat64())
			rtt[u][v], rtt[v][u] = x, x
		}
	}
	for _, p := range [][2]int{{0, 1}, {5, 30}} { // slow pings
		rtt[p[0]][p[1]] *= 10
		rtt[p[1]][p[0]] *= 10
	}
	dir := t.TempDir()
	write := func(name string, f func(io.Writer) error) string {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rttFile := write("rtt.csv", func(w io.Writer) error { return topology.WriteRTTCSV(w, truth.Nodes, rtt) })
	leaves := truth.LeafSwitches()
	last := func(s int) int { ns := truth.Switches[s].Nodes; return ns[len(ns)-1] }
	var obs []topology.Observation
	for i, a := range leaves {
		for j := i + 1; j < len(leaves); j++ {
			for k := i + 1; k < len(leaves); k++ {
				for l := k + 1; l < len(leaves); l++ {
					if k == j || l == j {
						continue
					}
					p, q, r, s := last(a), last(leaves[j]), last(leaves[k]), last(leaves[l])
					obs = append(obs, topology.Observation{A: p, B: q, C: r, D: s, Interferes: topology.Interferes(truth, p, q, r, s)})
				}
			}
		}
	}
	intFile := write("interference.csv", func(w io.Writer) error { return topology.WriteInterferenceCSV(w, truth.Nodes, obs) })
	out, _, err := clitest.Run(t, topologyCmd, "topology", "infer", "--rtt", rttFile, "--interference", intFile)
	if err != nil {
		t.Fatal(err)
	}
	var inf inferredTree
	if err := json.Unmarshal([]byte(out), &inf); err != nil {
		t.Fatal(err)
	}
	if !inf.Settled || !topology.Isomorphic(truth, asTree(t, inf)) {
		t.Fatalf("from the other tool's files: settled %v, %d leaf groups, %d needed", inf.Settled, len(inf.LeafGroups), len(inf.Needed))
	}
	if !inf.Noise.Symmetric || inf.Noise.Quantum != 1 || inf.Noise.Outliers != 2 {
		t.Errorf("noise read as %+v, want symmetric, quantum 1, 2 outliers", inf.Noise)
	}

	// From the RTTs alone: answer the ready list round by round.
	needed := filepath.Join(dir, "needed.csv")
	ids := map[string]int{}
	for i, name := range truth.Nodes {
		ids[name] = i
	}
	obs = obs[:0]
	args := []string{"topology", "infer", "--rtt", rttFile, "--needed", needed}
	for round := 0; ; round++ {
		if round > 10 {
			t.Fatalf("not settled after %d rounds of answering the ready list", round)
		}
		out, stderr, err := clitest.Run(t, topologyCmd, args...)
		if err != nil {
			t.Fatal(err)
		}
		inf = inferredTree{}
		if err := json.Unmarshal([]byte(out), &inf); err != nil {
			t.Fatal(err)
		}
		if inf.Settled {
			break
		}
		if !strings.Contains(stderr, "wrote the") {
			t.Fatalf("unsettled without saying so on stderr: %q", stderr)
		}
		b, err := os.ReadFile(needed)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil || len(rows) != len(inf.Needed)+1 || strings.Join(rows[0], ",") != "a,b,c,d,interferes" {
			t.Fatalf("the ready list is not the needed list as CSV: %v, %q", err, b)
		}
		for _, q := range inf.Needed {
			var v [4]int
			for i, g := range q.Groups { // any node of the group will do
				members := inf.LeafGroups[g]
				v[i] = ids[members[(round+i)%len(members)]]
			}
			obs = append(obs, topology.Observation{A: v[0], B: v[1], C: v[2], D: v[3], Interferes: topology.Interferes(truth, v[0], v[1], v[2], v[3])})
		}
		f := write(fmt.Sprintf("answers%d.csv", round), func(w io.Writer) error { return topology.WriteInterferenceCSV(w, truth.Nodes, obs) })
		args = []string{"topology", "infer", "--rtt", rttFile, "--interference", f, "--needed", needed}
	}
	if !topology.Isomorphic(truth, asTree(t, inf)) {
		t.Errorf("settled from the ready lists but not isomorphic")
	}
}

// TestTopologyEdges: a byte-order mark before a CSV is read past, the same
// interference question answered both ways names both lines, and an
// unknown key in a tree JSON is an error (readTreeJSON's decoder alone did
// not reach into Tree's UnmarshalJSON).
func TestTopologyEdges(t *testing.T) {
	td := "testdata/topology/"
	plain, _, err := clitest.Run(t, topologyCmd, "topology", "infer", "--rtt", td+"ok_rtt4.csv")
	if err != nil {
		t.Fatal(err)
	}
	withBOM, _, err := clitest.Run(t, topologyCmd, "topology", "infer", "--rtt", td+"bom_rtt4.csv")
	if err != nil || withBOM != plain {
		t.Errorf("rtt csv with a BOM: %v\n%s\nwant\n%s", err, withBOM, plain)
	}
	if _, _, err := clitest.Run(t, topologyCmd, "topology", "infer", "--rtt", td+"bom_rtt4.csv", "--interference", td+"bom_int.csv"); err != nil {
		t.Errorf("interference csv with a BOM: %v", err)
	}
	// Tree JSON with a BOM reads as the same tree (issue 26: it was refused).
	if bom, err := readTreeJSON(td + "bom_tree.json"); err != nil {
		t.Errorf("tree JSON with a BOM: %v", err)
	} else if plain, _ := readTreeJSON(td + "small_tree.json"); mustJSON(t, bom) != mustJSON(t, plain) {
		t.Errorf("tree JSON with a BOM reads as another tree")
	}
	out := t.TempDir() + "/m"
	for _, tc := range []struct{ args, want string }{
		{"topology infer --rtt " + td + "ok_rtt4.csv --interference " + td + "bad_int_contradiction.csv",
			"bad_int_contradiction.csv: interference csv: line 4, column 5 (interferes): d-b with c-a is true, but line 2 has a-c with b-d false: the same question answered both ways"},
		{"topology measure --tree " + td + "bad_tree_unknown.json --out " + out, `bad_tree_unknown.json: tree JSON: json: unknown field "parnet"`},
	} {
		t.Run(tc.args, func(t *testing.T) { clitest.BadInput(t, topologyCmd, tc.args, tc.want) })
	}
}

// topologyCmd is `gen-report topology ...` as main runs it.
func topologyCmd(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 || args[0] != "topology" {
		return fmt.Errorf("topologyCmd: want topology ..., got %q", args)
	}
	return RunTopology(stdout, stderr, args[1:])
}
