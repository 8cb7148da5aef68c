package allreduce

import (
	"fmt"
	"math/bits"
	"strconv"

	"commlab/cmd/gen-report/internal/report"
	"commlab/engine/cost"
	"commlab/scene"
	"commlab/scene/butterfly"
	"commlab/scene/jitter"
)

// The scenes a cell links to (issue 25, "every point animates"): the
// butterfly scene for the figures about the redundant exchanges (effect,
// optimal T), the jitter scene, which stacks one run's conventional and
// redundant Gantt charts over the histogram of its completion times, for
// the figures about stalls (influence, time against P).
var (
	butterflyScene = butterfly.New()
	jitterScene    = jitter.New()
)

// link is what a click on point pt's number opens: sc with the cell's
// parameters in its URL, written by the scene's own State.Query, P capped
// to what the scene draws (butterfly.MaxTraceP) and T to the capped K.
// The jitter scene's histogram trials are lowered, if need be, until the
// page's budget (cost.Page) holds the build. nil if the parameters do not
// fit the scene's fields (the links test fails on that).
func (s *Sweep) link(pt int, sc scene.Scene) *report.Link {
	p := s.params[pt]
	st := scene.Default(sc)
	shownP := min(p.P, butterfly.MaxTraceP)
	k := bits.Len(uint(shownP)) - 1
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	b := func(on bool) string {
		if on {
			return "1"
		}
		return "0"
	}
	raw := map[string]string{
		"P": strconv.Itoa(shownP), "N": g(p.N), "alpha": g(p.Alpha), "period": g(p.Period), "duration": g(p.Duration),
		"T": strconv.Itoa(min(p.T, k)), "os_jitter": b(p.OSJitter), "net_noise": b(p.NetNoise), "co_scheduled": b(p.CoScheduled),
		"os_phase": p.OSPhase.String(), "net_wait": p.NetWait.String(), "os_hits": p.OSHits.String(),
	}
	matched := 0
	for _, f := range sc.Fields() {
		v, ok := raw[f.Key]
		if !ok {
			continue
		}
		canon, err := f.Parse(v)
		if err != nil {
			return nil
		}
		st.Values[f.Key] = canon
		matched++
	}
	if matched != len(raw) { // a parameter the scene has no field for
		return nil
	}
	for n := st.Values[jitter.KeyTrials]; scene.CheckBudget(sc, st.Values, cost.Page) != nil; {
		m, _ := strconv.Atoi(n)
		if sc.Info().Name != jitterScene.Info().Name || m/2 < 10 {
			return nil
		}
		n = strconv.Itoa(m / 2)
		st.Values[jitter.KeyTrials] = n
	}
	c := s.points[pt]
	set := s.sets[c.set]
	title := fmt.Sprintf("Opens the %s scene with this cell's parameters (set %s, %s = %s, %s), one trial of them", sc.Info().Name, set.Name, set.X, set.Label(c.xi), readings[c.reading].name)
	if shownP < p.P {
		title += fmt.Sprintf("; P = %s capped to %s in the scene, the most it draws", kLabel(p.K()), kLabel(k))
	} else {
		title += fmt.Sprintf(", P = %s", kLabel(k))
	}
	return &report.Link{Path: "scene.html?" + st.Query(sc), Title: title}
}

func kLabel(k int) string { return fmt.Sprintf("2^%d", k) }
