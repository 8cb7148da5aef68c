package sweep

// pointQueue is a binary heap of points, heaviest trial first and, among
// equals, the lowest index (so the order is the plan's, whatever the
// order of pushes).
type pointQueue struct {
	h    []int
	cost func(point int) float64
}

func (q *pointQueue) len() int { return len(q.h) }
func (q *pointQueue) top() int { return q.h[0] }

func (q *pointQueue) before(a, b int) bool {
	ca, cb := q.cost(a), q.cost(b)
	return ca > cb || ca == cb && a < b
}

func (q *pointQueue) push(pt int) {
	q.h = append(q.h, pt)
	for i := len(q.h) - 1; i > 0; {
		up := (i - 1) / 2
		if !q.before(q.h[i], q.h[up]) {
			break
		}
		q.h[i], q.h[up] = q.h[up], q.h[i]
		i = up
	}
}

func (q *pointQueue) pop() {
	last := len(q.h) - 1
	q.h[0] = q.h[last]
	q.h = q.h[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < last && q.before(q.h[l], q.h[m]) {
			m = l
		}
		if r < last && q.before(q.h[r], q.h[m]) {
			m = r
		}
		if m == i {
			return
		}
		q.h[i], q.h[m] = q.h[m], q.h[i]
		i = m
	}
}
