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
func stdSort(a []uint32, key func(uint32) uint8) {
	n := len(a)
	if n < 2 {
		return
	}
	less := func(x, y uint32) bool { return key(x) < key(y) }
	introsortLoop(a, 0, n, 2*(bits.Len(uint(n))-1), less)
	finalInsertionSort(a, 0, n, less)
}

const sortThreshold = 16

func introsortLoop(a []uint32, first, last, depth int, less func(x, y uint32) bool) {
	for last-first > sortThreshold {
		if depth == 0 {
			heapSort(a[first:last], less)
			return
		}
		depth--
		cut := partitionPivot(a, first, last, less)
		introsortLoop(a, cut, last, depth, less)
		last = cut
	}
}

func partitionPivot(a []uint32, first, last int, less func(x, y uint32) bool) int {
	mid := first + (last-first)/2
	moveMedianToFirst(a, first, first+1, mid, last-1, less)
	return unguardedPartition(a, first+1, last, first, less)
}

func moveMedianToFirst(a []uint32, result, x, y, z int, less func(x, y uint32) bool) {
	switch {
	case less(a[x], a[y]):
		switch {
		case less(a[y], a[z]):
			a[result], a[y] = a[y], a[result]
		case less(a[x], a[z]):
			a[result], a[z] = a[z], a[result]
		default:
			a[result], a[x] = a[x], a[result]
		}
	case less(a[x], a[z]):
		a[result], a[x] = a[x], a[result]
	case less(a[y], a[z]):
		a[result], a[z] = a[z], a[result]
	default:
		a[result], a[y] = a[y], a[result]
	}
}

func unguardedPartition(a []uint32, first, last, pivot int, less func(x, y uint32) bool) int {
	for {
		for less(a[first], a[pivot]) {
			first++
		}
		last--
		for less(a[pivot], a[last]) {
			last--
		}
		if first >= last {
			return first
		}
		a[first], a[last] = a[last], a[first]
		first++
	}
}

func finalInsertionSort(a []uint32, first, last int, less func(x, y uint32) bool) {
	if last-first > sortThreshold {
		insertionSort(a, first, first+sortThreshold, less)
		for i := first + sortThreshold; i < last; i++ {
			unguardedLinearInsert(a, i, less)
		}
		return
	}
	insertionSort(a, first, last, less)
}

func insertionSort(a []uint32, first, last int, less func(x, y uint32) bool) {
	if first == last {
		return
	}
	for i := first + 1; i < last; i++ {
		if less(a[i], a[first]) {
			v := a[i]
			copy(a[first+1:i+1], a[first:i])
			a[first] = v
		} else {
			unguardedLinearInsert(a, i, less)
		}
	}
}

func unguardedLinearInsert(a []uint32, last int, less func(x, y uint32) bool) {
	v := a[last]
	next := last - 1
	for less(v, a[next]) {
		a[last] = a[next]
		last = next
		next--
	}
	a[last] = v
}

// heapSort is std::__partial_sort(first, last, last): make_heap, then
// sort_heap, with libstdc++'s __adjust_heap (hole to a leaf, then push up).
func heapSort(a []uint32, less func(x, y uint32) bool) {
	n := len(a)
	if n < 2 {
		return
	}
	for parent := (n - 2) / 2; ; parent-- {
		adjustHeap(a, parent, n, a[parent], less)
		if parent == 0 {
			break
		}
	}
	for last := n - 1; last > 0; last-- {
		v := a[last]
		a[last] = a[0]
		adjustHeap(a, 0, last, v, less)
	}
}

func adjustHeap(a []uint32, hole, n int, v uint32, less func(x, y uint32) bool) {
	top := hole
	child := hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if less(a[child], a[child-1]) {
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
	for hole > top && less(a[parent], v) {
		a[hole] = a[parent]
		hole = parent
		parent = (hole - 1) / 2
	}
	a[hole] = v
}
