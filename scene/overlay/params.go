package overlay

import (
	"fmt"
	"strconv"

	eoverlay "commlab/engine/overlay"
	"commlab/scene"
)

// The scene's URL keys: the engine's JSON names (eoverlay.Params), so a
// page URL, a gen-report flag and an engine error name a parameter alike.
const (
	KeyCache      = "cache"
	KeyPolicy     = "policy"
	KeyNodes      = "nodes"
	KeyProcs      = "procs"
	KeySwitches   = "switches"
	KeyIterations = "iterations"
	KeyHandshake  = "handshake"
	KeyChunk      = "chunk_bytes"
	// The membership after the sort (scene-only keys).
	KeyJoin  = "join"
	KeyLeave = "leave"
)

// Scene limits, much narrower than the engine's: the picture gives every
// process its own place in one row, so MaxProcs keeps a process a few
// pixels wide at 640x360 and the "all" policy's P(P−1)/2 arcs (1,128 at
// 48) cheap to draw; MaxCache is the paper's Fig. 5 range; MaxIter keeps
// a rebuild on a slider move under 100 ms natively at MaxProcs
// (BenchmarkBuild: 75–90 ms at 48 processes and 4 iterations, nearly all of
// it the engine's run and its trace; ~5 ms for the defaults).
const (
	MaxCache    = 16
	MinProcs    = 4
	MaxProcs    = 48
	MaxNodes    = 24
	MaxSwitches = 8
	MaxIter     = 4
	// MaxChunk is the largest chunk the field takes: above any key
	// message of the scene's sort (Keys/MinProcs² keys of 4 B, 16 KiB),
	// so it is as good as whole messages there.
	MaxChunk = 1 << 16
)

// The defaults: a cluster smaller than the paper's 128 processes on 64
// nodes, one process per node, so that every arc can be told apart, and a
// cache small enough that it fills and LRU evicts within the first
// iteration (each process relays to 12 destinations on other switches and
// may keep DefaultCache shortcuts). Keys is the sort's size: NPB IS class
// S's 2^16 keys rather than the engine's class A, so that a message is
// small, the links do not queue hundreds of them, and the connection
// events spread over the exchange instead of all falling in its first
// millisecond.
const (
	DefaultCache      = 4
	DefaultNodes      = 20
	DefaultProcs      = 20
	DefaultSwitches   = 4
	DefaultIterations = 2
	Keys              = 1 << 16
)

//go:noinline
func itoa(i int) string { return strconv.Itoa(i) }

