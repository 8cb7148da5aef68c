package schedule

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"testing"

	"commlab/engine/cost"
	"commlab/engine/goal"
	"commlab/internal/goalshape"
	"commlab/scene"
)

// shapeKey adds goalshape's shape at size n as a page's file (an error:
// the page refuses to read it).
func shapeKey(t testing.TB, name string, n int) (string, error) {
	t.Helper()
	sh, ok := goalshape.Find(name)
	if !ok {
		t.Fatalf("no shape %q", name)
	}
	var buf bytes.Buffer
	if err := sh.Write(&buf, n); err != nil {
		t.Fatal(err)
	}
	return AddFile(KindUpload, fmt.Sprintf("%s-%d.goal", name, n), buf.Bytes())
}

// pageValues are the scene's values for one side on file key.
func pageValues(key string) scene.Values {
	v := scene.Default(Scene{}).Values
	v[KeyFile], v[KeyCompare] = key, CompareNone
	return v
}

// fitsPage reports whether the page builds shape name at size n: its
// estimate within the page's budget.
func fitsPage(t testing.TB, name string, n int) (bool, cost.Cost) {
	key, err := shapeKey(t, name, n)
	if err != nil {
		return false, cost.Cost{}
	}
	c, err := Scene{}.Estimate(pageValues(key))
	if err != nil {
		t.Fatal(err)
	}
	return c.Check(cost.Page) == nil, c
}

// largestOnPage is the largest size of a shape whose build the page's
// budget accepts, within 2 %: the estimate grows linearly in the size, so
// two sizes place it, and a few steps down from there find it.
func largestOnPage(t testing.TB, name string) int {
	const n0, n1 = 10_000, 20_000
	ok0, c0 := fitsPage(t, name, n0)
	_, c1 := fitsPage(t, name, n1)
	if !ok0 || c1.Seconds <= c0.Seconds {
		t.Fatalf("%s: %d refused, or the estimate does not grow", name, n0)
	}
	limit := cost.Page.Seconds / cost.Page.Slowdown
	n := n0 + int(float64(n1-n0)*(limit-c0.Seconds)/(c1.Seconds-c0.Seconds))
	for n > n0 {
		if ok, _ := fitsPage(t, name, n); ok {
			return n
		}
		n -= n / 50
	}
	return n0
}

// TestPageShapes finds, for each adversarial shape, the largest the page
// accepts (its estimate within the 2 s budget, at cost.WasmSlowdown times
// the native time; its text within what the page reads: goal.LimitsFor)
// and checks that the page refuses it twice as large, on the file field
// or when it is added; BenchmarkPageShapes builds those
// sizes (natively and under node: the budget holds where the build takes
// at most 2 s in the wasm).
func TestPageShapes(t *testing.T) {
	for _, sh := range goalshape.Shapes {
		if sh.Cycle {
			continue
		}
		n := largestOnPage(t, sh.Name)
		_, c := fitsPage(t, sh.Name, n)
		t.Logf("%-12s largest on the page n = %6d: %s operations and messages, estimated at %s in the page (%s)", sh.Name, n, cost.Num(c.Events), cost.Duration(c.Seconds*cost.Page.Slowdown), cost.Bytes(c.Bytes))
		key, err := shapeKey(t, sh.Name, 2*n)
		var le *goal.LimitError
		switch {
		case errors.As(err, &le):
			t.Logf("%-12s n = %d refused when added: %v", sh.Name, 2*n, err)
			continue
		case err != nil:
			t.Fatal(err)
		}
		c, err = Scene{}.Estimate(pageValues(key))
		if err != nil {
			t.Fatal(err)
		}
		err = c.Check(cost.Page)
		var ce *cost.Error
		if !errors.As(err, &ce) || ce.Cost.Key != KeyFile {
			t.Errorf("%s at %d: %v, want a refusal on %s", sh.Name, 2*n, err, KeyFile)
		}
		t.Logf("%-12s n = %d refused: %v", sh.Name, 2*n, err)
	}
}

// BenchmarkPageShapes builds each adversarial shape at the largest size
// the page accepts (TestPageShapes) and reports the build's time
// (ms/build, and cpu-ms/build: the process's CPU time, natively from
// getrusage, under node from process.cpuUsage) beside the estimate's
// (est-ms: native; the page multiplies it by cost.WasmSlowdown and holds
// it to 2 s). Under node (GOOS=js GOARCH=wasm, go_js_wasm_exec) the
// times are the page's own.
//
//	go test -run '^$' -bench PageShapes -benchtime 3x ./scene/schedule/
func BenchmarkPageShapes(b *testing.B) {
	if os.Getenv("COMMLAB_BENCH") == "" && testing.Short() {
		b.Skip("short")
	}
	for _, sh := range goalshape.Shapes {
		if sh.Cycle {
			continue
		}
		b.Run(sh.Name, func(b *testing.B) {
			n := largestOnPage(b, sh.Name)
			key, err := shapeKey(b, sh.Name, n)
			if err != nil {
				b.Fatal(err)
			}
			v := pageValues(key)
			c, err := Scene{}.Estimate(v)
			if err != nil {
				b.Fatal(err)
			}
			sc := New()
			c0 := cpuSeconds()
			for b.Loop() {
				if _, err := sc.Build(v, 1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n), "n")
			b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/build")
			if cpu := cpuSeconds() - c0; cpu > 0 {
				b.ReportMetric(cpu*1e3/float64(b.N), "cpu-ms/build")
			}
			b.ReportMetric(c.Seconds*1e3, "est-ms")
		})
	}
}
