package main

import (
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
