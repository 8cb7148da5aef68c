package logp

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	engine "commlab/engine/logp"
	"commlab/scene"
	sclogp "commlab/scene/logp"
)

// Every point of the page opens the scene that animates it: the logp
// scene (scene/logp), which plans the summation schedule with L_s and
// replays it under the drawn latencies, on the point's machine (P, n, μ,
// o, g, σ, σ_g) and planning latency. The scene draws up to sclogp.MaxP
// processors; a point beyond is opened at that P, with n scaled as the
// report scales it (n = 1000·P/3), and its link's title says so.

// sceneName is the scene the links open (scene/logp's Info().Name).
const sceneName = "logp"

// sceneValues are the scene's field values for machine p planned with
// ls, each held to the field's range, and what was capped, in words.
func (s *logpStudy) sceneValues(p engine.Params, ls float64) (scene.Values, []string) {
	var capped []string
	if p.P > sclogp.MaxP {
		q := s.params(sclogp.MaxP, p.Sigma)
		capped = append(capped, fmt.Sprintf("P = %d capped to %d, the most the scene draws, with n = %d as the report takes for %d processors", p.P, q.P, q.N, q.P))
		p.P, p.N = q.P, q.N
	}
	raw := map[string]float64{
		sclogp.KeyP: float64(p.P), sclogp.KeyN: float64(p.N), sclogp.KeyL: p.L, sclogp.KeyO: p.O, sclogp.KeyG: p.G,
		sclogp.KeySigma: p.Sigma, sclogp.KeyGapSigma: p.GapSigma, sclogp.KeyLs: ls,
	}
	v := scene.Values{}
	for _, f := range sclogp.Fields() {
		x, ok := raw[f.Key]
		if !ok {
			// The scene's own settings (the replays of its running
			// mean): its default.
			v[f.Key] = f.Default
			continue
		}
		if c := min(max(x, f.Min), f.Max); c != x {
			capped = append(capped, fmt.Sprintf("%s = %.4g capped to %.4g, the scene's range", f.Key, x, c))
			x = c
		}
		canon, err := f.Parse(strconv.FormatFloat(x, 'g', -1, 64))
		if err != nil {
			panic(fmt.Sprintf("gen-report: logp: a link's %s: %v", f.Key, err)) // held to the range just above
		}
		v[f.Key] = canon
	}
	return v, capped
}

// sceneQuery writes v as the scene's URL query: the scene, then every
// field in the scene's control order (defaults included, as scene.State
// writes its URLs, so that a link keeps its meaning if a default changes).
func sceneQuery(v scene.Values) string {
	q := []string{"scene=" + sceneName}
	for _, f := range sclogp.Fields() {
		q = append(q, url.QueryEscape(f.Key)+"="+url.QueryEscape(v[f.Key]))
	}
	return strings.Join(q, "&")
}

// sceneLink is what a click on machine p planned with ls opens; what
// names the point for the title ("the Monte Carlo optimum").
func (s *logpStudy) sceneLink(p engine.Params, ls float64, what string) *report.Link {
	v, capped := s.sceneValues(p, ls)
	title := fmt.Sprintf("Open the logp scene for %s: the summation schedule planned with L_s = %.4g and replayed with latencies from Normal(%g, %.4g²), P = %d, n = %d",
		what, ls, p.L, p.Sigma, p.P, p.N)
	if len(capped) > 0 {
		title += " (" + strings.Join(capped, "; ") + ")"
	}
	return &report.Link{Path: "scene.html?" + sceneQuery(v), Title: title + "."}
}
