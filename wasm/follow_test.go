package main

import (
	"math/bits"
	"strconv"
	"strings"
	"testing"

	"commlab/scene"
)

// depScene's T follows P as the allreduce scenes' does: default K = log2
// P, at most K.
type depScene struct{ testScene }

func (depScene) Fields() []scene.Field {
	k := func(v scene.Values) int { return bits.Len(uint(v.Int("P"))) - 1 }
	return append(testScene{}.Fields(), scene.Field{
		Key: "T", Label: "T", Kind: scene.Int, Type: "int", Min: 0, Max: 6, Default: "3",
		DependsOn:  []string{"P"},
		DefaultFor: func(v scene.Values) string { return strconv.Itoa(k(v)) },
		RangeFor: func(v scene.Values) scene.Range {
			return scene.Range{Lo: 0, Hi: float64(k(v)), Why: "T ≤ K = " + strconv.Itoa(k(v))}
		},
	})
}

func TestSetParamsFollows(t *testing.T) {
	a, err := newApp(scene.Registry{depScene{testScene{"dep"}}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if errs := a.SetParams(map[string]string{"P": "32"}); len(errs) > 0 || a.st.Values["T"] != "5" || len(a.notices) > 0 {
		t.Fatalf("P = 32: T = %s, errors %v, notices %v; want T = 5 silently", a.st.Values["T"], errs, a.notices)
	}
	if errs := a.SetParams(map[string]string{"T": "4"}); len(errs) > 0 {
		t.Fatal(errs)
	}
	if errs := a.SetParams(map[string]string{"P": "4"}); len(errs) > 0 || a.st.Values["T"] != "2" || len(a.notices) != 1 || !strings.Contains(a.notices[0].Message, "P = 4") {
		t.Fatalf("P = 4 with T = 4: T = %s, errors %v, notices %v; want T = 2 with a notice naming P", a.st.Values["T"], errs, a.notices)
	}
	st := a.State(960, 540)
	if n := st["notices"].([]any); len(n) != 1 {
		t.Errorf("state().notices = %v", n)
	}
	if errs := a.SetParams(map[string]string{"T": "3"}); len(errs) != 1 || errs[0].Key != "T" || a.st.Values["T"] != "2" {
		t.Errorf("T = 3 at P = 4: errors %v, T = %s; want one error on T and T kept", errs, a.st.Values["T"])
	}
	f := a.Fields()[len(a.Fields())-1].(map[string]any)
	if f["range_max"] != 2.0 || f["default"] != "2" {
		t.Errorf("fields() T at P = 4: range_max %v, default %v; want 2 and 2", f["range_max"], f["default"])
	}
}

func TestSetVisible(t *testing.T) {
	a, err := newApp(testReg, "?scene=one&autoplay=1")
	if err != nil {
		t.Fatal(err)
	}
	a.SetVisible(false)
	t0, f0 := a.player.T, a.frames
	a.Tick(0.1)
	if a.player.T != t0 || a.frames != f0 || a.State(1, 1)["visible"] != false {
		t.Errorf("hidden: the playhead moved %v → %v", t0, a.player.T)
	}
	a.SetVisible(true)
	a.Tick(0.1)
	if !(a.player.T > t0) {
		t.Errorf("visible again: the playhead stays at %v", a.player.T)
	}
}
