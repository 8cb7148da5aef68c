package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// demoGantt is two processors over one round: P0 sends to P1, then both compute.
func demoGantt() *Gantt {
	return &Gantt{
		ID: "demo-gantt", Title: "A schedule", Caption: "Two processors.",
		LaneName: "processor", Lanes: []string{"P0", "P1"},
		XName: "time (s)", Kinds: []string{"send", "receive", "compute"},
		Bars: []GanttBar{
			{Lane: 0, Kind: 0, Start: 0, End: 0.5, Label: "round 1: 10 tasks to P1"},
			{Lane: 1, Kind: 1, Start: 0, End: 0.5},
			{Lane: 0, Kind: 2, Start: 0.5, End: 2},
			{Lane: 1, Kind: 2, Start: 0.5, End: 1.75},
		},
		Marks: []float64{0.5, 2}, MarkName: "round boundary",
	}
}

// TestGantt checks the echarts option (a custom series per kind with the bars' lane, start
// and end, one for the marks) and the data files, read back exactly.
func TestGantt(t *testing.T) {
	g := demoGantt()
	spec, err := ganttSpec(g)
	if err != nil {
		t.Fatal(err)
	}
	if spec.Kind != "gantt" || spec.Digits != 3 || spec.X != "time (s)" || spec.Y != "processor" {
		t.Errorf("spec %q %d %q %q", spec.Kind, spec.Digits, spec.X, spec.Y)
	}
	opt := roundTrip(t, spec.Option)
	series := opt["series"].([]any)
	if len(series) != 4 {
		t.Fatalf("%d series, want 3 kinds and the marks", len(series))
	}
	for i, want := range []struct {
		id, name string
		n        int
	}{{"kind-0", "send", 1}, {"kind-1", "receive", 1}, {"kind-2", "compute", 2}, {"marks", "round boundary", 2}} {
		s := series[i].(map[string]any)
		if s["type"] != "custom" || s["id"] != want.id || s["name"] != want.name || len(s["data"].([]any)) != want.n {
			t.Errorf("series %d: %v, want custom %s %q with %d items", i, s, want.id, want.name, want.n)
		}
	}
	item := series[2].(map[string]any)["data"].([]any)[1].(map[string]any)
	if v := item["value"].([]any); fmt.Sprint(v) != "[1 0.5 1.75]" {
		t.Errorf("P1's compute bar is %v, want [lane 1, 0.5, 1.75]", v)
	}
	if n := series[0].(map[string]any)["data"].([]any)[0].(map[string]any)["name"]; n != "round 1: 10 tasks to P1" {
		t.Errorf("label %v", n)
	}
	y := opt["yAxis"].([]any)[0].(map[string]any)
	if y["type"] != "category" || y["inverse"] != true || fmt.Sprint(y["data"]) != "[P0 P1]" {
		t.Errorf("y axis %v, want the lanes, P0 at the top", y)
	}
	if x := opt["xAxis"].([]any)[0].(map[string]any); x["type"] != "value" || x["min"] != 0.0 {
		t.Errorf("x axis %v, want a value axis from 0", x)
	}

	csvData, jsonData, err := ganttData(g)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(csvData)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"processor", "kind", "time (s) start", "time (s) end", "label"},
		{"P0", "send", "0", "0.5", "round 1: 10 tasks to P1"},
		{"P1", "receive", "0", "0.5", ""},
		{"P0", "compute", "0.5", "2", ""},
		{"P1", "compute", "0.5", "1.75", ""},
		{"", "round boundary", "0.5", "0.5", ""},
		{"", "round boundary", "2", "2", ""},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("CSV %v\nwant %v", rows, want)
	}
	var back struct {
		Lanes []string `json:"lanes"`
		Bars  []struct {
			Lane, Kind int
			Start, End float64
		} `json:"bars"`
		Marks []float64 `json:"marks"`
	}
	if err := json.Unmarshal(jsonData, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Bars) != 4 || back.Bars[3].Lane != 1 || back.Bars[3].Kind != 2 || back.Bars[3].End != 1.75 || fmt.Sprint(back.Marks) != "[0.5 2]" {
		t.Errorf("JSON data %s", jsonData)
	}
}

// TestGanttPage writes a page holding a Gantt chart: its container carries the gantt class
// and its data files are written beside the others, twice the same bytes.
func TestGanttPage(t *testing.T) {
	page := Page{File: "gantt.html", Title: "Gantt", Sections: []Section{{Title: "S", Items: []any{demoGantt()}}}}
	var prev map[string][]byte
	for range 2 {
		dir := filepath.Join(t.TempDir(), "reports")
		if err := Write(dir, Index{}, page); err != nil {
			t.Fatal(err)
		}
		files := readTree(t, dir)
		for _, name := range []string{"gantt.html", "data/demo-gantt.csv", "data/demo-gantt.json"} {
			if files[name] == nil {
				t.Fatalf("report lacks %s", name)
			}
		}
		if !bytes.Contains(files["gantt.html"], []byte(`class="chart-canvas gantt" id="chart-demo-gantt"`)) {
			t.Error("the page has no gantt chart container")
		}
		if !bytes.Contains(files["assets/charts.js"], []byte("spec.kind === 'gantt'")) {
			t.Error("charts.js does not draw gantt charts")
		}
		if prev != nil && !bytes.Equal(prev["gantt.html"], files["gantt.html"]) {
			t.Error("the same Gantt chart gave different bytes")
		}
		prev = files
	}
}

func TestValidateGantt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(g *Gantt)
		want   string
	}{
		{"ok", func(*Gantt) {}, ""},
		{"no marks", func(g *Gantt) { g.Marks, g.MarkName = nil, "" }, ""},
		{"lane", func(g *Gantt) { g.Bars[1].Lane = 2 }, `Gantt chart "demo-gantt": Bars[1]: Lane is 2, want an index in [0, 2)`},
		{"kind", func(g *Gantt) { g.Bars[0].Kind = -1 }, `Bars[0]: Kind is -1, want an index in [0, 3)`},
		{"backwards", func(g *Gantt) { g.Bars[2].End = 0.1 }, `Bars[2]: End 0.1 is before Start 0.5`},
		{"NaN", func(g *Gantt) { g.Bars[3].Start = math.NaN() }, `Bars[3]: Start NaN and End 1.75 must be finite`},
		{"mark", func(g *Gantt) { g.Marks[1] = math.Inf(1) }, `Marks[1] is +Inf, want a finite number`},
		{"mark name", func(g *Gantt) { g.MarkName = "" }, `MarkName is empty, but Marks is set`},
		{"mark is kind", func(g *Gantt) { g.MarkName = "send" }, `MarkName "send" is also a kind`},
		{"dup kind", func(g *Gantt) { g.Kinds[2] = "send" }, `Kinds[2] ("send") is used by an earlier kind`},
		{"no lanes", func(g *Gantt) { g.Lanes = nil; g.Bars = nil }, `Lanes is empty`},
		{"lane name", func(g *Gantt) { g.LaneName = "" }, `LaneName is empty`},
		{"x name", func(g *Gantt) { g.XName = "" }, `XName is empty`},
		{"digits", func(g *Gantt) { g.Digits = 18 }, `Digits is 18`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := demoGantt()
			tc.change(g)
			err := validate(Index{}, []Page{{File: "g.html", Title: "G", Sections: []Section{{Items: []any{g}}}}})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("validate: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("validate = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}
