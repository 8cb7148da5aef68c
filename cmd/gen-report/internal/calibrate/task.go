package calibrate

import "math"

// The paper's unit task (Section 4.1): a data vector of n = 400 elements
// multiplied by an m x n = 20 x 400 matrix that every processor holds.
const (
	rows = 20
	cols = 400
	// VectorBytes is what one task's transfer really moves: the data vector.
	VectorBytes = cols * 8
)

// splitmix64 is the vectors' and the matrix's deterministic content, so a
// serial computation can rebuild any vector from its identity.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// unit maps 53 random bits to [-1, 1).
func unit(x uint64) float64 { return float64(x>>11)/(1<<52) - 1 }

// fillVector writes vector id's content into v (len cols).
func fillVector(v []float64, id int) {
	base := uint64(id) * cols
	for e := range v {
		v[e] = unit(splitmix64(base + uint64(e)))
	}
}

// newMatrix is the shared 20 x 400 matrix, row-major.
func newMatrix() []float64 {
	a := make([]float64, rows*cols)
	for k := range a {
		a[k] = unit(splitmix64(^uint64(k)))
	}
	return a
}

// matVec computes y = A v for rows [r0, r1) of A.
func matVec(y, a, v []float64, r0, r1 int) {
	v = v[:cols]
	for r := r0; r < r1; r++ {
		row := a[r*cols : r*cols+cols]
		s := 0.0
		for k, x := range row {
			s += x * v[k]
		}
		y[r] = s
	}
}

// resultHash folds vector id's result into 64 bits. Results are XORed into
// a checksum, which therefore does not depend on which processor computed
// which vector or in what order, but does depend on every vector being
// computed exactly once (twice cancels out, never matching a serial run
// unless the duplicated hash were zero).
func resultHash(id int, y []float64) uint64 {
	h := splitmix64(uint64(id) ^ 0x5851f42d4c957f2d)
	for _, x := range y[:rows] {
		h = splitmix64(h ^ math.Float64bits(x))
	}
	return h
}

// SerialChecksum computes the checksum of tasks vectors 0 … tasks-1 on one
// goroutine: what an execution's checksum must equal.
func SerialChecksum(tasks int) uint64 {
	a := newMatrix()
	v := make([]float64, cols)
	y := make([]float64, rows)
	var sum uint64
	for id := range tasks {
		fillVector(v, id)
		matVec(y, a, v, 0, rows)
		sum ^= resultHash(id, y)
	}
	return sum
}
