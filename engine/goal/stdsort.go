package goal

import "math/bits"

// stdSort sorts a by key as libstdc++'s std::sort does (introsort: median
// of three into the first slot, Hoare partition, heap sort past depth
// 2·⌊log2 n⌋, insertion sort below 16 elements). It is not stable, and
// LogGOPSim sorts the operations a host frees at one instant with it
// (gnp_op_comp_func: by type only), so among more than 16 freed
// operations the order of equal types, and with it their queue stamps and
// every later tie, is libstdc++'s: reproducing the algorithm is what
// makes large schedules agree to the nanosecond. A test holds it to the
// permutations g++ produces.
func stdSort(a []uint32, key func(uint32) uint8) { sortBy(a, keyLess(key)) }

// lesser is the comparison a sort uses; the executor's byKind is a
// struct, so the generic sort is compiled for it with less inlined.
type lesser interface{ less(x, y uint32) bool }

type keyLess func(uint32) uint8

func (k keyLess) less(x, y uint32) bool { return k(x) < k(y) }

// byKind orders operations by LogGOPSim's type (gnp_op_comp_func). It
// sorts kind-tagged places (withKind), so a comparison reads no
// operation: a rank's roots are sorted once each run, some 17 of them in
// a butterfly of 2^17 ranks, and reading each compared operation's line
// was a tenth of the run.
type byKind struct{}

func (byKind) less(x, y uint32) bool { return x>>30 < y>>30 }

// withKind tags place u with its operation's kind in the top two bits
// (places are below MaxOps < 2^30); untagged by & offMask.
func (s *Schedule) withKind(u uint32) uint32 { return s.ops[u].off&^offMask | u }

func sortBy[L lesser](a []uint32, l L) {
	n := len(a)
	if n < 2 {
		return
	}
	introsortLoop(a, 0, n, 2*(bits.Len(uint(n))-1), l)
	finalInsertionSort(a, 0, n, l)
}

const sortThreshold = 16

func introsortLoop[L lesser](a []uint32, first, last, depth int, l L) {
	for last-first > sortThreshold {
		if depth == 0 {
			heapSort(a[first:last], l)
			return
		}
		depth--
		cut := partitionPivot(a, first, last, l)
		introsortLoop(a, cut, last, depth, l)
		last = cut
	}
}

func partitionPivot[L lesser](a []uint32, first, last int, l L) int {
	mid := first + (last-first)/2
	moveMedianToFirst(a, first, first+1, mid, last-1, l)
	return unguardedPartition(a, first+1, last, first, l)
}

func moveMedianToFirst[L lesser](a []uint32, result, x, y, z int, l L) {
	switch {
	case l.less(a[x], a[y]):
		switch {
		case l.less(a[y], a[z]):
			a[result], a[y] = a[y], a[result]
		case l.less(a[x], a[z]):
			a[result], a[z] = a[z], a[result]
		default:
			a[result], a[x] = a[x], a[result]
		}
	case l.less(a[x], a[z]):
		a[result], a[x] = a[x], a[result]
	case l.less(a[y], a[z]):
		a[result], a[z] = a[z], a[result]
	default:
		a[result], a[y] = a[y], a[result]
	}
}

func unguardedPartition[L lesser](a []uint32, first, last, pivot int, l L) int {
	for {
		for l.less(a[first], a[pivot]) {
			first++
		}
		last--
		for l.less(a[pivot], a[last]) {
			last--
		}
		if first >= last {
			return first
		}
		a[first], a[last] = a[last], a[first]
		first++
	}
}

func finalInsertionSort[L lesser](a []uint32, first, last int, l L) {
	if last-first > sortThreshold {
		insertionSort(a, first, first+sortThreshold, l)
		for i := first + sortThreshold; i < last; i++ {
			unguardedLinearInsert(a, i, l)
		}
		return
	}
	insertionSort(a, first, last, l)
}

func insertionSort[L lesser](a []uint32, first, last int, l L) {
	if first == last {
		return
	}
	for i := first + 1; i < last; i++ {
		if l.less(a[i], a[first]) {
			v := a[i]
			copy(a[first+1:i+1], a[first:i])
			a[first] = v
		} else {
			unguardedLinearInsert(a, i, l)
		}
	}
}

func unguardedLinearInsert[L lesser](a []uint32, last int, l L) {
	v := a[last]
	next := last - 1
	for l.less(v, a[next]) {
		a[last] = a[next]
		last = next
		next--
	}
	a[last] = v
}

// heapSort is std::__partial_sort(first, last, last): make_heap, then
// sort_heap, with libstdc++'s __adjust_heap (hole to a leaf, then push up).
func heapSort[L lesser](a []uint32, l L) {
	n := len(a)
	if n < 2 {
		return
	}
	for parent := (n - 2) / 2; ; parent-- {
		adjustHeap(a, parent, n, a[parent], l)
		if parent == 0 {
			break
		}
	}
	for last := n - 1; last > 0; last-- {
		v := a[last]
		a[last] = a[0]
		adjustHeap(a, 0, last, v, l)
	}
}

func adjustHeap[L lesser](a []uint32, hole, n int, v uint32, l L) {
	top := hole
	child := hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if l.less(a[child], a[child-1]) {
			child--
		}
		a[hole] = a[child]
		hole = child
	}
	if n&1 == 0 && child == (n-2)/2 {
		child = 2 * (child + 1)
		a[hole] = a[child-1]
		hole = child - 1
	}
	// __push_heap
	parent := (hole - 1) / 2
	for hole > top && l.less(a[parent], v) {
		a[hole] = a[parent]
		hole = parent
		parent = (hole - 1) / 2
	}
	a[hole] = v
}
