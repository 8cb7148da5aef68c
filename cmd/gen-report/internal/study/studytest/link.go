package studytest

import (
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/report"
	"commlab/engine/cost"
	"commlab/scene"
	"commlab/scene/catalog"
)

// OpenLink reads a report link as the site does: scene.html with a query
// the scene registry parses. It fails the test on a missing link or
// title, another page, a parse error, another scene than want, or a build
// the page's budget would refuse; it returns the parsed state, from which
// each study's test reads the parameters it checks.
func OpenLink(t testing.TB, where string, l *report.Link, want string) scene.State {
	t.Helper()
	if l == nil {
		t.Fatalf("%s: no link", where)
	}
	if strings.TrimSpace(l.Title) == "" {
		t.Errorf("%s: the link has no title", where)
	}
	page, query, ok := strings.Cut(l.Path, "?")
	if !ok || page != "scene.html" {
		t.Fatalf("%s: link %q is not scene.html?…", where, l.Path)
	}
	reg := catalog.All()
	st, errs := scene.ParseQuery(query, reg)
	if len(errs) > 0 {
		t.Fatalf("%s: link %q does not parse in the scene: %v", where, l.Path, errs)
	}
	if st.Scene != want {
		t.Fatalf("%s: link %q opens scene %q, want %q", where, l.Path, st.Scene, want)
	}
	sc, _ := reg.Lookup(st.Scene)
	if err := scene.CheckBudget(sc, st.Values, cost.Page); err != nil {
		t.Errorf("%s: link %q: the scene would refuse it: %v", where, l.Path, err)
	}
	return st
}
