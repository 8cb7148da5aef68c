package topology

// MeasurePlan is what measuring a cluster's topology costs: how many
// measurements and how long they take in simulated time (µs).
type MeasurePlan struct {
	Count int     `json:"count"` // RTT + Interference
	Time  float64 `json:"time"`  // µs, both phases

	RTT              int     `json:"rtt"`               // RTT measurements (Pings pings each)
	Interference     int     `json:"interference"`      // throughput measurements: pairs alone and pair-pairs together
	RTTTime          float64 `json:"rtt_time"`          // µs
	InterferenceTime float64 `json:"interference_time"` // µs
}

// NaivePlan is the paper's procedure taken literally and run one
// measurement at a time: every node measures its RTT to every other node
// (N(N−1) measurements of Pings pings), every pair of leaf switches
// transfers alone (S(S−1)/2) and every two disjoint pairs of leaf switches
// transfer together (S(S−1)(S−2)(S−3)/8), each transfer for Net.Probe.
// Counts and times come from closed forms over the leaf switches, so the
// plan of 4,096 nodes costs no more than its S² leaf pairs.
func NaivePlan(t *Tree, n Net) MeasurePlan {
	ix := t.index()
	var p MeasurePlan
	N := len(t.Nodes)
	p.RTT = N * (N - 1)
	pings := float64(max(n.Pings, 1))
	for _, a := range ix.leaves {
		ka := float64(len(t.Switches[a].Nodes))
		for _, b := range ix.leaves {
			kb := float64(len(t.Switches[b].Nodes))
			pairs := ka * kb
			if a == b {
				pairs = ka * (ka - 1)
			}
			rtt := n.Base + float64(n.HopLatency*float64(2+ix.switchDist(a, b)))
			p.RTTTime += float64(pairs * float64(pings*rtt))
		}
	}
	S := len(ix.leaves)
	p.Interference = S*(S-1)/2 + S*(S-1)*(S-2)*(S-3)/8
	p.InterferenceTime = float64(float64(p.Interference) * n.Probe)
	p.Count = p.RTT + p.Interference
	p.Time = p.RTTTime + p.InterferenceTime
	return p
}

// ScalablePlan measures only what can change the answer, in parallel where
// paths are disjoint:
//
//   - RTT: nodes join one at a time; a node measures its RTT to one member
//     of each leaf group found so far (members taken in turn, so no node
//     answers them all) until one is on its switch, and confirms with a
//     second member when the group has one; else it starts a new group.
//     About N·S/2 measurements instead of N(N−1).
//   - Interference: exactly the questions InferTree asks the Measured
//     oracle (the anchored sibling rule: at most |X|−3 per pair of X, one
//     interfering answer ends a pair), each pair's lone transfer once.
//
// Time: every measurement occupies the links of its paths (switch links and
// the nodes' own links) and starts as soon as they are free and, for RTTs,
// its node has finished its previous measurement; interference questions
// of one merge round run in parallel, rounds one after another (the next
// round's questions depend on the answers).
func ScalablePlan(t *Tree, n Net) MeasurePlan {
	ix := t.index()
	var p MeasurePlan
	S := len(t.Switches)
	busy := make([]float64, S+len(t.Nodes)) // when each link is free again
	res := make([]int, 0, 32)
	var path []Link
	occupy := func(ready, dur float64, pairs ...[2]int) float64 {
		res = res[:0]
		for _, pr := range pairs {
			res = append(res, S+pr[0], S+pr[1])
			path = ix.appendPath(path[:0], ix.leafOf[pr[0]], ix.leafOf[pr[1]])
			for _, l := range path {
				res = append(res, l.Child)
			}
		}
		start := ready
		for _, r := range res {
			start = max(start, busy[r])
		}
		end := start + dur
		for _, r := range res {
			busy[r] = end
		}
		return end
	}
	pings := float64(max(n.Pings, 1))
	// RTT phase.
	var groups [][]int
	turn := []int{}
	for v := range t.Nodes {
		ready := 0.0
		joined := false
		for gi, g := range groups {
			w := g[turn[gi]%len(g)]
			turn[gi]++
			p.RTT++
			ready = occupy(ready, float64(pings*n.RTT(t, v, w)), [2]int{v, w})
			if ix.leafOf[v] == ix.leafOf[w] {
				if len(g) >= 2 {
					w2 := g[turn[gi]%len(g)]
					turn[gi]++
					p.RTT++
					ready = occupy(ready, float64(pings*n.RTT(t, v, w2)), [2]int{v, w2})
				}
				groups[gi] = append(groups[gi], v)
				joined = true
				break
			}
		}
		if !joined {
			groups = append(groups, []int{v})
			turn = append(turn, 0)
		}
		p.RTTTime = max(p.RTTTime, ready)
	}
	// Interference phase.
	_, plan, err := InferTree(t.Nodes, t.Groups(), Measured{t})
	if err != nil {
		panic("topology: inference on a valid tree failed: " + err.Error())
	}
	for i := range busy {
		busy[i] = 0
	}
	alone := map[[2]int]bool{}
	roundStart, roundEnd := 0.0, 0.0
	for i, q := range plan.Used {
		if i > 0 && plan.Round[i] != plan.Round[i-1] {
			roundStart = roundEnd
		}
		for _, pr := range [][2]int{{q.A, q.B}, {q.C, q.D}} {
			k := [2]int{min(pr[0], pr[1]), max(pr[0], pr[1])}
			if !alone[k] {
				alone[k] = true
				p.Interference++
				roundEnd = max(roundEnd, occupy(roundStart, n.Probe, k))
			}
		}
		p.Interference++
		roundEnd = max(roundEnd, occupy(roundStart, n.Probe, [2]int{q.A, q.B}, [2]int{q.C, q.D}))
	}
	p.InterferenceTime = roundEnd
	p.Count = p.RTT + p.Interference
	p.Time = p.RTTTime + p.InterferenceTime
	return p
}

// Observe measures the interference questions that inferring t's switch tree
// from its leaf groups asks (InferTree with the Measured oracle): the
// observations a file needs so that InferTree settles the tree from it alone.
func Observe(t *Tree) ([]Observation, error) {
	_, plan, err := InferTree(t.Nodes, t.Groups(), Measured{t})
	return plan.Used, err
}
