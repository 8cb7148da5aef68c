package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTopologyEdges: a byte-order mark before a CSV is read past, the same
// interference question answered both ways names both lines, and an
// unknown key in a tree JSON is an error (readTreeJSON's decoder alone did
// not reach into Tree's UnmarshalJSON).
func TestTopologyEdges(t *testing.T) {
	td := "testdata/topology/"
	plain, _, err := runCmd(t, "topology", "infer", "--rtt", td+"ok_rtt4.csv")
	if err != nil {
		t.Fatal(err)
	}
	withBOM, _, err := runCmd(t, "topology", "infer", "--rtt", td+"bom_rtt4.csv")
	if err != nil || withBOM != plain {
		t.Errorf("rtt csv with a BOM: %v\n%s\nwant\n%s", err, withBOM, plain)
	}
	if _, _, err := runCmd(t, "topology", "infer", "--rtt", td+"bom_rtt4.csv", "--interference", td+"bom_int.csv"); err != nil {
		t.Errorf("interference csv with a BOM: %v", err)
	}
	out := t.TempDir() + "/m"
	for _, tc := range []struct{ args, want string }{
		{"topology infer --rtt " + td + "ok_rtt4.csv --interference " + td + "bad_int_contradiction.csv",
			"bad_int_contradiction.csv: interference csv: line 4, column 5 (interferes): d-b with c-a is true, but line 2 has a-c with b-d false: the same question answered both ways"},
		{"topology measure --tree " + td + "bad_tree_unknown.json --out " + out, `bad_tree_unknown.json: tree JSON: json: unknown field "parnet"`},
	} {
		t.Run(tc.args, func(t *testing.T) { checkBadInput(t, tc.args, tc.want) })
	}
}

// TestEvalGoalTraceOutput: -trace writes as every output does
// (internal/outfile): through a symlink to its target, leaving the link;
// "-" is refused, since standard output carries the eval's JSON.
func TestEvalGoalTraceOutput(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	link := filepath.Join(dir, "link.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	args := "eval goal -f " + goalExamples + "ex_linear_alltoall_8.goal -trace "
	if _, _, err := runCmd(t, strings.Fields(args+link)...); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "traceEvents") {
		t.Errorf("the target holds %.40q, not the trace", b)
	}
	checkBadInput(t, args+"-", "eval goal: -trace -: standard output carries the eval's JSON; name a file")
}
