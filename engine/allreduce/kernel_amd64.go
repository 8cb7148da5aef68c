//go:build amd64 && !purego

package allreduce

// The stage loops' fast paths run two pairs at a time in SSE2
// (kernel_amd64.s; SSE2 is in every amd64 CPU, so there is nothing to
// detect). They compute what the Go loops do, bit for bit: MAXPD and MINPD
// agree with max and min on the times, which are never NaN or -0, and
// additions round alike. TestKernels runs both on the same random pairs;
// `-tags purego` builds the Go loops alone.
//
// The assembly reads proc's fields at fixed offsets: f 0, lim 8, w 16,
// procSize bytes a proc; TestProcLayout fails if that changes.
const procSize = 24

// sweep tells the assembly where a stage's pairs lie, two per iteration:
// lane 0's lower member at a, its partner pbOff bytes on, lane 1 lane
// bytes after lane 0, the next iteration step bytes on; the lower members'
// indices are idx and idx+idxLane, idx growing by idxStep.
type sweep struct {
	a                     *proc
	pbOff, lane, step     int
	iters                 int // > 0
	idx, idxLane, idxStep int
}

//go:noescape
func butterflySweep(s *sweep, tcomm, work, mx float64, slow *int32, n int) (float64, int)

//go:noescape
func redundantSweep(s *sweep, flight, mx float64, slow *int32, n int) (float64, int)

// contiguousSweep is pairs (pa[j], pb[j]), j < even, pa[0] at index
// start, when pb lies after pa in the same array (butterflyRun cuts both
// from ps up to its end, so their capacities differ by the distance
// between them; the check makes sure).
func contiguousSweep(pa, pb []proc, start, even int) (sweep, bool) {
	d := cap(pa) - cap(pb)
	if even == 0 || d <= 0 || &pa[:cap(pa)][d] != &pb[0] {
		return sweep{}, false
	}
	return sweep{a: &pa[0], pbOff: d * procSize, lane: procSize, step: 2 * procSize, iters: even / 2, idx: start, idxLane: 1, idxStep: 2}, true
}

func butterflyRunContiguous(pa, pb []proc, start int, tcomm, work, mx float64, slow []int32, n int, all bool) (float64, int) {
	pb = pb[:len(pa)]
	even := len(pa) &^ 1
	s, ok := contiguousSweep(pa, pb, start, even)
	if all || even == 0 || n+len(pa) > len(slow) || !ok {
		return butterflyRunContiguousGo(pa, pb, start, tcomm, work, mx, slow, n, all)
	}
	mx, n = butterflySweep(&s, tcomm, work, mx, &slow[0], n)
	return butterflyRunContiguousGo(pa[even:], pb[even:], start+even, tcomm, work, mx, slow, n, all)
}

func redundantRunContiguous(pa, pb []proc, start int, flight, mx float64, slow []int32, n int, all bool) (float64, int) {
	pb = pb[:len(pa)]
	even := len(pa) &^ 1
	s, ok := contiguousSweep(pa, pb, start, even)
	if all || even == 0 || n+len(pa) > len(slow) || !ok {
		return redundantRunContiguousGo(pa, pb, start, flight, mx, slow, n, all)
	}
	mx, n = redundantSweep(&s, flight, mx, &slow[0], n)
	return redundantRunContiguousGo(pa[even:], pb[even:], start+even, flight, mx, slow, n, all)
}

// stridedSweeps returns the sweeps of a strided run (stages 1-3, partner
// distance m < 8): the pairs (i, i+m) with i in groups of m every 2m from
// start, npairs of them. It reports false when they do not fill whole
// groups in ps or do not fit slow, and the Go loop runs instead.
func stridedSweeps(ps []proc, start, npairs, m int, slow []int32, n int) (sw [2]sweep, k int, ok bool) {
	if npairs == 0 || npairs%max(2, m) != 0 || start+2*npairs > len(ps) || n+npairs > len(slow) {
		return sw, 0, false
	}
	a := func(i int) *proc { return &ps[i] }
	switch m {
	case 1: // (start+4t, +1) and (start+4t+2, +1)
		sw[0] = sweep{a: a(start), pbOff: procSize, lane: 2 * procSize, step: 4 * procSize, iters: npairs / 2, idx: start, idxLane: 2, idxStep: 4}
		return sw, 1, true
	case 2: // (start+4t, +2) and (start+4t+1, +2)
		sw[0] = sweep{a: a(start), pbOff: 2 * procSize, lane: procSize, step: 4 * procSize, iters: npairs / 2, idx: start, idxLane: 1, idxStep: 4}
		return sw, 1, true
	case 4: // groups of 4 pairs every 8: lanes r, r+1 for r = 0, then 2
		for r := range 2 {
			sw[r] = sweep{a: a(start + 2*r), pbOff: 4 * procSize, lane: procSize, step: 8 * procSize, iters: npairs / 4, idx: start + 2*r, idxLane: 1, idxStep: 8}
		}
		return sw, 2, true
	}
	return sw, 0, false
}

func butterflyRunStrided(ps []proc, start, npairs, m int, tcomm, work, mx float64, slow []int32, n int) (float64, int, bool) {
	sw, k, ok := stridedSweeps(ps, start, npairs, m, slow, n)
	for i := range k {
		mx, n = butterflySweep(&sw[i], tcomm, work, mx, &slow[0], n)
	}
	return mx, n, ok
}

func redundantRunStrided(ps []proc, start, npairs, m int, flight, mx float64, slow []int32, n int) (float64, int, bool) {
	sw, k, ok := stridedSweeps(ps, start, npairs, m, slow, n)
	for i := range k {
		mx, n = redundantSweep(&sw[i], flight, mx, &slow[0], n)
	}
	return mx, n, ok
}
