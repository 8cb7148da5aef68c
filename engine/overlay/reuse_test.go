package overlay

import (
	"testing"
)

// The diagnosis: with whole messages in the shift order a process
// sends to each destination twice per iteration (count, then keys), about
// all other destinations apart, so a cache of C ≤ 16 serves under 1 % of
// the relayed destinations' sends; chunks bring a destination back at once.
func TestReuseDistances(t *testing.T) {
	p := Default()
	p.Iterations = 2
	whole, err := ReuseDistances(p, rng(1))
	if err != nil {
		t.Fatal(err)
	}
	if whole.Sends == 0 || whole.Hits(16) > 0.01 {
		t.Errorf("whole messages: %d sends, %.3f served by C = 16; want > 0 and under 1 %%", whole.Sends, whole.Hits(16))
	}
	p.ChunkBytes = 512 // IS class A key messages are ~2 KB: 4 chunks
	chunked, err := ReuseDistances(p, rng(1))
	if err != nil {
		t.Fatal(err)
	}
	if h := chunked.Hits(1); h < 0.5 {
		t.Errorf("512-byte chunks: C = 1 serves %.3f of the sends, want most", h)
	}
	sum := chunked.Cold
	for _, n := range chunked.Dist {
		sum += n
	}
	if sum != chunked.Sends {
		t.Errorf("distribution sums to %d, %d sends", sum, chunked.Sends)
	}
	// Hits never fall as C grows.
	for c := 1; c <= 127; c++ {
		if chunked.Hits(c) < chunked.Hits(c-1) {
			t.Fatalf("Hits(%d) < Hits(%d)", c, c-1)
		}
	}
	p.Policy = All
	if all, _ := ReuseDistances(p, rng(1)); all.Sends != 0 {
		t.Errorf("all: %d sends without a static connection", all.Sends)
	}
}

// Chunks and patterns keep the sort whole: every key arrives (checked by
// RunIS, which fails on a process that stops early), and chunking sends
// more messages.
func TestPatternsAndChunks(t *testing.T) {
	base := small()
	base.Nodes, base.Procs, base.Switches, base.Cache = 8, 16, 3, 2
	r0, err := RunIS(base, rng(2), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, pat := range Patterns {
		for _, chunk := range []int{0, 64} {
			p := base
			p.Pattern, p.ChunkBytes = pat, chunk
			r, err := RunIS(p, rng(2), nil)
			if err != nil {
				t.Fatalf("%s, chunks %d: %v", pat, chunk, err)
			}
			if chunk > 0 && r.Messages <= r0.Messages {
				t.Errorf("%s, chunks of %d: %d messages, whole: %d", pat, chunk, r.Messages, r0.Messages)
			}
		}
	}
}
