package goal

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"commlab/engine/trace"
)

// Each case is worked out by hand from LogGOPSim.cpp's rules (see the
// package doc); the examples pin only o, g, G and L on eager messages.
func TestRules(t *testing.T) {
	p := Params{L: 10, Overhead: 5, Gap: 3, GapPerByte: 1, OverheadPerByte: 2, S: 1000}
	small := p
	small.S = 50
	for _, c := range []struct {
		name    string
		p       Params
		text    string
		end     int64
		rankEnd []int64
	}{
		{
			// send at 0: CPU until 0+5+99·2 = 203; arrives 0+5+10 = 15;
			// received at 15: CPU until 15+5+max(99·2, 99·1) = 218.
			name: "O and G", p: p, end: 218, rankEnd: []int64{203, 218},
			text: "num_ranks 2\nrank 0 {\nsend 100b to 1 tag 0\n}\nrank 1 {\nrecv 100b from 0 tag 0\n}\n",
		},
		{
			// eager: rank 0's calc waits only for its CPU (203) and ends at
			// 213. Rank 1 takes the message at 1000 (its calc) until 1203.
			name: "eager", p: p, end: 1203, rankEnd: []int64{213, 1203},
			text: "num_ranks 2\nrank 0 {\nl1: send 100b to 1 tag 0\nl2: calc 10\nl2 requires l1\n}\n" +
				"rank 1 {\nl1: calc 1000\nl2: recv 100b from 0 tag 0\nl2 requires l1\n}\n",
		},
		{
			// rendezvous (100 > S = 50): the send is done when the recv is
			// posted at 1000 and finds the message; rank 0's clock moves to
			// 1000 and its calc runs 1000..1010.
			name: "rendezvous", p: small, end: 1203, rankEnd: []int64{1010, 1203},
			text: "num_ranks 2\nrank 0 {\nl1: send 100b to 1 tag 0\nl2: calc 10\nl2 requires l1\n}\n" +
				"rank 1 {\nl1: calc 1000\nl2: recv 100b from 0 tag 0\nl2 requires l1\n}\n",
		},
		{
			// irequires: the calc may start once the send has started, at
			// the send's CPU end 203, and ends at 213; the rendezvous match
			// at 1000 still moves rank 0's clock to 1000 (LogGOPSim's rule).
			name: "irequires", p: small, end: 1203, rankEnd: []int64{1000, 1203},
			text: "num_ranks 2\nrank 0 {\nl1: send 100b to 1 tag 0\nl2: calc 10\nl2 irequires l1\n}\n" +
				"rank 1 {\nl1: calc 1000\nl2: recv 100b from 0 tag 0\nl2 requires l1\n}\n",
		},
		{
			// tags: rank 1 posts tag 2 then tag 1, so the first message
			// (tag 1) skips the first posted recv. Sends at 0 and at
			// max(o, g) = 5: tag 1 arrives 15, is taken 15..20 and matches
			// l2; tag 2 arrives 20, is taken 20..25 and matches l1; the
			// calc after both runs 25..125.
			name: "tags", p: Params{L: 10, Overhead: 5, Gap: 3, S: 1000}, end: 125, rankEnd: []int64{10, 125},
			text: "num_ranks 2\nrank 0 {\nsend 1b to 1 tag 1\nsend 1b to 1 tag 2\n}\n" +
				"rank 1 {\nl1: recv 1b from 0 tag 2\nl2: recv 1b from 0 tag 1\nl3: calc 100\nl3 requires l1\nl3 requires l2\n}\n",
		},
		{
			// any source and any tag: both messages arrive at 15; rank 0's
			// (the earlier stamp) is taken 15..20 and matches l1, rank 1's
			// waits for the CPU, 20..25, and matches l2; calc 25..125.
			name: "wildcards", p: Params{L: 10, Overhead: 5, S: 1000}, end: 125, rankEnd: []int64{5, 5, 125},
			text: "num_ranks 3\nrank 0 {\nsend 1b to 2 tag 7\n}\nrank 1 {\nsend 1b to 2 tag 8\n}\n" +
				"rank 2 {\nl1: recv 1b from -1 tag -1\nl2: recv 1b from -1 tag -1\nl3: calc 100\nl3 requires l2\n}\n",
		},
		{
			// two CPUs: the calcs run side by side.
			name: "cpus", p: p, end: 100, rankEnd: []int64{100},
			text: "num_ranks 1\nrank 0 {\ncalc 100 cpu 0\ncalc 100 cpu 1\n}\n",
		},
	} {
		s := mustRead(t, c.text)
		r, err := Run(s, c.p, Noise{}, Options{Record: true})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.End != c.end {
			t.Errorf("%s: end %d, want %d", c.name, r.End, c.end)
		}
		for i, w := range c.rankEnd {
			if r.RankEnd[i] != w {
				t.Errorf("%s: rank %d ends %d, want %d", c.name, i, r.RankEnd[i], w)
			}
		}
		checkCritical(t, c.name, r)
	}
}

