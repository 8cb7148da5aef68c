package catalog

import "slices"

// A Place is a figure or a section of the reports (cmd/gen-report's
// pages) that a scene animates: the scene page links to it, and a report
// can link back from it to the scene.
type Place struct {
	// Page is the report page's file, relative to the reports'
	// directory: "allreduce.html".
	Page string
	// Anchor is the id of the figure or section on that page ("fig12":
	// gen-report gives each chart its ID as the id of its figure, and
	// each section "section-N"); "" for the page's top.
	Anchor string
	// Label is the link's text on the scene page, the figure's own words.
	Label string
}

// Href is p's address relative to the reports' directory, as a link
// writes it: "allreduce.html#fig12".
func (p Place) Href() string {
	if p.Anchor == "" {
		return p.Page
	}
	return p.Page + "#" + p.Anchor
}

// places lists, by scene name, the places each scene illustrates: the
// figures it shows a run of, then the findings they support. The browser
// test TestScenePlacesResolve opens each in a quick report and fails on a
// page or an anchor that is not there; TestPlaces holds the names to the
// catalog's.
//
// Findings are the reports' findings sections today; once gen-report
// gives each finding an anchor of its own (id="finding-PAGE-N"), a
// scene's findings line names the one it shows instead, e.g.
// {"allreduce.html", "finding-allreduce-3", "Finding 3: ..."}.
var places = map[string][]Place{
	"butterfly": {
		{"allreduce.html", "fig12", "Fig. 12: allreduce time against P"},
		{"allreduce.html", "fig07", "Fig. 7: the optimal number of redundant exchanges"},
		{"allreduce.html", "summary", "The allreduce paper's findings at a glance"},
	},
	"jitter": {
		{"allreduce.html", "fig12", "Fig. 12: allreduce time against P"},
		{"allreduce.html", "fig09", "Fig. 9: the influence of jitter"},
		{"allreduce.html", "fig21", "Fig. 21: allreduce time against P, OS jitter"},
		{"allreduce.html", "summary", "The allreduce paper's findings at a glance"},
	},
	"logp": {
		{"logp.html", "logp-p2", "E[T] against the planning latency, P = 2"},
		{"logp.html", "logp-p3", "E[T] against the planning latency, P = 3"},
		{"logp.html", "summary", "The LogP slides' findings at a glance"},
	},
	"tcc": {
		{"nbc.html", "nbc-fig1", "Fig. 1: time of each case, 2 nodes"},
		{"nbc.html", "nbc-fig2", "Fig. 2: time of each case, 32 nodes"},
		{"nbc.html", "summary", "The TCC paper's findings at a glance"},
	},
	"mmdl": {
		{"mmdl.html", "mmdl-fig4", "Fig. 4: the schedule before calibration"},
		{"mmdl.html", "mmdl-fig6", "Fig. 6: the schedule after calibration"},
		{"mmdl.html", "mmdl-fig8", "Fig. 8: time against the number of rounds"},
		{"mmdl.html", "summary", "The MMDL paper's findings at a glance"},
	},
	"overlay": {
		{"overlay.html", "overlay-fig5", "Fig. 5: Integer Sort under the connection policies"},
		{"overlay.html", "overlay-fig5-conns", "Connections per process in Fig. 5's runs"},
		{"overlay.html", "summary", "The overlay paper's findings at a glance"},
	},
	// The GOAL page (reports/goal.html) is on its way; then:
	// "schedule": {{"goal.html", "", "GOAL schedules against LogGOPSim"}},
}

// Places returns the places in the reports that the scene name
// illustrates, in the order its page lists them; none for a scene that
// has none yet.
func Places(name string) []Place { return slices.Clone(places[name]) }
