package mmdl

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	engine "commlab/engine/mmdl"
	"commlab/scene"
	scmmdl "commlab/scene/mmdl"
)

// Every row and point of the page opens the scene that animates it: the
// mmdl scene (scene/mmdl), which builds and draws one case's executable
// schedule of R rounds, with the paper's link (100 µs, 800 Mbit/s). The
// scene draws up to scmmdl.MaxRounds rounds; a point beyond is opened at
// that R, and its link's title says so. The scene plans and runs with the
// same parameters, so it shows a case before calibration as the paper's
// simulation of it, not as the guessed plan run on the calibrated machine
// (Table 4's measured-before column): the title of such a row says so.

// sceneName is the scene the links open (scene/mmdl's Info().Name).
const sceneName = "mmdl"

// sceneValues are the scene's field values for case c at R rounds with
// schedule sched, and what was capped, in words.
func sceneValues(c mmdlCase, calibrated bool, R int, sched engine.Sched) (scene.Values, []string) {
	var capped []string
	if R > scmmdl.MaxRounds {
		capped = append(capped, fmt.Sprintf("R = %d capped to %d, the most rounds the scene draws", R, scmmdl.MaxRounds))
		R = scmmdl.MaxRounds
	}
	cal := "0"
	if calibrated {
		cal = "1"
	}
	raw := map[string]string{
		scmmdl.KeyProcSet: strconv.Itoa(c.ProcSet), scmmdl.KeyLoad: c.Load, scmmdl.KeyCalibrated: cal,
		scmmdl.KeyRounds: strconv.Itoa(R), scmmdl.KeySchedule: sched.String(),
	}
	v := scene.Values{}
	for _, f := range scmmdl.Fields() {
		text, ok := raw[f.Key]
		if !ok {
			// The link's latency and throughput: the paper's, the
			// scene's defaults.
			text = f.Default
		}
		canon, err := f.Parse(text)
		if err != nil {
			panic(fmt.Sprintf("gen-report: mmdl: a link's %s: %v", f.Key, err)) // the paper's cases and R ≥ 1
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
	for _, f := range scmmdl.Fields() {
		q = append(q, url.QueryEscape(f.Key)+"="+url.QueryEscape(v[f.Key]))
	}
	return strings.Join(q, "&")
}

// sceneLink is what a click on case c at R rounds opens; what names the
// point for the title ("Table 5, R = 7"), and not, if set, what of the
// point the scene does not show.
func sceneLink(c mmdlCase, calibrated bool, R int, sched engine.Sched, what, not string) *report.Link {
	v, capped := sceneValues(c, calibrated, R, sched)
	params := "after calibration (0.294 / 0.0034)"
	if !calibrated {
		params = "before calibration (0.1 / 0.003)"
	}
	title := fmt.Sprintf("Open the mmdl scene for %s: %s, %s, %s, R = %d", what, c, params, schedWords(sched), R)
	var notes []string
	if not != "" {
		notes = append(notes, not)
	}
	notes = append(notes, capped...)
	if len(notes) > 0 {
		title += " (" + strings.Join(notes, "; ") + ")"
	}
	return &report.Link{Path: "scene.html?" + sceneQuery(v), Title: title + "."}
}

// schedWords names a schedule for a title.
func schedWords(s engine.Sched) string {
	if s == engine.Overlap {
		return "the overlapped schedule (the paper's future work)"
	}
	return "the paper's schedule"
}

// guessedNote is what a row before calibration says the scene does not
// show.
const guessedNote = "the scene plans and runs with the first guess, as the paper's simulation does; it does not run the guessed plan on the calibrated machine, our executed column"
