package goal

import (
	"strings"
	"testing"
)

// TestQueueBulkBucket: a bucket whose items share one time moves to b0 in
// bulk; items added out of stamp order (re-insertions keep their stamps)
// still pop in stamp order, and a bucket of two times is split.
func TestQueueBulkBucket(t *testing.T) {
	var q queue
	q.reset()
	q.push(item{time: 0, ts: 0})
	if got := q.pop(); got.ts != 0 {
		t.Fatalf("first pop %+v", got)
	}
	// one time, stamps 5 4 3 ... 0 +10: the bulk path must sort them
	for ts := uint32(5); ts < 6; ts-- {
		q.push(item{time: 100, ts: ts + 10, op: ts})
	}
	// two times in one bucket: the general path
	q.push(item{time: 1 << 20, ts: 30})
	q.push(item{time: 1<<20 + 1, ts: 31})
	q.push(item{time: 1 << 20, ts: 29})
	want := []item{{100, 10, 0, 0}, {100, 11, 1, 0}, {100, 12, 2, 0}, {100, 13, 3, 0}, {100, 14, 4, 0}, {100, 15, 5, 0},
		{1 << 20, 29, 0, 0}, {1 << 20, 30, 0, 0}, {1<<20 + 1, 31, 0, 0}}
	for i, w := range want {
		if got := q.pop(); got != w {
			t.Fatalf("pop %d: %+v, want %+v", i, got, w)
		}
	}
	if q.len() != 0 {
		t.Fatalf("len %d after all pops", q.len())
	}
}

// TestRoots: the rank whose dependencies all point forward (the fast
// path) and one with a dependency pointing back count the same roots as
// Kahn's walk.
func TestRoots(t *testing.T) {
	for _, c := range []struct {
		text  string
		roots int
	}{
		{"num_ranks 1\nrank 0 {\nl1: calc 1\nl2: calc 1\nl3: calc 1\nl3 requires l1\nl2 requires l1\n}\n", 1},
		{"num_ranks 1\nrank 0 {\nl1: calc 1\nl2: calc 1\nl3: calc 1\nl1 requires l3\nl2 requires l3\n}\n", 1},
		{"num_ranks 1\nrank 0 {\nl1: calc 1\nl2: calc 1\nl3: calc 1\nl4: calc 1\nl1 requires l2\nl4 requires l3\n}\n", 2},
		{"num_ranks 2\nrank 0 {\nl1: calc 1\nl2: calc 1\n}\nrank 1 {\nl1: calc 1\nl2: calc 1\nl2 irequires l1\n}\n", 3},
	} {
		s, err := Read(strings.NewReader(c.text), "t", ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if s.roots != c.roots {
			t.Errorf("%q: %d roots, want %d", c.text, s.roots, c.roots)
		}
	}
}
