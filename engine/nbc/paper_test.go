package nbc

import (
	"fmt"
	"strings"
	"testing"
)

// TestPaperNumbers pins the paper's numbers to the last digit: they are
// the values cmd/gen-report's nbc study held as its paperSpeedups and
// paperCases, which it now reads from here (Section V of papers/001).
func TestPaperNumbers(t *testing.T) {
	want := map[int]map[Method]float64{
		2:  {NBCFTest: 1.346, NBCT: 1.127, TCC: 1.166},
		32: {NBCFTest: 1.338, NBCT: 1.020, TCC: 1.271},
	}
	got := PaperSpeedups()
	n := 0
	for nodes, ms := range want {
		for m, x := range ms {
			n++
			s, ok := PaperSpeedupOf(nodes, m)
			if !ok || s.Speedup != x {
				t.Errorf("%d nodes, %s: %v (found %v), want %v", nodes, m, s.Speedup, ok, x)
			}
			// The paper's words hold the number as it prints it.
			if !strings.Contains(s.Words, fmt.Sprintf("約 %.3f", s.Speedup)) {
				t.Errorf("%d nodes, %s: the words %q do not hold %v", nodes, m, s.Words, s.Speedup)
			}
			if s.Source == "" {
				t.Errorf("%d nodes, %s: no source", nodes, m)
			}
		}
	}
	if len(got) != n {
		t.Errorf("%d speedups, want %d", len(got), n)
	}
	for _, m := range []Method{NBCFNoTest, MPI, NBCFNoOvlp} {
		if _, ok := PaperSpeedupOf(2, m); ok {
			t.Errorf("%s has a paper speedup; the paper states none", m)
		}
	}
	names := []string{"NBCF-noovlp", "NBCF-ovlp-test", "NBCF-ovlp-notest", "NBCT-ovlp", "MPI", "TCC-ovlp"}
	cases := PaperCases()
	if len(cases) != len(names) || len(cases) != len(Methods) {
		t.Fatalf("%d cases, want %d", len(cases), len(names))
	}
	for i, c := range cases {
		if c.Name != names[i] || c.Method != Methods[i] || c.Method.PaperName() != names[i] {
			t.Errorf("case %d: %s %q, want %s %q", i, c.Method, c.Name, Methods[i], names[i])
		}
	}
	for nodes, want := range map[int]Params{2: Paper2Nodes(TCC), 32: Paper32Nodes(TCC)} {
		if p, ok := PaperSetup(nodes, TCC); !ok || p != want {
			t.Errorf("PaperSetup(%d) = %+v, %v", nodes, p, ok)
		}
	}
	if _, ok := PaperSetup(8, TCC); ok {
		t.Error("PaperSetup(8) is a paper setup")
	}
}
