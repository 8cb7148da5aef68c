package cli

import (
	"strings"
	"testing"
	"time"
)

// TestProgressLines drives the plain progress writer with a fake clock: a
// start line, one line per interval with the share done and an ETA from the
// rate so far, nothing in between, and one final line.
func TestProgressLines(t *testing.T) {
	var b strings.Builder
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &progressLines{w: &b, what: "allreduce sweeps", now: func() time.Time { return clock }, every: 10 * time.Second}
	step := func(after time.Duration, done float64) {
		clock = clock.Add(after)
		p.update(done, 100)
	}
	step(0, 1)
	step(5*time.Second, 10) // within the interval: no line
	step(5*time.Second, 25) // 10 s in, a quarter done: 30 s left
	step(3*time.Second, 30)
	step(27*time.Second, 100)
	step(time.Second, 100) // after the end: nothing more
	want := "allreduce sweeps: started\n" +
		"allreduce sweeps: 25% of the work done, 10s elapsed, about 30s left\n" +
		"allreduce sweeps: done in 40s\n"
	if b.String() != want {
		t.Errorf("progress lines:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestProgressNotATerminal checks that a writer that is not a terminal gets
// lines, not a bar's carriage returns.
func TestProgressNotATerminal(t *testing.T) {
	var b strings.Builder
	f := Progress(&b, "logp sweeps")
	f(1, 2)
	f(2, 2)
	if got := b.String(); strings.Contains(got, "\r") || !strings.Contains(got, "logp sweeps: done in") {
		t.Errorf("progress on a non-terminal wrote %q", got)
	}
}