// Fields are the controls: the cache and the policy first (what the scene
// is about), then the cluster, the sort's length, the two readings of the
// paper that decide what a shortcut can carry (the handshake and the
// message granularity: docs/overlay.md), and the membership after the
// sort.
func Fields() []scene.Field {
	policies := make([]string, len(eoverlay.Policies))
	for i, p := range eoverlay.Policies {
		policies[i] = string(p)
	}
	handshakes := make([]string, len(eoverlay.Handshakes))
	for i, h := range eoverlay.Handshakes {
		handshakes[i] = string(h)
	}
	return []scene.Field{
		{Key: KeyCache, Label: "cache C", Help: "shortcuts a process may keep open; when a new one needs room the least recently used is closed (0: relay every time)", Kind: scene.Int, Type: "int", Min: 0, Max: MaxCache, Default: itoa(DefaultCache),
			DependsOn: []string{KeyProcs}, RangeFor: rangeCache},
		{Key: KeyPolicy, Label: "policy", Help: "static connections: topology (own switch, one per other switch), all (every pair) or random (half of the possible, at random)", Kind: scene.Choice, Type: "choice", Choices: policies, Default: string(eoverlay.Topology)},
		{Key: KeyNodes, Label: "nodes", Help: "nodes, spread evenly over the leaf switches", Kind: scene.Int, Type: "int", Min: 2, Max: MaxNodes, Default: itoa(DefaultNodes)},
		{Key: KeyProcs, Label: "processes", Help: "processes, placed on the nodes in blocks (at least one per node)", Kind: scene.Int, Type: "int", Min: MinProcs, Max: MaxProcs, Default: itoa(DefaultProcs),
			DependsOn: []string{KeyNodes}, DefaultFor: defaultProcs, RangeFor: rangeProcs},
		{Key: KeySwitches, Label: "switches", Help: "leaf switches under one core switch (at most one per node)", Kind: scene.Int, Type: "int", Min: 1, Max: MaxSwitches, Default: itoa(DefaultSwitches),
			DependsOn: []string{KeyNodes}, RangeFor: rangeSwitches},
		{Key: KeyIterations, Label: "iterations", Help: "timed Integer Sort iterations (each one an all-to-all-v key exchange)", Kind: scene.Int, Type: "int", Min: 1, Max: MaxIter, Default: itoa(DefaultIterations)},
		{Key: KeyHandshake, Label: "handshake", Help: "who completes a shortcut's TCP handshake: kernel (the sender may use the shortcut one round trip after the relay that opened it, while it still works through the sends it posted) or application (after the work queued at both ends: no message posted before the shortcut opened can use it)", Kind: scene.Choice, Type: "choice", Choices: handshakes, Default: string(eoverlay.HandshakeKernel)},
		{Key: KeyChunk, Label: "chunk bytes", Unit: "B", Help: "split every key message into chunks of at most this many bytes, sent one after another, so that the later chunks of a relayed message can take the shortcut its first chunk opened (0: whole messages; a key message of the scene's sort carries Keys/procs² keys of 4 B, about 650 B at its defaults)", Kind: scene.Int, Type: "int", Min: 0, Max: MaxChunk, Default: "0"},
		{Key: KeyJoin, Label: "join on switch", Help: "after the sort a new node, cabled to this leaf switch (0: the leftmost), joins: it measures its RTT to one node per switch only, is placed from those, and opens the topology policy's connections (-1: no join; topology policy only)", Kind: scene.Int, Type: "int", Min: -1, Max: MaxSwitches - 1, Default: "-1",
			DependsOn: []string{KeySwitches}, RangeFor: rangeJoin},
		{Key: KeyLeave, Label: "node leaves", Help: "after the sort (and the join) this node leaves (0: the first; its processes are those the nodes field places on it): its connections close and whoever reached its switch through them connects to another process there (-1: none; topology policy only)", Kind: scene.Int, Type: "int", Min: -1, Max: MaxNodes - 1, Default: "-1",
			DependsOn: []string{KeyNodes}, RangeFor: rangeLeave},
	}
}

// checkMembership refuses a join or a leave under a policy other than
// topology: eoverlay.Membership keeps the topology policy's connections.
// A join names a leaf switch, a leave a node, of the cluster the other
// fields make.
func checkMembership(v scene.Values) error {
	for _, c := range []struct {
		key string
		r   scene.Range
	}{{KeyJoin, rangeJoin(v)}, {KeyLeave, rangeLeave(v)}} {
		if x := v.Int(c.key); !c.r.Contains(float64(x)) {
			return &scene.FieldError{Key: c.key, Value: v[c.key], Want: fmt.Sprintf("an integer in [%g, %g] (%s)", c.r.Lo, c.r.Hi, c.r.Why)}
		}
	}
	if v[KeyPolicy] == string(eoverlay.Topology) {
		return nil
	}
	for _, k := range []string{KeyJoin, KeyLeave} {
		if v.Int(k) >= 0 {
			return &scene.FieldError{Key: k, Value: v[k], Want: "-1 under the " + v[KeyPolicy] + " policy: joins and leaves keep the topology policy's connections"}
		}
	}
	return nil
}

// randomDegree is the random policy's connections per process: half of
// the possible, as the paper's 64 of 127, rounded down to the even number
// the engine's circle construction needs.
func randomDegree(procs int) int { return max(2, procs/2&^1) }

// Params turns field values into the engine's parameters, with Keys keys
// and the random policy's degree half the possible; every other model
// constant is the engine's default. A value the engine rejects (a
// cache of 16 for 8 processes, more switches than nodes) comes back as a
// *scene.FieldError on the field to change.
func Params(v scene.Values) (eoverlay.Params, error) {
	p := eoverlay.Default()
	p.Cache = v.Int(KeyCache)
	p.Policy = eoverlay.Policy(v[KeyPolicy])
	p.Nodes = v.Int(KeyNodes)
	p.Procs = v.Int(KeyProcs)
	p.Switches = v.Int(KeySwitches)
	p.Iterations = v.Int(KeyIterations)
	p.Handshake = eoverlay.Handshake(v[KeyHandshake])
	p.ChunkBytes = v.Int(KeyChunk)
	p.RandomDegree = randomDegree(p.Procs)
	p.Keys = Keys
	return p, scene.EngineError(p.Validate(), v)
}
