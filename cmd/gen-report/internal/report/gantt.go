package report

import (
	"fmt"
	"math"
)

// GanttBar is one activity on one lane of a Gantt chart.
type GanttBar struct {
	Lane       int     // index into Gantt.Lanes
	Kind       int     // index into Gantt.Kinds: the bar's colour and legend entry
	Start, End float64 // in the units of Gantt.XName; finite, Start <= End
	Label      string  // optional, shown in the tooltip ("round 2: send 3,000 tasks to P5")
}

// Gantt is a timeline per lane (a processor), one coloured bar per activity, what the
// papers draw as execution charts. Time runs along X; what no bar covers is idle and left
// blank.
type Gantt struct {
	ID, Title, Caption string // as for HeatMap
	LaneName           string // "processor": the Y axis title and the CSV header of the lanes
	Lanes              []string
	XName              string   // the time axis and its unit, "time (s)"
	Kinds              []string // the activity kinds, coloured in order from the line palette
	Bars               []GanttBar

	// Marks are optional vertical lines across every lane (round boundaries, say), in the
	// units of XName; MarkName is their legend entry and must be set when Marks is.
	Marks    []float64
	MarkName string

	Digits int // significant digits in tooltips; 0 means 3
}

// markColour draws the marks in near-black, apart from the activity colours.
const markColour = "#333333"

