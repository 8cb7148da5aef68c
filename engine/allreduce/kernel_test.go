package allreduce

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestProcLayout holds proc to the layout kernel_amd64.s reads.
func TestProcLayout(t *testing.T) {
	var p proc
	if unsafe.Offsetof(p.f) != 0 || unsafe.Offsetof(p.lim) != 8 || unsafe.Offsetof(p.w) != 16 || unsafe.Sizeof(p) != 24 {
		t.Fatalf("proc: f at %d, lim at %d, w at %d, %d bytes; kernel_amd64.s reads 0, 8, 16 and 24",
			unsafe.Offsetof(p.f), unsafe.Offsetof(p.lim), unsafe.Offsetof(p.w), unsafe.Sizeof(p))
	}
}

// TestKernels runs the stage loops (SSE2 on amd64) against the Go loops on
// the same random pairs, a third of them off the fast path in one way or
// another: contiguous runs of every length, odd ones included, and the
// strided runs of stages 1-3. It wants the same procs, slow pairs and
// maximum, bit for bit.
func TestKernels(t *testing.T) {
	t.Run("contiguous", testContiguousKernels)
	t.Run("strided", testStridedKernels)
}

func randomProcs(rng *rand.Rand, n int) []proc {
	inf := math.Inf(1)
	ps := make([]proc, n)
	for i := range ps {
		f := rng.Float64() * 1e-5
		lim, w := f+rng.Float64()*1e-5, f+rng.Float64()*2e-5
		switch rng.IntN(6) {
		case 0:
			lim = f * rng.Float64() // sends past lim
		case 1:
			w = f * rng.Float64() // work meets a window
		case 2:
			lim, w = inf, inf
		case 3:
			w = math.Inf(-1) // redundant: quiet interval opens before
		}
		ps[i] = proc{f: f, lim: lim, w: w}
	}
	return ps
}

// kernelRun is one loop over ps, returning the maximum and the slow pairs.
type kernelRun func(ps []proc, slow []int32) (float64, int)

// sameRun runs got and want on copies of ps and fails unless they agree.
// Slow pairs are compared as sets: the sweeps may visit pairs in another
// order, and the slow pairs are done afterwards in any order.
func sameRun(t *testing.T, what string, ps []proc, npairs int, got, want kernelRun) {
	t.Helper()
	gp, wp := slices.Clone(ps), slices.Clone(ps)
	gs, ws := make([]int32, npairs+3), make([]int32, npairs+3)
	gmx, gn := got(gp, gs)
	wmx, wn := want(wp, ws)
	slices.Sort(gs[:gn])
	slices.Sort(ws[:wn])
	if math.Float64bits(gmx) != math.Float64bits(wmx) || gn != wn || !slices.Equal(gs, ws) || !slices.Equal(gp, wp) {
		t.Fatalf("%s: max %v, %d slow %v; the Go loop: max %v, %d slow %v (procs equal: %v)",
			what, gmx, gn, gs[:gn], wmx, wn, ws[:wn], slices.Equal(gp, wp))
	}
}

func testContiguousKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, npairs := range []int{1, 2, 3, 8, 33, 512} {
		for trial := range 20 {
			ps := randomProcs(rng, 2*npairs)
			tcomm, work, mx := rng.Float64()*3e-6, rng.Float64()*1e-7, rng.Float64()*1e-5
			start := rng.IntN(1000)
			halves := func(f func(pa, pb []proc, slow []int32) (float64, int)) kernelRun {
				return func(ps []proc, slow []int32) (float64, int) { return f(ps[:npairs], ps[npairs:], slow) }
			}
			what := fmt.Sprintf("pairs=%d trial %d", npairs, trial)
			sameRun(t, "butterfly "+what, ps, npairs,
				halves(func(pa, pb []proc, slow []int32) (float64, int) {
					return butterflyRunContiguous(pa, pb, start, tcomm, work, mx, slow, 3, false)
				}),
				halves(func(pa, pb []proc, slow []int32) (float64, int) {
					return butterflyRunContiguousGo(pa, pb, start, tcomm, work, mx, slow, 3, false)
				}))
			sameRun(t, "redundant "+what, ps, npairs,
				halves(func(pa, pb []proc, slow []int32) (float64, int) {
					return redundantRunContiguous(pa, pb, start, tcomm, mx, slow, 3, false)
				}),
				halves(func(pa, pb []proc, slow []int32) (float64, int) {
					return redundantRunContiguousGo(pa, pb, start, tcomm, mx, slow, 3, false)
				}))
		}
	}
}

func testStridedKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const start = 8
	for _, m := range []int{1, 2, 4} {
		for _, npairs := range []int{4, 16, 4096} {
			for trial := range 10 {
				ps := randomProcs(rng, start+2*npairs+8)
				tcomm, work, mx := rng.Float64()*3e-6, rng.Float64()*1e-7, rng.Float64()*1e-5
				what := fmt.Sprintf("m=%d pairs=%d trial %d", m, npairs, trial)
				sameRun(t, "butterfly "+what, ps, npairs,
					func(ps []proc, slow []int32) (float64, int) {
						return butterflyRun(ps, start, npairs, m, m-1, tcomm, work, mx, slow, 3, false)
					},
					func(ps []proc, slow []int32) (float64, int) {
						return butterflyRunStridedGo(ps, start, npairs, m, m-1, tcomm, work, mx, slow, 3, false)
					})
				sameRun(t, "redundant "+what, ps, npairs,
					func(ps []proc, slow []int32) (float64, int) {
						return redundantRun(ps, start, npairs, m, m-1, tcomm, mx, slow, 3, false)
					},
					func(ps []proc, slow []int32) (float64, int) {
						return redundantRunStridedGo(ps, start, npairs, m, m-1, tcomm, mx, slow, 3, false)
					})
			}
		}
	}
}
