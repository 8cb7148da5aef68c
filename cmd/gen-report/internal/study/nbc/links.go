package nbc

import (
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	engine "commlab/engine/nbc"
	"commlab/scene"
	scnbc "commlab/scene/nbc"
)

// Every point of the page opens the scene that animates it: the tcc scene
// (scene/nbc), which runs TCC and LibNBC's progress function
// (NBCF-ovlp-test) on one workload. Its fields carry the workload and the
// node's threads (nodes, msg, matrix, collectives, queue, cores,
// oversubscribe, test_every); every other magnitude it takes from the
// engine's defaults. A link's title says what the click opens and what
// of the point the scene does not draw.

// sceneName is the scene the links open (scene/nbc's Info().Name).
const sceneName = "tcc"

// The scene's views, by what a point shows.
const (
	viewTCC  = scnbc.ViewTCC
	viewNBCF = scnbc.ViewNBCF
	viewBoth = scnbc.ViewBoth
)

// viewOf is the view that shows method m: TCC and its baseline, the
// blocking MPI_Alltoall, in TCC's view; LibNBC's progress-function cases in
// LibNBC's; NBCT, which the scene does not run, beside TCC's progress
// thread in both.
func viewOf(m engine.Method) string {
	switch m {
	case engine.TCC, engine.MPI:
		return viewTCC
	case engine.NBCFTest, engine.NBCFNoTest, engine.NBCFNoOvlp:
		return viewNBCF
	}
	return viewBoth
}

// sceneValues are the scene's field values for configuration p in view,
// each held to the field's range, and what was capped, in words.
func sceneValues(p engine.Params, view string) (scene.Values, []string) {
	raw := map[string]float64{
		scnbc.KeyQueue:       float64(p.QueueCap),
		scnbc.KeyCollectives: float64(p.Collectives),
		scnbc.KeyMsg:         p.Msg,
		scnbc.KeyNodes:       float64(p.Nodes),
		scnbc.KeyMatrix:      float64(p.Matrix),
		scnbc.KeyCores:       float64(p.Cores),
		scnbc.KeyTestEvery:   float64(p.TestEvery),
	}
	v := scene.Values{}
	var capped []string
	for _, f := range scnbc.Fields() {
		var text string
		switch f.Key {
		case scnbc.KeyOversubscribe:
			text = "0"
			if p.Oversubscribe {
				text = "1"
			}
		case scnbc.KeyView:
			text = view
		default:
			x, ok := raw[f.Key]
			if !ok {
				panic("gen-report: nbc: the tcc scene has a field the links do not set: " + f.Key)
			}
			if c := min(max(x, f.Min), f.Max); c != x {
				capped = append(capped, fmt.Sprintf("%s %g capped to %g, the most the scene draws", f.Key, x, c))
				x = c
			}
			text = strconv.FormatFloat(x, 'g', -1, 64)
		}
		canon, err := f.Parse(text)
		if err != nil {
			panic(fmt.Sprintf("gen-report: nbc: a link's %s: %v", f.Key, err))
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
	for _, f := range scnbc.Fields() {
		q = append(q, url.QueryEscape(f.Key)+"="+url.QueryEscape(v[f.Key]))
	}
	return strings.Join(q, "&")
}

// sceneLink is what a click on configuration p opens: the tcc scene with
// p's workload, in the view that shows p's method, or view if not empty.
// what names the point for the title ("NBCT-ovlp at 2 nodes").
func sceneLink(p engine.Params, view, what string) *report.Link {
	if view == "" {
		view = viewOf(p.Method)
	}
	v, capped := sceneValues(p, view)
	threads := fmt.Sprintf("%d + 1 threads", p.Cores-1)
	if p.Oversubscribe {
		threads = fmt.Sprintf("%d + 1 threads, the progress thread sharing a core", p.Cores)
	}
	shows := map[string]string{
		viewTCC:  "TCC's queue and threads",
		viewNBCF: "LibNBC's progress-function timeline (NBCF-ovlp-test)",
		viewBoth: "TCC's and LibNBC's progress-function timelines",
	}[view]
	colls := "1 collective"
	if p.Collectives != 1 {
		colls = fmt.Sprintf("%d collectives", p.Collectives)
	}
	title := fmt.Sprintf("Open the tcc scene for %s: %s at %d nodes, %s per destination, a %d × %d matrix, %s, %s",
		what, shows, p.Nodes, sizeLabel(p.Msg), p.Matrix, p.Matrix, colls, threads)
	var not []string
	switch p.Method {
	case engine.NBCT:
		not = append(not, "the scene does not run LibNBC's progress thread, NBCT-ovlp")
	case engine.NBCFNoTest:
		not = append(not, "its LibNBC calls NBC_Test during the product, which NBCF-ovlp-notest does not")
	case engine.NBCFNoOvlp:
		not = append(not, "its LibNBC overlaps, which NBCF-noovlp does not")
	}
	not = append(not, capped...)
	if d := notCarried(p); len(d) > 0 {
		not = append(not, "it runs the engine's defaults where this point has "+strings.Join(d, ", "))
	}
	if len(not) > 0 {
		title += " (" + strings.Join(not, "; ") + ")"
	}
	return &report.Link{Path: "scene.html?" + sceneQuery(v), Title: title + "."}
}

// notCarried lists the magnitudes of p that differ from what the scene
// runs (the engine's defaults beside its fields), as "key value": the
// calibrated values, memory sharing, a time slice.
func notCarried(p engine.Params) []string {
	v, _ := sceneValues(p, viewTCC)
	sc, _, err := scnbc.Params(v)
	if err != nil {
		panic(fmt.Sprintf("gen-report: nbc: a link's values do not build: %v", err))
	}
	sc.Method = p.Method
	var out []string
	a, b := reflect.ValueOf(p), reflect.ValueOf(sc)
	t := a.Type()
	for i := range t.NumField() {
		x, y := a.Field(i).Interface(), b.Field(i).Interface()
		if x == y {
			continue
		}
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		switch x := x.(type) {
		case float64:
			if u, ok := engine.UnknownByField(name); ok {
				out = append(out, fmt.Sprintf("%s %.4g %s", name, x/u.Scale, u.Unit))
			} else {
				out = append(out, fmt.Sprintf("%s %.4g", name, x))
			}
		case bool:
			out = append(out, map[bool]string{true: name + " on", false: name + " off"}[x])
		default:
			out = append(out, fmt.Sprintf("%s %v", name, x))
		}
	}
	return out
}
