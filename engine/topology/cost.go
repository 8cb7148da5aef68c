package topology

import (
	"fmt"
	"math"

	"commlab/engine/cost"
)

// Fitted to what TestEstimateBoundsRun measures (go test -run
// EstimateBounds -v ./engine/topology/ logs it) on one core of the
// development machine under a load of 17: per entry of the N×N RTT matrix,
// 49-54 bytes and 1.5-2 µs to simulate the pings and find the leaf groups;
// per interference question, 460-520 bytes listed as needed and 530-840
// answered by a measured tree (the answer and its paths kept), 0.7-12 µs
// (more when there are millions).
const (
	entryBytes    = 56
	nsEntry       = 2000
	neededBytes   = 600
	answeredBytes = 900
	nsQuestion    = 5000
)

// Questions bounds the interference questions InferTree asks (answered,
// or listed as needed) for a cluster of leaves leaf switches:
// (L−1)(L−2)(L−3)/2, which a flat tree (every leaf switch under one
// switch) reaches exactly: its first merge round asks about every triple.
func Questions(leaves int) float64 {
	L := float64(leaves)
	return max(0, (L-1)*(L-2)*(L-3)/2)
}

// EstimateLeaves is the cost of finding the leaf groups of n nodes from
// their RTT matrix (InferLeaves), and of simulating it (MeasureRTT).
func EstimateLeaves(n int) cost.Cost {
	e := float64(n) * float64(n)
	return cost.Cost{
		Events:  e,
		Bytes:   entryBytes*e + 64<<10,
		Seconds: nsEntry * e * 1e-9,
		Key:     "nodes",
		Why:     fmt.Sprintf("%d nodes make an RTT matrix of %s entries", n, cost.Num(e)),
		Fit: func(over float64) string {
			return fmt.Sprintf("at most %d nodes fit", int(float64(n)/math.Sqrt(over*1.1)))
		},
	}
}

// EstimateTree is the cost of InferTree on leaves leaf groups (at most
// Questions of them asked), with no observations (every question listed
// as needed) or, when answered, with every one answered.
func EstimateTree(leaves int, answered bool) cost.Cost {
	q := Questions(leaves)
	per := float64(neededBytes)
	if answered {
		per = answeredBytes
	}
	return cost.Cost{
		Events:  q,
		Spans:   q,
		Bytes:   per*q + 64<<10,
		Seconds: nsQuestion * q * 1e-9,
		Key:     "interference",
		Why:     fmt.Sprintf("%d leaf groups ask up to %s interference questions", leaves, cost.Num(q)),
		Fit: func(over float64) string {
			return fmt.Sprintf("at most about %d leaf groups fit", int(float64(leaves)/math.Cbrt(over*1.1)))
		},
	}
}

// EstimateMeasure is the cost of measuring t (topology measure): the RTT
// matrix and its leaf groups, and the interference questions the
// inference asks of the tree, the matrix kept meanwhile.
func EstimateMeasure(t *Tree) cost.Cost {
	n, l := len(t.Nodes), len(t.LeafSwitches())
	a, b := EstimateLeaves(n), EstimateTree(l, true)
	c := a.Add(b)
	c.Bytes = a.Bytes + b.Bytes
	c.Key = "tree"
	c.Why = fmt.Sprintf("a tree of %d nodes makes an RTT matrix of %s entries", n, cost.Num(a.Events))
	if b.Events > 0 {
		c.Why += fmt.Sprintf(" and its %d leaf switches up to %s interference questions", l, cost.Num(b.Events))
	}
	c.Fit = func(over float64) string {
		if a.Bytes > b.Bytes {
			return a.Fit(over)
		}
		return b.Fit(over)
	}
	return c
}
