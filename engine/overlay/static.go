package overlay

import (
	"math/rand/v2"
	"slices"

	"commlab/internal/permsort"
)

// staticTopology is the paper's Section 3.1 choice for processes on the
// given leaf switches: every process connects to all processes of its own
// switch and to one process of every other switch. The one is spread:
// the k-th process of switch A picks the (k mod |S|)-th of switch S, so
// S's processes each serve about |A|/|S| of A's, and when |A| = |S| the
// k-th of A and the k-th of S pick each other and share one connection.
func staticTopology(procLeaf []int) [][]int {
	groups, pos := leafGroups(procLeaf)
	adj := make([][]int, len(procLeaf))
	link := func(a, b int) {
		if a != b && !slices.Contains(adj[a], b) {
			adj[a] = append(adj[a], b)
			adj[b] = append(adj[b], a)
		}
	}
	for _, g := range groups {
		for i, a := range g {
			for _, b := range g[i+1:] {
				link(a, b)
			}
		}
	}
	for p, leaf := range procLeaf {
		for s, g := range groups {
			if s != leaf && len(g) > 0 {
				link(p, g[pos[p]%len(g)])
			}
		}
	}
	for _, a := range adj {
		permsort.Sort(a)
	}
	return adj
}

// leafGroups lists the processes of every switch in rank order, and each
// process's position in its switch's list.
func leafGroups(procLeaf []int) (groups [][]int, pos []int) {
	n := 0
	for _, l := range procLeaf {
		n = max(n, l+1)
	}
	groups, pos = make([][]int, n), make([]int, len(procLeaf))
	for p, l := range procLeaf {
		pos[p] = len(groups[l])
		groups[l] = append(groups[l], p)
	}
	return groups, pos
}

// staticAll connects every pair (Fig. 5's "all").
func staticAll(procs int) [][]int {
	adj := make([][]int, procs)
	for a := range adj {
		adj[a] = make([]int, 0, procs-1)
		for b := range procs {
			if b != a {
				adj[a] = append(adj[a], b)
			}
		}
	}
	return adj
}

// staticRandom gives every process exactly degree connections chosen at
// random (Fig. 5's "random": 64 of 127). The processes are put in a random
// order around a circle and each connects to its degree/2 nearest on either
// side: every process gets exactly degree connections, which partner it
// gets is random, and any two are at most ⌈(procs/2)/(degree/2)⌉ hops apart,
// two for the paper's 64 of 128.
func staticRandom(procs, degree int, rng *rand.Rand) [][]int {
	order := rng.Perm(procs)
	adj := make([][]int, procs)
	for i, a := range order {
		for k := 1; k <= degree/2; k++ {
			adj[a] = append(adj[a], order[(i+k)%procs], order[(i-k+procs)%procs])
		}
	}
	// degree ≤ procs−1 keeps the offsets ±1 … ±degree/2 distinct modulo
	// procs, so no partner is listed twice.
	for _, a := range adj {
		permsort.Sort(a)
	}
	return adj
}

// routes builds every process's routing table from the static connections
// (the paper's routing tables, built by exchanging messages, settle on
// shortest paths): next[a·P+b] is the neighbour of a a message to b goes to
// first, b itself when they are connected.
//
// Under the topology policy the relay is a's own connection into b's
// switch (Section 3.1); otherwise it is one of the common neighbours of a
// and b, picked by (a+b) so that relaying spreads over them, and failing
// that the first hop of a shortest path.
func routes(adj [][]int, procLeaf []int, policy Policy) []int32 {
	procs := len(adj)
	next := make([]int32, procs*procs)
	conn := make([]bool, procs*procs)
	for a, ns := range adj {
		for _, b := range ns {
			conn[a*procs+b] = true
		}
	}
	groups, pos := leafGroups(procLeaf)
	var common []int
	dist := make([]int, procs)
	first := make([]int32, procs)
	queue := make([]int, 0, procs)
	for a := range procs {
		bfsDone := false
		for b := range procs {
			i := a*procs + b
			switch {
			case a == b || conn[i]:
				next[i] = int32(b)
				continue
			case policy == Topology:
				g := groups[procLeaf[b]]
				if c := g[pos[a]%len(g)]; conn[a*procs+c] && conn[c*procs+b] {
					next[i] = int32(c)
					continue
				}
			}
			common = common[:0]
			for _, c := range adj[a] {
				if conn[c*procs+b] {
					common = append(common, c)
				}
			}
			if len(common) > 0 {
				next[i] = int32(common[(a+b)%len(common)])
				continue
			}
			if !bfsDone {
				bfs(adj, a, dist, first, queue)
				bfsDone = true
			}
			next[i] = first[b]
		}
	}
	return next
}

// bfs fills dist and first (the first hop on a shortest path from src, the
// lowest-numbered neighbour on ties) for every process; unreachable ones get
// first = -1.
func bfs(adj [][]int, src int, dist []int, first []int32, queue []int) {
	for i := range dist {
		dist[i], first[i] = -1, -1
	}
	dist[src] = 0
	queue = append(queue[:0], src)
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range adj[u] {
			if dist[v] < 0 {
				dist[v] = dist[u] + 1
				if u == src {
					first[v] = int32(v)
				} else {
					first[v] = first[u]
				}
				queue = append(queue, v)
			}
		}
	}
}
