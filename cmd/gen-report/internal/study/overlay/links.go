package overlay

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/engine/cost"
	engine "commlab/engine/overlay"
	"commlab/scene"
	scov "commlab/scene/overlay"
)

// Every bar, point and row of Fig. 5 opens the overlay scene (scene/overlay)
// with its configuration: the policy, the cache size, the handshake, the
// chunking and the seed. The scene draws every process in one row and
// sorts NPB class S's 2^16 keys, so the report's 128 processes on 64 nodes
// with class A's 2^23 keys become the most processes the scene draws, two
// a node as in the experiment, over the same switches; the chunk size is
// scaled so that a key message still goes in as many chunks as here (what
// decides whether a shortcut carries the later chunks); and the run is
// cut to what the page builds within its budget. The link's title says
// all of that.

// sceneName is the scene the links open (scene/overlay's Info().Name).
const sceneName = "overlay"

// ovlSceneConfig is what a link sets: the scene's values and the words
// for what it scaled.
type ovlSceneConfig struct {
	v                      scene.Values
	procs, nodes, switches int
	iterations, chunk      int
	chunks                 int // chunks per key message, here and in the scene
}

// keyMessageBytes is the mean size of one key message of the all-to-all-v:
// keys / P² keys of KeyBytes.
func keyMessageBytes(keys, procs int, keyBytes float64) float64 {
	return float64(keys) / float64(procs*procs) * keyBytes
}

// chunksPerMessage is how many chunks a key message of b bytes goes in.
func chunksPerMessage(b float64, chunk int) int {
	if chunk == 0 {
		return 1
	}
	return max(1, int(math.Ceil(b/float64(chunk))))
}

// sceneConfig is the scene's configuration for cell c: the largest
// cluster the scene draws, two processes a node, over the experiment's
// switches, the longest run of the report's iterations that the page
// builds within its budget, and a chunk size that cuts the scene's key
// messages into as many chunks as c's.
func (s *overlayStudy) sceneConfig(c ovlCell) ovlSceneConfig {
	perNode := max(1, s.is.Procs/s.is.Nodes)
	n := chunksPerMessage(keyMessageBytes(s.is.Keys, s.is.Procs, s.is.KeyBytes), c.Chunk)
	var last ovlSceneConfig
	for procs := min(s.is.Procs, scov.MaxProcs) / perNode * perNode; procs >= scov.MinProcs; procs -= 4 * perNode {
		nodes := min(procs/perNode, scov.MaxNodes)
		switches := min(s.is.Switches, nodes, scov.MaxSwitches)
		chunk := 0
		if c.Chunk > 0 {
			b := keyMessageBytes(scov.Keys, procs, s.is.KeyBytes)
			chunk = max(1, int(math.Ceil(b/float64(n))))
			if chunksPerMessage(b, chunk) != n {
				continue // no whole chunk size cuts this many processes' messages in n: fewer
			}
		}
		for it := min(s.is.Iterations, scov.MaxIter); it >= 1; it-- {
			raw := map[string]string{
				scov.KeyCache: strconv.Itoa(min(c.Cache, scov.MaxCache, procs-1)), scov.KeyPolicy: string(c.Policy),
				scov.KeyNodes: strconv.Itoa(nodes), scov.KeyProcs: strconv.Itoa(procs), scov.KeySwitches: strconv.Itoa(switches),
				scov.KeyIterations: strconv.Itoa(it), scov.KeyHandshake: string(c.Handshake), scov.KeyChunk: strconv.Itoa(chunk),
				scov.KeyJoin: "-1", scov.KeyLeave: "-1",
			}
			v := scene.Values{}
			for _, f := range scov.Fields() {
				text, ok := raw[f.Key]
				if !ok {
					panic("gen-report: overlay: the overlay scene has a field the links do not set: " + f.Key)
				}
				canon, err := f.Parse(text)
				if err != nil {
					panic(fmt.Sprintf("gen-report: overlay: a link's %s: %v", f.Key, err))
				}
				v[f.Key] = canon
			}
			last = ovlSceneConfig{v, procs, nodes, switches, it, chunk, n}
			if scene.CheckBudget(scov.New(), v, cost.Page) == nil {
				return last
			}
		}
	}
	return last // the smallest tried: the link test says if the page would refuse it
}

// sceneQuery writes the scene's URL query: the scene, every field in the
// scene's control order (defaults included, as scene.State writes its
// URLs, so that a link keeps its meaning if a default changes), the seed.
func sceneQuery(v scene.Values, seed uint64) string {
	q := []string{"scene=" + sceneName}
	for _, f := range scov.Fields() {
		q = append(q, url.QueryEscape(f.Key)+"="+url.QueryEscape(v[f.Key]))
	}
	q = append(q, scene.KeySeed+"="+strconv.FormatUint(seed, 10))
	return strings.Join(q, "&")
}

// sceneLink is what a click on cell c opens: the overlay scene with c's
// configuration at the report's seed. what names the point for the title.
func (s *overlayStudy) sceneLink(c ovlCell, what string) *report.Link {
	sc := s.sceneConfig(c)
	conns := map[engine.Policy]string{
		engine.Topology: fmt.Sprintf("topology-aware connections with a cache of C = %d", c.Cache),
		engine.All:      "all-to-all connections",
		engine.Random:   "random connections, half of the possible",
	}[c.Policy]
	msgs := "whole key messages"
	if c.Chunk > 0 {
		msgs = fmt.Sprintf("key messages in %d B chunks, %d a message as here", sc.chunk, sc.chunks)
	}
	hs := ""
	if c.shortcuts() {
		hs = fmt.Sprintf(", the %s's handshake", c.Handshake)
	}
	title := fmt.Sprintf("Open the overlay scene for %s: %s%s, %s, %d processes on %d nodes over %d switches, %d iteration(s), seed %d",
		what, conns, hs, msgs, sc.procs, sc.nodes, sc.switches, sc.iterations, s.Seed)
	var scaled []string
	if sc.procs != s.is.Procs || sc.nodes != s.is.Nodes {
		scaled = append(scaled, fmt.Sprintf("the report's %d processes on %d nodes are %d on %d, the most the scene draws", s.is.Procs, s.is.Nodes, sc.procs, sc.nodes))
	}
	scaled = append(scaled, fmt.Sprintf("its sort has 2^%d keys, not 2^%d", bitsOf(scov.Keys), bitsOf(s.is.Keys)))
	if c.Chunk > 0 {
		scaled = append(scaled, fmt.Sprintf("so the report's %d B chunks of %.0f B messages are %d B chunks of %.0f B ones", c.Chunk, keyMessageBytes(s.is.Keys, s.is.Procs, s.is.KeyBytes), sc.chunk, keyMessageBytes(scov.Keys, sc.procs, s.is.KeyBytes)))
	}
	if sc.iterations != s.is.Iterations {
		scaled = append(scaled, fmt.Sprintf("%d of the report's %d iterations, what the page builds within its budget", sc.iterations, s.is.Iterations))
	}
	if c.Cache > scov.MaxCache {
		scaled = append(scaled, fmt.Sprintf("cache %d capped to %d", c.Cache, scov.MaxCache))
	}
	title += " (" + strings.Join(scaled, "; ") + ")."
	return &report.Link{Path: "scene.html?" + sceneQuery(sc.v, s.Seed), Title: title}
}

// bitsOf is log2 of a power of two.
func bitsOf(n int) int {
	b := 0
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}
