package goal

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"commlab/internal/goalshape"
)

// BenchmarkShapes runs goalshape's adversarial shapes (a linear
// broadcast, fan-out, fan-in, a long chain, unexpected floods, posted
// walks, wildcards) and reports the time per operation and message
// (ns/item, cpu-ns/item); Shapes/NAME/n=N/read reads their text
// (ns/byte), and est/cpu the estimate's time against the CPU time of a
// run (EstimateSchedule, EstimateRead). Each case writes its shape when it runs, so that -bench
// picks one without the others' texts.
func BenchmarkShapes(b *testing.B) {
	for _, sh := range goalshape.Shapes {
		for _, n := range []int{10_000, 100_000} {
			text := func(b *testing.B) []byte {
				var buf bytes.Buffer
				if err := sh.Write(&buf, n); err != nil {
					b.Fatal(err)
				}
				return buf.Bytes()
			}
			b.Run(fmt.Sprintf("%s/n=%d/read", sh.Name, n), func(b *testing.B) {
				text := text(b)
				c0 := cpuSeconds()
				for b.Loop() {
					_, err := Read(bytes.NewReader(text), sh.Name, ReadOptions{Labels: true, SizeHint: int64(len(text))})
					if (err != nil) != sh.Cycle {
						b.Fatal(err)
					}
				}
				reportPer(b, c0, float64(len(text)), "byte")
				reportEstimate(b, c0, EstimateRead(int64(len(text)), true).Seconds)
			})
			if sh.Cycle {
				continue
			}
			for _, rec := range []bool{false, true} {
				b.Run(fmt.Sprintf("%s/n=%d/record=%v", sh.Name, n, rec), func(b *testing.B) {
					text := text(b)
					s, err := Read(bytes.NewReader(text), sh.Name, ReadOptions{Labels: true, SizeHint: int64(len(text))})
					if err != nil {
						b.Fatal(err)
					}
					var x Executor
					c0 := cpuSeconds()
					for b.Loop() {
						if _, err := x.Run(s, Default(), Noise{}, Options{Record: rec}); err != nil {
							b.Fatal(err)
						}
					}
					reportPer(b, c0, float64(s.NumOps()+s.NumSends()), "item")
					reportEstimate(b, c0, EstimateSchedule(s, rec).Seconds)
				})
			}
		}
	}
}

// reportEstimate reports an estimate's time against the CPU time a run
// took (est/cpu: the estimate bounds the run where it is at least 1).
func reportEstimate(b *testing.B, c0, est float64) {
	if c := cpuSeconds() - c0; c > 0 {
		b.ReportMetric(est/(c/float64(b.N)), "est/cpu")
	}
}

// reportPer reports ns of wall and CPU time per unit of work (work per
// iteration).
func reportPer(b *testing.B, c0, work float64, unit string) {
	total := work * float64(b.N)
	b.ReportMetric(b.Elapsed().Seconds()*1e9/total, "ns/"+unit)
	if c := cpuSeconds() - c0; c > 0 {
		b.ReportMetric(c*1e9/total, "cpu-ns/"+unit)
	}
}

// BenchmarkReadDense reads the texts that hold the most per byte
// (denseText: calcs of 7 bytes, one-letter labels, a dependency each),
// against EstimateRead's time (est/cpu).
func BenchmarkReadDense(b *testing.B) {
	for _, k := range []string{"calc", "named", "deps"} {
		b.Run(k, func(b *testing.B) {
			text := []byte(denseText(k, 300_000))
			c0 := cpuSeconds()
			for b.Loop() {
				if _, err := Read(bytes.NewReader(text), k, ReadOptions{Labels: true}); err != nil {
					b.Fatal(err)
				}
			}
			reportPer(b, c0, float64(len(text)), "byte")
			reportEstimate(b, c0, EstimateRead(int64(len(text)), true).Seconds)
		})
	}
}

// TestWriteShapes writes goalshape's shapes as GOAL files, for timing
// `gen-report eval goal` on them: with COMMLAB_GOAL_SHAPES=DIR,
// DIR/SHAPE-N.goal for N = 10,000, 30,000 and 100,000 (and whatever sizes
// COMMLAB_GOAL_SHAPE_SIZES lists, comma-separated). It skips otherwise.
//
//	COMMLAB_GOAL_SHAPES=/tmp/shapes go test -run WriteShapes ./engine/goal/
func TestWriteShapes(t *testing.T) {
	dir := os.Getenv("COMMLAB_GOAL_SHAPES")
	if dir == "" {
		t.Skip("set COMMLAB_GOAL_SHAPES=DIR to write the adversarial shapes there")
	}
	sizes := []int{10_000, 30_000, 100_000}
	if s := os.Getenv("COMMLAB_GOAL_SHAPE_SIZES"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(f)
			if err != nil || n < 2 {
				t.Fatalf("COMMLAB_GOAL_SHAPE_SIZES: %q: want sizes of at least 2", f)
			}
			sizes = append(sizes, n)
		}
	}
	for _, sh := range goalshape.Shapes {
		for _, n := range sizes {
			var buf bytes.Buffer
			if err := sh.Write(&buf, n); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.goal", sh.Name, n)), buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
