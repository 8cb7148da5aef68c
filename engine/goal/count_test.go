package goal

import (
	"fmt"
	"os"
	"testing"
)

// BenchmarkRunOne runs one butterfly case alone, named by
// $COMMLAB_GOAL_CASE as "P T record" ("1024 0 0"), so that an
// instruction count (valgrind's callgrind) sees the executor on that case
// and nothing else: -benchtime 11x minus 1x, over 10 runs and the
// operations, is the instructions an operation. It skips without the
// variable. docs/goal.md (performance) has the command; the file is
// self-contained so that it can be copied into an older tree to compare.
func BenchmarkRunOne(b *testing.B) {
	var P, T, rec int
	if _, err := fmt.Sscan(os.Getenv("COMMLAB_GOAL_CASE"), &P, &T, &rec); err != nil {
		b.Skip(`set COMMLAB_GOAL_CASE="P T record", e.g. "1024 0 0"`)
	}
	s := butterfly(b, P, T)
	var x Executor
	for b.Loop() {
		if _, err := x.Run(s, Default(), Noise{}, Options{Record: rec != 0}); err != nil {
			b.Fatal(err)
		}
	}
}
