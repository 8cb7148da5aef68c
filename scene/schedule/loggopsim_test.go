package schedule

import (
	"strings"
	"testing"

	"commlab/engine/goal"
	"commlab/scene"
	"commlab/scene/scenetest"
)

// TestLogGOPSimAnswers: the embedded answers are the file the scene's
// tests read (expected() in scene_test.go), parsed: eight rows, every
// shipped example under LogGOPSim's defaults and the second set.
func TestLogGOPSimAnswers(t *testing.T) {
	got, err := LogGOPSimAnswers()
	if err != nil {
		t.Fatal(err)
	}
	want := expected(t)
	if len(got) != len(want) {
		t.Fatalf("%d answers, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Example != w.file || g.Flags != w.flags || float64(g.End) != w.end {
			t.Errorf("answer %d: %+v, want %+v", i, g, w)
		}
		p, err := Params(scenetest.Values(New(), flagValues(t, w.flags, "")), "")
		if err != nil {
			t.Fatal(err)
		}
		if g.Params != p {
			t.Errorf("answer %d: params %+v, want %+v", i, g.Params, p)
		}
	}
	if got[0].Params != goal.Default() || got[1].Params != DefaultB {
		t.Errorf("the two sets: %+v, %+v; want LogGOPSim's defaults and DefaultB", got[0].Params, got[1].Params)
	}
	for _, bad := range []string{
		"ex_nope_4.goal\tdefaults\t1\n",
		"ex_dissemination_16.goal\t-L\t1\n",
		"ex_dissemination_16.goal\t-X 3\t1\n",
		"ex_dissemination_16.goal\tdefaults\t-1\n",
		"ex_dissemination_16.goal\tdefaults\n",
	} {
		if _, err := parseAnswers(bad); err == nil || !strings.Contains(err.Error(), "expected.tsv:1") {
			t.Errorf("%q: error %v, want one naming expected.tsv:1", bad, err)
		}
	}
}

// TestPaperPoint: on every shipped example under either set, alone
// (compare none), against the other set (compare params) and against
// another example (compare file), the page shows LogGOPSim's answer for
// each side beside the run's, which equals it to the nanosecond.
func TestPaperPoint(t *testing.T) {
	info := New().Info()
	answers, _ := LogGOPSimAnswers()
	for _, a := range answers {
		for _, cmp := range []string{CompareNone, CompareParams, CompareFile} {
			set := flagValues(t, a.Flags, "")
			set[KeyFile], set[KeyCompare] = a.Example, cmp
			for k, v := range flagValues(t, answers[0].Flags, "2") {
				set[k] = v // side B under LogGOPSim's defaults
			}
			set[KeyFile2] = "dissemination_16"
			r := scenetest.Build(t, New(), set, 1)
			got := scene.PaperPoint(New(), scenetest.Values(New(), set), r.Numbers())
			// Side B is the same example under LogGOPSim's defaults, or
			// file 2 under set A: LogGOPSim ran every example under both.
			want := 2
			if cmp == CompareNone {
				want = 1
			}
			if len(got) != want {
				t.Errorf("%s, %s, compare %s: %d numbers, want %d", a.Example, a.Flags, cmp, len(got), want)
				continue
			}
			for _, n := range got {
				if n.Paper != n.Ours || n.By != "LogGOPSim" || !strings.Contains(n.Source, "its output under") {
					t.Errorf("%s, %s, compare %s: %+v", a.Example, a.Flags, cmp, n)
				}
			}
			if got[0].Paper != float64(a.End) {
				t.Errorf("%s, %s: side A LogGOPSim %v, want %d", a.Example, a.Flags, got[0].Paper, a.End)
			}
			if cmp == CompareNone && a.Example == DefaultFile {
				t.Logf("%s: %s %s (%s) · commlab %s", got[0].What, got[0].ByText(), got[0].PaperText(info), got[0].Source, got[0].OursText(info))
			}
		}
	}
	// The scene's defaults are a point: both sides.
	d := scenetest.Build(t, New(), nil, 1)
	if got := scene.PaperPoint(New(), scenetest.Values(New(), nil), d.Numbers()); len(got) != 2 {
		t.Errorf("the defaults: %d numbers, want 2", len(got))
	}
}

// TestNotPaperPoint: noise, or parameters LogGOPSim was not run with, show
// no answer.
func TestNotPaperPoint(t *testing.T) {
	for _, set := range []map[string]string{
		{KeyNoise: NoiseOS},
		{KeyNoise: NoiseNet},
		{KeyCompare: CompareNone, "L": "2501"},
		{KeyCompare: CompareNone, "S": "1024"}, // one flag of the second set alone
	} {
		r := scenetest.Build(t, New(), set, 1)
		if got := scene.PaperPoint(New(), scenetest.Values(New(), set), r.Numbers()); got != nil {
			t.Errorf("%v: %+v, want none", set, got)
		}
	}
	// Side B alone off the sets: only side A's answer.
	set := map[string]string{"L2": "3001"}
	r := scenetest.Build(t, New(), set, 1)
	if got := scene.PaperPoint(New(), scenetest.Values(New(), set), r.Numbers()); len(got) != 1 || !strings.Contains(got[0].What, "side A") {
		t.Errorf("%v: %+v, want side A's only", set, got)
	}
}
