package goal

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// FuzzReadNoiseTrace round-trips: whatever ReadNoiseTrace accepts has at
// least two events with increasing starts, and written back as
// "start<TAB>duration" lines reads as the same trace.
func FuzzReadNoiseTrace(f *testing.F) {
	f.Add("# start\tduration\n0\t10\n100\t20\n300\t5\n1000\t0\n")
	f.Add("\uFEFF0 10\r\n1e3\t2.5\n")
	f.Add("0\t1\n0\t1\n")
	f.Add("5\n")
	f.Fuzz(func(t *testing.T, in string) {
		tr, err := ReadNoiseTrace(strings.NewReader(in), "fuzz")
		if err != nil {
			if len(err.Error()) > 400 {
				t.Fatalf("message of %d bytes: %.200s", len(err.Error()), err)
			}
			return
		}
		if len(tr.Start) < 2 || len(tr.Start) != len(tr.Duration) {
			t.Fatalf("%d starts, %d durations", len(tr.Start), len(tr.Duration))
		}
		for i := 1; i < len(tr.Start); i++ {
			if tr.Start[i] <= tr.Start[i-1] {
				t.Fatalf("start %d = %d not after %d", i, tr.Start[i], tr.Start[i-1])
			}
		}
		var b strings.Builder
		for i := range tr.Start {
			fmt.Fprintf(&b, "%d\t%d\n", tr.Start[i], tr.Duration[i])
		}
		tr2, err := ReadNoiseTrace(strings.NewReader(b.String()), "again")
		if err != nil {
			t.Fatalf("written trace does not read back: %v\n%s", err, b.String())
		}
		if !slices.Equal(tr.Start, tr2.Start) || !slices.Equal(tr.Duration, tr2.Duration) || tr.sumAfterFirst != tr2.sumAfterFirst {
			t.Fatal("round trip changed the trace")
		}
	})
}