func checkGantt(g *Gantt) []string {
	var pr []string
	if g.Title == "" {
		pr = append(pr, "Title is empty")
	}
	if g.LaneName == "" {
		pr = append(pr, "LaneName is empty")
	}
	if len(g.Lanes) == 0 {
		pr = append(pr, "Lanes is empty")
	}
	if g.XName == "" {
		pr = append(pr, "XName is empty")
	}
	if len(g.Kinds) == 0 {
		pr = append(pr, "Kinds is empty")
	}
	names := map[string]bool{}
	for i, k := range g.Kinds {
		switch {
		case k == "":
			pr = append(pr, fmt.Sprintf("Kinds[%d] is empty", i))
		case names[k]:
			pr = append(pr, fmt.Sprintf("Kinds[%d] (%q) is used by an earlier kind", i, k))
		}
		names[k] = true
	}
	for i, b := range g.Bars {
		field := fmt.Sprintf("Bars[%d]", i)
		switch {
		case b.Lane < 0 || b.Lane >= len(g.Lanes):
			pr = append(pr, fmt.Sprintf("%s: Lane is %d, want an index in [0, %d)", field, b.Lane, len(g.Lanes)))
		case b.Kind < 0 || b.Kind >= len(g.Kinds):
			pr = append(pr, fmt.Sprintf("%s: Kind is %d, want an index in [0, %d)", field, b.Kind, len(g.Kinds)))
		case !finite(b.Start) || !finite(b.End):
			pr = append(pr, fmt.Sprintf("%s: Start %v and End %v must be finite", field, b.Start, b.End))
		case b.End < b.Start:
			pr = append(pr, fmt.Sprintf("%s: End %v is before Start %v", field, b.End, b.Start))
		default:
			continue
		}
		break // one bad bar is enough to say; a schedule has thousands
	}
	for i, m := range g.Marks {
		if !finite(m) {
			pr = append(pr, fmt.Sprintf("Marks[%d] is %v, want a finite number", i, m))
			break
		}
	}
	if len(g.Marks) > 0 && g.MarkName == "" {
		pr = append(pr, "MarkName is empty, but Marks is set")
	}
	if g.MarkName != "" && names[g.MarkName] {
		pr = append(pr, fmt.Sprintf("MarkName %q is also a kind", g.MarkName))
	}
	return append(pr, checkDigits(g.Digits)...)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// ganttItem is one bar as echarts data: value [lane, start, end], name the label.
type ganttItem struct {
	Value [3]number `json:"value"`
	Name  string    `json:"name,omitempty"`
}

// ganttSpec builds the option by hand: go-echarts has no custom series, and echarts draws a
// Gantt chart with one, each bar a rectangle from (start, lane) to (end, lane). The draw
// functions (renderItem) cannot travel in JSON; assets/charts.js adds them by series id,
// "kind-<i>" for the bars and "marks" for the marks.
func ganttSpec(g *Gantt) (chartSpec, error) {
	series := make([]any, 0, len(g.Kinds)+1)
	for k, name := range g.Kinds {
		data := []ganttItem{}
		for _, b := range g.Bars {
			if b.Kind == k {
				data = append(data, ganttItem{Value: [3]number{number(b.Lane), number(b.Start), number(b.End)}, Name: b.Label})
			}
		}
		series = append(series, map[string]any{
			"type": "custom", "id": fmt.Sprintf("kind-%d", k), "name": name,
			"encode": map[string]any{"x": []int{1, 2}, "y": 0},
			"data":   data,
		})
	}
	if len(g.Marks) > 0 {
		data := make([][2]number, len(g.Marks))
		for i, m := range g.Marks {
			data[i] = [2]number{number(m), 0}
		}
		series = append(series, map[string]any{
			"type": "custom", "id": "marks", "name": g.MarkName,
			"encode":    map[string]any{"x": 0, "y": 1},
			"itemStyle": map[string]any{"color": markColour},
			"data":      data,
		})
	}
	option := map[string]any{
		"animation": false,
		"color":     okabeIto,
		"legend":    map[string]any{"show": true, "type": "scroll", "top": "0"},
		"tooltip":   map[string]any{"show": true, "trigger": "item"},
		"grid":      gridBox{Left: 16, Right: 32, Top: 64, Bottom: 72, ContainLabel: true},
		"xAxis": []any{map[string]any{
			"type": "value", "name": g.XName, "nameLocation": "middle", "nameGap": 30, "min": 0,
		}},
		"yAxis": []any{map[string]any{
			"type": "category", "name": g.LaneName, "nameLocation": "end", "data": g.Lanes, "inverse": true,
		}},
		// Thousands of short bars: zoom on time with the wheel or the slider; weakFilter
		// keeps a bar that is only partly in view.
		"dataZoom": []any{
			map[string]any{"type": "inside", "xAxisIndex": 0, "filterMode": "weakFilter"},
			map[string]any{"type": "slider", "xAxisIndex": 0, "filterMode": "weakFilter", "bottom": 8, "height": 20},
		},
		"series": series,
	}
	return chartSpec{Kind: "gantt", Digits: digits(g.Digits), X: g.XName, Y: g.LaneName, Option: option}, nil
}

// ganttData returns the CSV (one row per bar: lane, kind, start, end, label; then one row
// per mark, its lane empty, its kind MarkName and start = end) and the JSON of g.
func ganttData(g *Gantt) (csvData, jsonData []byte, err error) {
	rows := [][]string{{g.LaneName, "kind", g.XName + " start", g.XName + " end", "label"}}
	for _, b := range g.Bars {
		rows = append(rows, []string{g.Lanes[b.Lane], g.Kinds[b.Kind], csvNumber(b.Start), csvNumber(b.End), b.Label})
	}
	for _, m := range g.Marks {
		rows = append(rows, []string{"", g.MarkName, csvNumber(m), csvNumber(m), ""})
	}
	if csvData, err = encodeCSV(rows); err != nil {
		return nil, nil, err
	}
	type barJSON struct {
		Lane  int    `json:"lane"`
		Kind  int    `json:"kind"`
		Start number `json:"start"`
		End   number `json:"end"`
		Label string `json:"label,omitempty"`
	}
	bars := make([]barJSON, len(g.Bars))
	for i, b := range g.Bars {
		bars[i] = barJSON{b.Lane, b.Kind, number(b.Start), number(b.End), b.Label}
	}
	jsonData, err = encodeJSON(struct {
		ID       string    `json:"id"`
		Title    string    `json:"title"`
		Caption  string    `json:"caption"`
		LaneName string    `json:"lane_name"`
		Lanes    []string  `json:"lanes"`
		XName    string    `json:"x_name"`
		Kinds    []string  `json:"kinds"`
		Bars     []barJSON `json:"bars"`
		MarkName string    `json:"mark_name,omitempty"`
		Marks    []number  `json:"marks,omitempty"`
	}{g.ID, g.Title, g.Caption, g.LaneName, g.Lanes, g.XName, g.Kinds, bars, g.MarkName, numbers(g.Marks)})
	return csvData, jsonData, err
}