// checkCritical: the path starts at 0 or at a link that began then, its
// links are ordered, and it ends at End.
func checkCritical(t *testing.T, name string, r *Result) {
	t.Helper()
	cp := r.Critical
	if len(cp) == 0 {
		t.Errorf("%s: empty critical path", name)
		return
	}
	if last := cp[len(cp)-1]; last.End != r.End {
		t.Errorf("%s: critical path ends at %d, run at %d", name, last.End, r.End)
	}
	for i := 1; i < len(cp); i++ {
		if cp[i].Start < cp[i-1].Start {
			t.Errorf("%s: critical path goes back at link %d: %+v after %+v", name, i, cp[i], cp[i-1])
		}
	}
}

func TestStuck(t *testing.T) {
	s := mustRead(t, "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 3\n}\nrank 1 {\nl1: recv 8b from 0 tag 4\nl2: calc 5\nl2 requires l1\n}\n")
	_, err := Run(s, Default(), Noise{}, Options{})
	if !IsStuck(err) || !strings.Contains(err.Error(), "1 operations never ran") ||
		!strings.Contains(err.Error(), "rank 1 l1: recv from 0 tag 4") || !strings.Contains(err.Error(), "rank 0 l1: send to 1 tag 3 never received") {
		t.Fatalf("err = %v", err)
	}
}

func TestParamsValidate(t *testing.T) {
	p := Default()
	p.Gap = -1
	if err := p.Validate(); err == nil || err.Error() != "g = -1 is out of range: want an integer number of ns in [0, 2147483647]" {
		t.Errorf("err = %v", err)
	}
	p = Default()
	p.S = 1 << 32
	if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), "S = 4294967296 is out of range") {
		t.Errorf("err = %v", err)
	}
}

// TestNoiseTrace: the stall of an operation against a trace, LogGOPSim's
// get_noise worked by hand, and a run whose CPU time grows by the trace.
func TestNoiseTrace(t *testing.T) {
	tr, err := ReadNoiseTrace(strings.NewReader("# start\tduration\n0\t10\n100\t20\n300\t5\n1000\t0\n"), "n.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ off, start, end, want uint64 }{
		{0, 50, 60, 0},     // between events
		{0, 95, 110, 20},   // event at 100 starts inside
		{0, 105, 115, 15},  // event at 100 reaches into it: 120-105
		{0, 0, 10, 0},      // at the first event: LogGOPSim counts it only when starting after it
		{40, 60, 70, 20},   // offset 40: reads the trace at 100..110
		{0, 290, 1310, 30}, // longer than the trace: 300 (5), 1000 (0), wrap, 100 (20), 300 (5)
	} {
		if got := tr.stall(c.off, c.start, c.end); got != c.want {
			t.Errorf("stall(off %d, %d..%d) = %d, want %d", c.off, c.start, c.end, got, c.want)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"0\t1\n", "n.txt: a noise trace needs at least two events, found 1"},
		{"5\t1\n3\t1\n", "n.txt:2:1: start 3 is not after"},
		{"0\t1\nx\t2\n", `n.txt:2:1: start "x" out of range`},
		{"0\t-1\n5\t1\n", `n.txt:1:3: duration "-1" out of range`},
		{"# c\n0\t1\n10  \t 2x\n", `n.txt:3:7: duration "2x" out of range`},
		{"0\t1\n10\t2\t3\n", `n.txt:2:6: want "start<TAB>duration"`},
		{"0\t1\n10\n", `n.txt:2:3: want "start<TAB>duration"`},
		{"\uFEFF0\tz\n", `n.txt:1:6: duration "z"`},
	} {
		_, err := ReadNoiseTrace(strings.NewReader(c.text), "n.txt")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one starting %q", c.text, err, c.want)
		}
	}
}

func TestOSFinish(t *testing.T) {
	// windows [10, 15), [30, 35), ... (phase 10, period 20, duration 5)
	for _, c := range []struct{ t, c, want uint64 }{
		{0, 5, 5}, {0, 10, 10}, {0, 11, 16}, {12, 1, 16}, {15, 40, 65}, {0, 1000, 0},
	} {
		want := c.want
		if c.c == 1000 { // 1000 ns of work over 15-ns gaps: brute force
			tt, left := uint64(0), uint64(1000)
			for left > 0 {
				if tt >= 10 && (tt-10)%20 < 5 {
					tt++
					continue
				}
				tt++
				left--
			}
			want = tt
		}
		if got := osFinish(10, 20, 5, c.t, c.c); got != want {
			t.Errorf("osFinish(t=%d, c=%d) = %d, want %d", c.t, c.c, got, want)
		}
	}
}

