package overlay

import (
	"testing"

	"commlab/render"

	"commlab/scene"
)

// TestOpensOnAnEviction: a link without t opens on the first LRU eviction,
// which the picture marks and names, not on the end of the sort.
func TestOpensOnAnEviction(t *testing.T) {
	r := build(t, nil)
	at := scene.InitialT("scene=overlay", scene.Default(New()), r)
	if len(r.h.evicts) == 0 || at != r.h.evicts[0] || at >= r.End() {
		t.Fatalf("opens at %v of %v; first eviction %v", at, r.End(), r.h.evicts)
	}
	if _, p := r.paint(at, scene.View{W: 960, H: 540, Theme: render.Light()}); p.marked < 0 {
		t.Error("the eviction is not marked in the frame it opens on")
	}
}
