package trace

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"commlab/engine/progress"
)

// TestSortProgressIsSort checks that the sort in steps leaves a trace
// exactly as Sort does (ties included: records that differ only in a late
// field), at sizes around the chunk and its powers, and that the fraction
// it reports rises to 1.
func TestSortProgressIsSort(t *testing.T) {
	for _, n := range []int{0, 1, 100, sortChunk, sortChunk + 1, 3*sortChunk + 17, 8*sortChunk - 1} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(n), 1))
			var tr Trace
			for i := range n {
				// Few distinct times and lanes, so that most order is
				// decided by the later fields.
				tr.Spans = append(tr.Spans, Span{Lane: r.IntN(4), Kind: Kind(r.IntN(3)), Start: float64(r.IntN(8)), End: float64(r.IntN(8)), Step: r.IntN(3), Label: fmt.Sprint(r.IntN(2))})
				tr.Messages = append(tr.Messages, Message{From: r.IntN(4), To: r.IntN(4), Send: float64(r.IntN(8)), Arrive: float64(r.IntN(3)), Step: r.IntN(3), Class: fmt.Sprint(r.IntN(2)), Delay: float64(r.IntN(2)), Used: r.IntN(2) == 0})
				if i%3 == 0 {
					tr.Markers = append(tr.Markers, Marker{Lane: r.IntN(4), Time: float64(r.IntN(8)), Label: fmt.Sprint(r.IntN(3))})
				}
			}
			want := Trace{Spans: slices.Clone(tr.Spans), Messages: slices.Clone(tr.Messages), Markers: slices.Clone(tr.Markers)}
			want.Sort()
			var seen []float64
			if err := tr.SortProgress(func(done float64) error { seen = append(seen, done); return nil }); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tr.Spans, want.Spans) || !slices.Equal(tr.Messages, want.Messages) || !slices.Equal(tr.Markers, want.Markers) {
				t.Fatal("SortProgress's order differs from Sort's")
			}
			if len(seen) == 0 || seen[len(seen)-1] != 1 {
				t.Fatalf("reports %v, want them to end at 1", seen)
			}
			for i := 1; i < len(seen); i++ {
				if seen[i] < seen[i-1] {
					t.Fatalf("fraction %v after %v", seen[i], seen[i-1])
				}
			}
			if n >= 4*sortChunk && len(seen) < 8 {
				t.Errorf("%d reports for %d records, want one every chunk or so", len(seen), n)
			}
		})
	}
}

func TestSortProgressStops(t *testing.T) {
	var tr Trace
	for i := range 4 * sortChunk {
		tr.Messages = append(tr.Messages, Message{Send: float64(-i)})
	}
	calls := 0
	err := tr.SortProgress(func(float64) error {
		if calls++; calls == 3 {
			return progress.ErrCanceled
		}
		return nil
	})
	if !errors.Is(err, progress.ErrCanceled) || calls != 3 {
		t.Errorf("SortProgress = %v after %d reports, want ErrCanceled after 3", err, calls)
	}
}
