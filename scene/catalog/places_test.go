package catalog

import (
	"regexp"
	"strings"
	"testing"
)

// TestPlaces holds the places to the catalog: every scene they name is
// one the site ships, and every place is a report page with an anchor a
// URL can carry and a label to show. Whether the page and the anchor exist
// is the browser test's (TestScenePlacesResolve, on a quick report).
func TestPlaces(t *testing.T) {
	names := map[string]bool{}
	for _, sc := range Unchecked() {
		names[sc.Info().Name] = true
	}
	id := regexp.MustCompile(`^([A-Za-z][-A-Za-z0-9_]*)?$`)
	page := regexp.MustCompile(`^[a-z0-9][-a-z0-9]*\.html$`)
	for name, ps := range places {
		if !names[name] {
			t.Errorf("places name scene %q, which the catalog does not list", name)
		}
		seen := map[string]bool{}
		for _, p := range ps {
			if !page.MatchString(p.Page) || !id.MatchString(p.Anchor) || strings.TrimSpace(p.Label) == "" {
				t.Errorf("%s: place %+v: want a report page NAME.html, an id or \"\", and a label", name, p)
			}
			if seen[p.Href()] {
				t.Errorf("%s: %s listed twice", name, p.Href())
			}
			seen[p.Href()] = true
		}
	}
	if got, want := (Place{"a.html", "fig1", "x"}).Href(), "a.html#fig1"; got != want {
		t.Errorf("Href = %q, want %q", got, want)
	}
	if got := (Place{"goal.html", "", "x"}).Href(); got != "goal.html" {
		t.Errorf("Href of a page's top = %q, want goal.html", got)
	}
	// Places hands out a copy: the page cannot change the catalog.
	if ps := Places("butterfly"); len(ps) > 0 {
		ps[0].Page = "changed.html"
		if Places("butterfly")[0].Page == "changed.html" {
			t.Error("Places returned the catalog's own slice")
		}
	}
}
