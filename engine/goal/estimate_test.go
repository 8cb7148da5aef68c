package goal

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"commlab/engine/cost"
	"commlab/internal/goalshape"
)

// memFactor is how far above what a run of an adversarial shape holds
// its memory bound may be (EstimateSchedule: the queue and the wait
// groups are bounded by everything that can wait at once, the critical
// path by the longest a run of its size can have). Lock-step
// collectives (butterflies, random pairs) hold far less than that bound:
// only at least is checked there.
const memFactor = 12

// estimateCases are the adversarial shapes at each of sizes, and, with
// more than one size, butterflies and random pairs.
func estimateCases(t testing.TB, sizes ...int) []pinnedCase {
	var cs []pinnedCase
	for _, sh := range goalshape.Shapes {
		if sh.Cycle {
			continue
		}
		for _, n := range sizes {
			cs = append(cs, pinnedCase{fmt.Sprintf("%s-%d", sh.Name, n), shapeSchedule(t, sh.Name, n), Default()})
		}
	}
	if len(sizes) == 1 {
		return cs
	}
	cs = append(cs, pinnedCase{"butterfly-256", butterfly(t, 256, 0), Default()},
		pinnedCase{"butterfly-256 T=4", butterfly(t, 256, 4), Default()},
		pinnedCase{"butterfly-4096", butterfly(t, 4096, 0), Default()})
	var buf bytes.Buffer
	if err := randomPairsText(&buf, 2048, 11); err != nil {
		t.Fatal(err)
	}
	s, err := Read(&buf, "random", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return append(cs, pinnedCase{"random-pairs-2048", s, Default()})
}

// TestEstimateShapes holds EstimateSchedule's memory to what a run of
// each adversarial shape and of butterflies allocates, recorded or not:
// at least that, at most memFactor times (plus a fixed 1 MB for the
// smallest); and EstimateRun (from the operation count alone) above
// EstimateSchedule.
func TestEstimateShapes(t *testing.T) {
	for _, c := range estimateCases(t, 2_000, 10_000) {
		for _, rec := range []bool{false, true} {
			est := EstimateSchedule(c.s, rec)
			got := held(func() any {
				x := &Executor{}
				r, err := x.Run(c.s, c.p, Noise{}, Options{Record: rec})
				if err != nil {
					t.Fatal(err)
				}
				return []any{x, r}
			})
			total := cost.Allocated(func() { Run(c.s, c.p, Noise{}, Options{Record: rec}) })
			t.Logf("%-22s record=%-5v %8d ops  est %9.3g B held %9.3g B  ratio %5.2f  (allocated in all %9.3g B)", c.name, rec, c.s.NumOps(), est.Bytes, got, est.Bytes/got, total)
			lockstep := strings.HasPrefix(c.name, "butterfly") || strings.HasPrefix(c.name, "random")
			if est.Bytes < got || !lockstep && est.Bytes > memFactor*got+1<<20 {
				t.Errorf("%s record=%v: estimate %s, held %s: want within [1, %d]x", c.name, rec, cost.Bytes(est.Bytes), cost.Bytes(got), memFactor)
			}
			if byCount := EstimateRun(c.s.NumOps(), rec); byCount.Bytes < est.Bytes || byCount.Seconds < est.Seconds {
				t.Errorf("%s record=%v: EstimateRun %s, %s under EstimateSchedule's %s, %s", c.name, rec,
					cost.Bytes(byCount.Bytes), cost.Duration(byCount.Seconds), cost.Bytes(est.Bytes), cost.Duration(est.Seconds))
			}
		}
	}
}

// denseText is GOAL text of the shapes that hold the most per byte: n
// unlabelled calcs of 7 bytes; calcs with labels of one to three letters
// (a rank every 78, so that no label repeats in one); calcs each
// requiring the one before.
func denseText(kind string, n int) string {
	var b strings.Builder
	ranks := 1
	if kind == "named" {
		ranks = (n + 77) / 78
	}
	fmt.Fprintf(&b, "num_ranks %d\nrank 0 {\n", ranks)
	for i := range n {
		switch kind {
		case "calc":
			b.WriteString("calc 0\n")
		case "named":
			if i > 0 && i%78 == 0 {
				fmt.Fprintf(&b, "}\nrank %d {\n", i/78)
			}
			fmt.Fprintf(&b, "%c%s: calc 0\n", 'a'+i%26, strings.Repeat("b", i/26%3))
		case "deps":
			fmt.Fprintf(&b, "l%d: calc 0\n", i)
			if i > 0 {
				fmt.Fprintf(&b, "l%d requires l%d\n", i, i-1)
			}
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// TestEstimateRead holds EstimateRead to what the schedules read from the
// shapes' texts, butterflies' and the densest texts hold (at least that),
// with labels and without, with the text's size given and not; and to
// half what reading them allocates in all (the arrays' copies as they
// grow).
func TestEstimateRead(t *testing.T) {
	var texts []struct {
		name string
		text []byte
	}
	for _, sh := range goalshape.Shapes {
		var buf bytes.Buffer
		if err := sh.Write(&buf, 5_000); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, struct {
			name string
			text []byte
		}{sh.Name, buf.Bytes()})
	}
	var buf bytes.Buffer
	if err := butterflyText(&buf, 1024, 0); err != nil {
		t.Fatal(err)
	}
	texts = append(texts, struct {
		name string
		text []byte
	}{"butterfly-1024", buf.Bytes()})
	for _, k := range []string{"calc", "named", "deps"} {
		texts = append(texts, struct {
			name string
			text []byte
		}{"dense-" + k, []byte(denseText(k, 50_000))})
	}
	for _, c := range texts {
		for _, labels := range []bool{false, true} {
			for _, hint := range []bool{!labels} { // the text's size given without labels, not given with
				est := EstimateRead(int64(len(c.text)), labels)
				opt := ReadOptions{Labels: labels}
				if hint {
					opt.SizeHint = int64(len(c.text))
				}
				got := held(func() any {
					s, _ := Read(bytes.NewReader(c.text), c.name, opt)
					return s
				})
				total := cost.Allocated(func() { Read(bytes.NewReader(c.text), c.name, opt) })
				t.Logf("%-16s labels=%-5v hint=%-5v %9d bytes  est %9.3g B held %9.3g B  ratio %5.2f  (allocated in all %9.3g B)", c.name, labels, hint, len(c.text), est.Bytes, got, est.Bytes/got, total)
				// what the schedule holds, and the copies its arrays leave
				// as they grow: in all at most twice it
				if est.Bytes < got || 2*est.Bytes < total {
					t.Errorf("%s labels=%v hint=%v: estimate %s, held %s, allocated in all %s", c.name, labels, hint, cost.Bytes(est.Bytes), cost.Bytes(got), cost.Bytes(total))
				}
			}
		}
	}
}

// TestEstimateAllCases: EstimateSchedule holds what every pinned run,
// matchSchedule's and the small shapes' hold, recorded (several
// CPUs and NICs, wildcards, rendezvous, stuck runs among them).
func TestEstimateAllCases(t *testing.T) {
	for _, c := range diffCases(t) {
		for _, rec := range []bool{true} { // recorded: the larger
			est := EstimateSchedule(c.s, rec)
			got := held(func() any {
				x := &Executor{}
				r, _ := x.Run(c.s, c.p, Noise{}, Options{Record: rec})
				return []any{x, r}
			})
			if est.Bytes < got {
				t.Errorf("%s record=%v: estimate %s, held %s", c.name, rec, cost.Bytes(est.Bytes), cost.Bytes(got))
			}
		}
	}
}

// TestScheduleBytes holds Schedule.Bytes to what a schedule read keeps
// live: at least it, at most twice (a label's string may share its
// allocation) and its fixed 64 kB.
func TestScheduleBytes(t *testing.T) {
	for _, c := range estimateCases(t, 2_000)[:6] {
		var bytesOf float64
		got := held(func() any {
			var b bytes.Buffer
			if err := Write(&b, c.s); err != nil {
				t.Fatal(err)
			}
			s, err := Read(&b, c.name, ReadOptions{Labels: true})
			if err != nil {
				t.Fatal(err)
			}
			bytesOf = s.Bytes()
			return s
		})
		if bytesOf < got || bytesOf > 2*got+64<<10 {
			t.Errorf("%s: Bytes %s, held %s", c.name, cost.Bytes(bytesOf), cost.Bytes(got))
		}
	}
}
