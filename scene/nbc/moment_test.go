package nbc

import (
	"testing"

	"commlab/scene"
)

// TestOpensOnAFullQueue: a link without t opens where the main thread waits
// on a full HandleQueue (issue 14: the scene used to open on an empty,
// finished queue), and with the queue roomy enough, on its fullest moment.
func TestOpensOnAFullQueue(t *testing.T) {
	r := build(t, nil)
	st := scene.Default(New())
	at := scene.InitialT("scene=tcc", st, r)
	tl := r.tl[iTCC]
	if tl.blocked(at) < 0 {
		t.Errorf("opens at %v of %v with the main thread not blocked", at, r.End())
	}
	full := 0
	for _, s := range tl.queued(at, r.p.QueueCap) {
		if s >= 0 {
			full++
		}
	}
	if full != r.p.QueueCap {
		t.Errorf("opens at %v with %d of %d slots full, want all", at, full, r.p.QueueCap)
	}
	if at >= r.End() {
		t.Errorf("opens at the end")
	}
	if tl.running(at) < 0 {
		t.Errorf("opens at %v with the progress thread idle", at)
	}
	roomy := build(t, map[string]string{"queue": "16"})
	if m := roomy.Moment(); !(m > 0 && m < roomy.End()) {
		t.Errorf("with a roomy queue it opens at %v of %v, want inside the run", m, roomy.End())
	}
}
