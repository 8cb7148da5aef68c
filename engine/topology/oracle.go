package topology

// Oracle answers interference questions: do transfers a↔b and c↔d, run at
// the same time, slow each other down? known is false when the answer was
// neither measured nor given; InferTree then lists the question as needed.
type Oracle interface {
	Interferes(a, b, c, d int) (interferes, known bool)
}

// Observation is one interference measurement between node pairs (A, B)
// and (C, D).
type Observation struct {
	A, B, C, D int
	Interferes bool
}

// Observer is an Oracle that also lists the observations it holds, so that
// InferTree can use every one of them (the paper's R from the measurements),
// not only the ones it asks for.
type Observer interface {
	Oracle
	Observations() []Observation
}

// Measured is the Oracle of a simulated cluster: every question is answered
// by measuring it (Interferes on the tree).
type Measured struct{ T *Tree }

// Interferes measures; the answer is always known.
func (m Measured) Interferes(a, b, c, d int) (bool, bool) {
	return Interferes(m.T, a, b, c, d), true
}

// Observed is an Oracle over a fixed set of observations (from a file, say);
// questions outside it are unknown. An observation answers the question
// with its pairs in either order and either pair first.
type Observed struct {
	obs []Observation
	m   map[[4]int]bool
}

// NewObserved indexes the observations. When the same question is observed
// twice with different answers, "does not interfere" wins: one clean
// concurrent transfer shows the paths are disjoint (the paper's R only ever
// grows).
func NewObserved(obs []Observation) *Observed {
	o := &Observed{obs: obs, m: make(map[[4]int]bool, len(obs))}
	for _, x := range obs {
		k := quadKey(x.A, x.B, x.C, x.D)
		if prev, ok := o.m[k]; ok {
			o.m[k] = prev && x.Interferes
		} else {
			o.m[k] = x.Interferes
		}
	}
	return o
}

// Interferes looks the question up.
func (o *Observed) Interferes(a, b, c, d int) (bool, bool) {
	v, ok := o.m[quadKey(a, b, c, d)]
	return v, ok
}

// Observations returns the observations as given.
func (o *Observed) Observations() []Observation { return o.obs }

// quadKey is the canonical form of the question (ab, cd): each pair
// ascending, the smaller pair first.
//
//go:noinline
func quadKey(a, b, c, d int) [4]int {
	if a > b {
		a, b = b, a
	}
	if c > d {
		c, d = d, c
	}
	if c < a || (c == a && d < b) {
		a, b, c, d = c, d, a, b
	}
	return [4]int{a, b, c, d}
}
