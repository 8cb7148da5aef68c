package overlay

import (
	"math"
	"slices"
	"strings"

	eoverlay "commlab/engine/overlay"
	"commlab/engine/trace"
	"commlab/internal/permsort"
)

// link is one connection's life as the picture draws it: open from its
// Open or ShortcutOpen event, ready (a shortcut's handshake done) from its
// ShortcutReady, closed at its Evict (+Inf when still open at the end).
type link struct {
	a, b     int // processes, a < b
	shortcut bool
	open     float64
	ready    float64 // +Inf until the handshake completes
	close    float64
	by       int // the process whose full cache evicted it (-1: never)
	// member: opened by a join or to replace a leaver's connection;
	// left: closed because an end left (membership).
	member, left bool
}

// hop is one hop of one message, from the trace: From hands it to To.
type hop struct {
	from, to int
	t0, t1   float64
	relayed  bool // part of a relayed message
	// relay is the process that forwards the message on at the end or
	// the start of this hop (-1 on a direct message): To when From handed
	// it over with a Relay event, else From.
	relay int
}

// openStep is one change of a process's open connections.
type openStep struct {
	t     float64
	open  int // connections open from t on
	short int // of which shortcuts
	peak  int // the most open at once up to t
}

// history is everything a frame needs from a run, indexed for the
// playhead.
type history struct {
	links []link
	hops  []hop // by t0
	// maxHop is the longest hop, so a frame finds the hops in flight
	// from a binary search on t0.
	maxHop float64
	// Sorted event times, for the counters.
	relays, opens, evicts []float64
	// per process: how its open connections change.
	steps [][]openStep
	// steps of the playhead: every shortcut's open, ready and eviction.
	keySteps []float64
	// maxOpen is the most connections one process has open at once.
	maxOpen int
}

func pairKey(a, b, procs int) int { return min(a, b)*procs + max(a, b) }

// newHistory replays the engine's events and trace.
func newHistory(procs int, res eoverlay.Result, tr *trace.Trace) *history {
	h := &history{steps: make([][]openStep, procs)}
	cur := map[int]int{} // pair → index in links of its open connection
	open := make([]int, procs)
	short := make([]int, procs)
	peak := make([]int, procs)
	record := func(t float64, ps ...int) {
		for _, p := range ps {
			peak[p] = max(peak[p], open[p])
			h.maxOpen = max(h.maxOpen, open[p])
			s := h.steps[p]
			if n := len(s); n > 0 && s[n-1].t == t {
				s[n-1] = openStep{t: t, open: open[p], short: short[p], peak: peak[p]}
				continue
			}
			h.steps[p] = append(s, openStep{t: t, open: open[p], short: short[p], peak: peak[p]})
		}
	}
	relayAt := map[[2]float64]int{} // (from, time) of a Relay event → its relay
	// A Relay event is a relayed message's first when its From is the
	// sender, whose CPU has just finished the message's "send" job (a
	// relay that must relay again finishes a "relay" job), so the counter
	// counts messages, as Result.Relayed does.
	sent := map[[2]float64]bool{}
	if tr != nil {
		for _, sp := range tr.Spans {
			if sp.Label == "send" {
				sent[[2]float64{float64(sp.Lane), sp.End}] = true
			}
		}
	}
	for _, e := range res.Events {
		a, b := int(min(e.From, e.To)), int(max(e.From, e.To))
		switch e.Kind {
		case eoverlay.Open, eoverlay.ShortcutOpen:
			sc := e.Kind == eoverlay.ShortcutOpen
			rd := e.Time
			if sc {
				rd = math.Inf(1)
				h.opens = append(h.opens, e.Time)
				h.keySteps = append(h.keySteps, e.Time)
			}
			cur[pairKey(a, b, procs)] = len(h.links)
			h.links = append(h.links, link{a: a, b: b, shortcut: sc, open: e.Time, ready: rd, close: math.Inf(1), by: -1})
			open[a]++
			open[b]++
			if sc {
				short[a]++
				short[b]++
			}
			record(e.Time, a, b)
		case eoverlay.ShortcutReady:
			if i, ok := cur[pairKey(a, b, procs)]; ok {
				h.links[i].ready = e.Time
			}
			h.keySteps = append(h.keySteps, e.Time)
		case eoverlay.Evict:
			k := pairKey(a, b, procs)
			if i, ok := cur[k]; ok {
				h.links[i].close, h.links[i].by = e.Time, int(e.Via)
				delete(cur, k)
				open[a]--
				open[b]--
				if h.links[i].shortcut {
					short[a]--
					short[b]--
				}
				record(e.Time, a, b)
			}
			h.evicts = append(h.evicts, e.Time)
			h.keySteps = append(h.keySteps, e.Time)
		case eoverlay.Relay:
			k := [2]float64{float64(e.From), e.Time}
			relayAt[k] = int(e.Via)
			if sent[k] {
				h.relays = append(h.relays, e.Time)
			}
		}
	}
	if tr != nil {
		h.hops = make([]hop, 0, len(tr.Messages))
		for _, m := range tr.Messages {
			hp := hop{from: m.From, to: m.To, t0: m.Send, t1: m.Arrive, relay: -1}
			if strings.HasSuffix(m.Class, "-relayed") {
				hp.relayed = true
				if via, ok := relayAt[[2]float64{float64(m.From), m.Send}]; ok && via == m.To {
					hp.relay = m.To
				} else {
					hp.relay = m.From
				}
			}
			h.hops = append(h.hops, hp)
			h.maxHop = max(h.maxHop, m.Arrive-m.Send)
		}
		permsort.SortStableFunc(h.hops, func(x, y hop) int {
			switch {
			case x.t0 < y.t0:
				return -1
			case x.t0 > y.t0:
				return 1
			}
			return 0
		})
	}
	permsort.Sort(h.relays)
	permsort.Sort(h.opens)
	permsort.Sort(h.evicts)
	permsort.Sort(h.keySteps)
	h.keySteps = slices.Compact(h.keySteps)
	return h
}

// upTo counts the sorted times at or before t.
func upTo(ts []float64, t float64) int {
	n, _ := slices.BinarySearch(ts, t)
	for n < len(ts) && ts[n] <= t {
		n++
	}
	return n
}

// at is process p's connection state at t: open connections, shortcuts
// among them, and the peak so far.
func (h *history) at(p int, t float64) openStep {
	s := h.steps[p]
	// The first step after t; the state is the one before it.
	i, _ := slices.BinarySearchFunc(s, t, func(x openStep, v float64) int {
		if x.t <= v {
			return -1
		}
		return 1
	})
	if i == 0 {
		return openStep{}
	}
	return s[i-1]
}

// inFlight appends to buf the hops on the wire at t (sent at or before t,
// not yet arrived).
func (h *history) inFlight(t float64, buf []hop) []hop {
	lo, _ := slices.BinarySearchFunc(h.hops, t-h.maxHop, func(x hop, v float64) int {
		switch {
		case x.t0 < v:
			return -1
		case x.t0 > v:
			return 1
		}
		return 0
	})
	for _, hp := range h.hops[lo:] {
		if hp.t0 > t {
			break
		}
		if t < hp.t1 {
			buf = append(buf, hp)
		}
	}
	return buf
}
