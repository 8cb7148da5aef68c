//go:build !js && !wasip1 && !windows

package goal

import (
	"bufio"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkButterfly2e20 is the scale target: a butterfly
// allreduce of 2^20 ranks in GOAL (about 2.7 GB of text, 63 M operations)
// read and run end to end in under 30 s and 2 GB. It only runs with
// COMMLAB_GOAL_BIG=1 (make test stays fast); the text goes to
// $COMMLAB_GOAL_BIG_DIR (kept, so that `gen-report eval goal` can be
// timed on it too) or to a temporary directory. On a shared machine the
// wall times include other jobs' turns on the cores; cpu-s-* are this
// process's CPU seconds.
//
//	COMMLAB_GOAL_BIG=1 go test -run '^$' -bench Butterfly2e20 -benchtime 1x -cpu 1 ./engine/goal/
func BenchmarkButterfly2e20(b *testing.B) {
	if os.Getenv("COMMLAB_GOAL_BIG") == "" {
		b.Skip("set COMMLAB_GOAL_BIG=1 to generate and run the 2^20-rank schedule")
	}
	dir := os.Getenv("COMMLAB_GOAL_BIG_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	path := filepath.Join(dir, "butterfly_2e20.goal")
	if _, err := os.Stat(path); err != nil {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		if err := butterflyText(w, 1<<20, 0); err != nil {
			b.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	var read, run time.Duration
	var readCPU, runCPU float64
	var ops int
	for b.Loop() {
		t0, c0 := time.Now(), cpuSeconds()
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		s, err := Read(f, path, ReadOptions{SizeHint: st.Size()})
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		t1, c1 := time.Now(), cpuSeconds()
		r, err := Run(s, Default(), Noise{}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		read, run, ops = t1.Sub(t0), time.Since(t1), s.NumOps()
		readCPU, runCPU = c1-c0, cpuSeconds()-c1
		if r.End != 20*5642 { // TestButterflyClosedForm
			b.Fatalf("end %d ns, want 20·5642", r.End)
		}
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	b.ReportMetric(float64(st.Size())/1e9, "GB-text")
	b.ReportMetric(float64(ops), "ops")
	b.ReportMetric(read.Seconds(), "s-read")
	b.ReportMetric(run.Seconds(), "s-run")
	b.ReportMetric((read + run).Seconds(), "s-total")
	b.ReportMetric(readCPU, "cpu-s-read")
	b.ReportMetric(runCPU, "cpu-s-run")
	b.ReportMetric(float64(ru.Maxrss)/1e6, "GB-peak-RSS")
}
