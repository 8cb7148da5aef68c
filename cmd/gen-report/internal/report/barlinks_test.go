package report

import (
	"strings"
	"testing"
)

// TestBarLinks: a bar series' Links reach the chart's spec under the site
// base, one per X label, and a wrong count or a bad path is refused.
func TestBarLinks(t *testing.T) {
	link := &Link{Path: "scene.html?scene=tcc&nodes=2", Title: "the tcc scene at 2 nodes"}
	b := &BarChart{ID: "bars", Title: "Bars", X: Axis{Name: "case", Labels: []string{"a", "b"}}, YName: "time (ms)",
		Series: []BarSeries{{Name: "compute", Values: []float64{1, 2}, Links: []*Link{link, nil}}, {Name: "comm", Values: []float64{3, 4}}}}
	if pr := checkBarChart(b); len(pr) != 0 {
		t.Fatalf("valid chart refused: %v", pr)
	}
	spec, err := barChartSpec(b, "../")
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.Links) != 2 || spec.Links[0][0] == nil || spec.Links[0][0].Href != "../scene.html?scene=tcc&nodes=2" || spec.Links[0][1] != nil || spec.Links[1] != nil {
		t.Errorf("spec links %+v", spec.Links)
	}
	b.Series[0].Links = []*Link{link}
	if pr := strings.Join(checkBarChart(b), "; "); !strings.Contains(pr, `Series[0] ("compute"): Links has 1 links, want 2`) {
		t.Errorf("short links: %q", pr)
	}
	b.Series[0].Links = []*Link{{Path: "/abs.html", Title: "x"}, nil}
	if pr := strings.Join(checkBarChart(b), "; "); !strings.Contains(pr, `Links[0].Path "/abs.html" must be`) {
		t.Errorf("absolute path: %q", pr)
	}
}