// TestNoiseRuns: noise only lengthens a run, the same seed gives the same
// run, co-scheduled trace noise gives every rank the same offset.
func TestNoiseRuns(t *testing.T) {
	s := readFile(t, "testdata/examples/ex_allreduce_recdoub_32.goal", false)
	quiet, err := Run(s, Default(), Noise{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := ReadNoiseTrace(strings.NewReader("0\t0\n1000\t800\n5000\t300\n9000\t2000\n20000\t0\n"), "n")
	for _, n := range []Noise{
		{Trace: tr}, {Trace: tr, CoScheduled: true},
		{OS: &OSJitter{Period: 10000, Duration: 1000}},
		{Net: &NetNoise{Mean: 5000, Delay: 2000}},
	} {
		var ends [2]int64
		for k := range ends {
			n.Rand = rand.New(rand.NewPCG(7, 8))
			r, err := Run(s, Default(), n, Options{Record: true})
			if err != nil {
				t.Fatal(err)
			}
			ends[k] = r.End
			if r.End <= quiet.End {
				t.Errorf("noise %+v: end %d not after the quiet %d", n, r.End, quiet.End)
			}
			checkCritical(t, "noise", r)
		}
		if ends[0] != ends[1] {
			t.Errorf("noise %+v: same seed, ends %d and %d", n, ends[0], ends[1])
		}
	}
	if _, err := Run(s, Default(), Noise{Trace: tr}, Options{}); err == nil {
		t.Error("noise without a random source accepted")
	}
	if _, err := Run(s, Default(), Noise{OS: &OSJitter{Period: 10, Duration: 10}, Rand: rand.New(rand.NewPCG(1, 1))}, Options{}); err == nil || !strings.Contains(err.Error(), "os-duration") {
		t.Errorf("duration = period: %v", err)
	}
}

func TestTraceValid(t *testing.T) {
	for _, name := range []string{"ex_allreduce_recdoub_32.goal", "ex_linear_alltoall_8.goal"} {
		s := readFile(t, "testdata/examples/"+name, true)
		tr, _ := ReadNoiseTrace(strings.NewReader("0\t0\n1000\t800\n5000\t300\n20000\t0\n"), "n")
		r, err := Run(s, Default(), Noise{Trace: tr, Rand: rand.New(rand.NewPCG(1, 2))}, Options{Record: true})
		if err != nil {
			t.Fatal(err)
		}
		tc, err := Trace(s, r)
		if err != nil {
			t.Fatal(err)
		}
		if err := trace.Validate(tc); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if len(tc.Messages) != s.NumSends() {
			t.Errorf("%s: %d messages, %d sends", name, len(tc.Messages), s.NumSends())
		}
	}
}

// Ops with about as many dependencies as a byte counts (exec.big), and a
// schedule whose clock goes back: an op freed onto an idle CPU starts at
// that CPU's clock, earlier than the event that freed it (LogGOPSim's
// rule), which the queue serves from its backlog heap.
func TestManyDepsAndClockBack(t *testing.T) {
	for _, n := range []int{254, 255, 256, 300} {
		var b strings.Builder
		b.WriteString("num_ranks 1\nrank 0 {\nl0: calc 1\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "l%d: calc 1\nl%d requires l0\n", i, i)
		}
		b.WriteString("l1000: calc 5\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "l1000 requires l%d\n", i)
		}
		b.WriteString("l1001: calc 500 cpu 0\nl1001 requires l1000\nl1002: calc 1000 cpu 0\nl1002 requires l1001\n" +
			"l1003: calc 10 cpu 1\nl1003 requires l1002\n}\n")
		s := mustRead(t, b.String())
		// the third run on ex starts from the counts (and big map) ex kept
		var ex Executor
		var r *Result
		for range 3 {
			var err error
			if r, err = ex.Run(s, Default(), Noise{}, Options{Record: true}); err != nil {
				t.Fatal(err)
			}
		}
		// l0 0..1, the n calcs 1..n+1, l1000 until n+6, l1001 and l1002
		// after it on CPU 0; l1003, freed at n+1506 onto the idle CPU 1,
		// starts at that CPU's clock, 0.
		x := int64(n)
		if r.End != x+1506 {
			t.Errorf("n=%d: end %d, want %d", n, r.End, x+1506)
		}
		if got := r.Timeline.Ops[n+1]; got.Start != x+1 {
			t.Errorf("n=%d: l1000 started at %d, want %d", n, got.Start, x+1)
		}
		if got := r.Timeline.Ops[n+4]; got.Start != 0 || got.End != 10 {
			t.Errorf("n=%d: l1003 on the idle CPU 1 ran %d..%d, want 0..10", n, got.Start, got.End)
		}
	}
}

// The butterfly of the benchmarks has a closed form with LogGOPSim's
// defaults: a stage is o + L (flight) + o + 7·G (receive) + 100 (calc) =
// 5642 ns, so P = 2^k ends at k·5642; the 2^20 benchmark checks the same.
func TestButterflyClosedForm(t *testing.T) {
	for _, k := range []int{1, 5, 10, 12} {
		var buf strings.Builder
		if err := butterflyText(&buf, 1<<k, 0); err != nil {
			t.Fatal(err)
		}
		s := mustRead(t, buf.String())
		r, err := Run(s, Default(), Noise{}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(k) * 5642; r.End != want {
			t.Errorf("P=2^%d: end %d, want %d", k, r.End, want)
		}
	}
}

// An Executor reused across schedules and options gives what fresh runs
// give, and leaves earlier Results alone.
func TestExecutorReuse(t *testing.T) {
	var x Executor
	var prev []*Result
	var want []int64
	for round := range 2 {
		for _, name := range []string{"ex_allreduce_recdoub_32.goal", "ex_linear_alltoall_8.goal", "ex_binomialtreebcast_32.goal", "ex_dissemination_16.goal"} {
			s := readFile(t, "testdata/examples/"+name, false)
			fresh, err := Run(s, Default(), Noise{}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := x.Run(s, Default(), Noise{}, Options{Record: round == 1})
			if err != nil {
				t.Fatal(err)
			}
			if r.End != fresh.End || r.Events != fresh.Events || r.Pops != fresh.Pops {
				t.Errorf("%s round %d: reused %+v, fresh %+v", name, round, *r, *fresh)
			}
			prev = append(prev, r)
			want = append(want, fresh.End)
		}
	}
	for i, r := range prev {
		if r.End != want[i] {
			t.Errorf("result %d changed to %d after later runs, was %d", i, r.End, want[i])
		}
	}
}

// An eager send that a larger recv takes from the unexpected queue is
// done twice, as in LogGOPSim (which decides rendezvous by the recv's
// size there): rank 0's l3, waiting for l1 and l2, is freed when rank 1
// takes the message at 50000 ns, before l2's message comes back; l2's
// completion then takes l3's count below zero, which LogGOPSim's unsigned
// counter wraps, so l3 never runs again. It used to panic.
func TestDoneTwice(t *testing.T) {
	s := mustRead(t, "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\nl2: recv 8b from 1 tag 1\nl3: calc 7\nl3 requires l1\nl3 requires l2\n}\n"+
		"rank 1 {\nl1: calc 50000\nl2: recv 2000b from 0 tag 0\nl2 requires l1\nl3: send 8b to 0 tag 1\nl3 requires l2\n}\n")
	p := Params{L: 3000, Overhead: 1000, Gap: 2000, GapPerByte: 4, S: 1024}
	r, err := Run(s, p, Noise{}, Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Ops != 6 {
		t.Errorf("%d operations run, want 6", r.Ops)
	}
	if l3 := r.Timeline.Ops[2]; l3.Start != 50000 || l3.End != 50007 {
		t.Errorf("l3 ran %d..%d, want 50000..50007", l3.Start, l3.End)
	}
	if l2 := r.Timeline.Ops[1]; l2.Done <= 50007 {
		t.Errorf("l2 done at %d, want after l3", l2.Done)
	}
}

// FuzzNoiseStall: any text is a trace or an error naming the file (and
// for a bad line, its line and column); a trace read has increasing
// starts, and stretching work with it at any offset never panics and
// never exceeds the trace's events laid end to end over the work's span.
func FuzzNoiseStall(f *testing.F) {
	f.Add([]byte("# start\tduration\n0\t10\n100\t20\n300\t5\n1000\t0\n"), uint64(40), uint64(60), uint64(1500))
	f.Add([]byte("\uFEFF0 0\r\n5e2\t1.5\n9000\t0\n"), uint64(0), uint64(0), uint64(1))
	f.Add([]byte("0\t1\n10\t2\t3\n"), uint64(1), uint64(2), uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, off, start, n uint64) {
		tr, err := ReadNoiseTrace(bytes.NewReader(data), "f.txt")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.txt:") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for i := 1; i < len(tr.Start); i++ {
			if tr.Start[i] <= tr.Start[i-1] {
				t.Fatalf("starts %d then %d", tr.Start[i-1], tr.Start[i])
			}
		}
		span := tr.Start[len(tr.Start)-1]
		off %= span
		start %= 1 << 40
		n %= 1 << 20
		var all uint64
		for _, d := range tr.Duration {
			all += d
		}
		got := tr.stall(off, start, start+n)
		if wraps := n/span + 2; got > wraps*all {
			t.Fatalf("stall %d over %d ns exceeds %d wraps of the trace's %d ns of events", got, n, wraps, all)
		}
	})
}
