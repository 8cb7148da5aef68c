package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
)

// number is a float64 written exactly (the shortest decimal that reads back to the same
// float64), with NaN as JSON null. Validation has already rejected infinities.
type number float64

func (n number) MarshalJSON() ([]byte, error) {
	v := float64(n)
	if math.IsNaN(v) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// csvNumber is the CSV field of v: exact, empty for NaN.
func csvNumber(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func numbers(vs []float64) []number {
	if vs == nil {
		return nil
	}
	out := make([]number, len(vs))
	for i, v := range vs {
		out[i] = number(v)
	}
	return out
}

// valueColumn is the CSV header of an axis's Values column.
func valueColumn(a Axis) string { return a.Name + "_value" }

// loColumn and hiColumn are the CSV headers of a series' or a heat map's
// interval bounds.
func loColumn(name string) string { return name + "_lo" }
func hiColumn(name string) string { return name + "_hi" }

type axisJSON struct {
	Name   string   `json:"name"`
	Labels []string `json:"labels"`
	Values []number `json:"values,omitempty"`
}

func axisData(a Axis) axisJSON {
	return axisJSON{Name: a.Name, Labels: a.Labels, Values: numbers(a.Values)}
}

type heatMapJSON struct {
	ID      string     `json:"id"`
	Title   string     `json:"title"`
	Caption string     `json:"caption"`
	X       axisJSON   `json:"x"`
	Y       axisJSON   `json:"y"`
	ZName   string     `json:"z_name"`
	ZMin    *number    `json:"z_min,omitempty"`
	ZMax    *number    `json:"z_max,omitempty"`
	Z       [][]number `json:"z"`
	// Each cell's 95 % interval (null where it has none), and the relative
	// half-width above which the page hatches a cell.
	Lo   [][]number `json:"lo,omitempty"`
	Hi   [][]number `json:"hi,omitempty"`
	Wide *number    `json:"wide,omitempty"`
}

type seriesJSON struct {
	Name   string   `json:"name"`
	Values []number `json:"values"`
	Lo     []number `json:"lo,omitempty"` // each value's 95 % interval, null where it has none
	Hi     []number `json:"hi,omitempty"`
}

type lineChartJSON struct {
	ID      string       `json:"id"`
	Title   string       `json:"title"`
	Caption string       `json:"caption"`
	X       axisJSON     `json:"x"`
	YName   string       `json:"y_name"`
	YLog    bool         `json:"y_log"`
	Series  []seriesJSON `json:"series"`
}

type barSeriesJSON struct {
	Name   string   `json:"name"`
	Stack  string   `json:"stack,omitempty"`
	Values []number `json:"values"`
}

type barChartJSON struct {
	ID      string          `json:"id"`
	Title   string          `json:"title"`
	Caption string          `json:"caption"`
	X       axisJSON        `json:"x"`
	YName   string          `json:"y_name"`
	Series  []barSeriesJSON `json:"series"`
}

type tableJSON struct {
	ID      string     `json:"id"`
	Title   string     `json:"title"`
	Caption string     `json:"caption"`
	Header  []string   `json:"header"`
	Rows    [][]string `json:"rows"`
}

func optNumber(p *float64) *number {
	if p == nil {
		return nil
	}
	n := number(*p)
	return &n
}

// encodeJSON is compact JSON with a final newline. HTML escaping stays on, so the same
// bytes are safe inside a <script type="application/json"> block.
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func encodeCSV(rows [][]string) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(rows); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// heatMapColumns is the CSV header of h: Y (and its values), X (and its
// values), Z (and its interval).
func heatMapColumns(h *HeatMap) []string {
	header := []string{h.Y.Name}
	if h.Y.Values != nil {
		header = append(header, valueColumn(h.Y))
	}
	header = append(header, h.X.Name)
	if h.X.Values != nil {
		header = append(header, valueColumn(h.X))
	}
	header = append(header, h.ZName)
	if h.Lo != nil {
		header = append(header, loColumn(h.ZName), hiColumn(h.ZName))
	}
	return header
}

// lineChartColumns is the CSV header of l: X (and its values), then each
// series (and its interval).
func lineChartColumns(l *LineChart) []string {
	header := []string{l.X.Name}
	if l.X.Values != nil {
		header = append(header, valueColumn(l.X))
	}
	for _, s := range l.Series {
		header = append(header, s.Name)
		if s.Lo != nil {
			header = append(header, loColumn(s.Name), hiColumn(s.Name))
		}
	}
	return header
}

// heatMapData returns the CSV, in long format (one row per cell, Y outer and X inner as in
// Z[y][x]), and the JSON of h.
func heatMapData(h *HeatMap) (csvData, jsonData []byte, err error) {
	header := heatMapColumns(h)
	rows := [][]string{header}
	for y, row := range h.Z {
		for x, z := range row {
			r := make([]string, 0, len(header))
			r = append(r, h.Y.Labels[y])
			if h.Y.Values != nil {
				r = append(r, csvNumber(h.Y.Values[y]))
			}
			r = append(r, h.X.Labels[x])
			if h.X.Values != nil {
				r = append(r, csvNumber(h.X.Values[x]))
			}
			r = append(r, csvNumber(z))
			if h.Lo != nil {
				r = append(r, csvNumber(h.Lo[y][x]), csvNumber(h.Hi[y][x]))
			}
			rows = append(rows, r)
		}
	}
	if csvData, err = encodeCSV(rows); err != nil {
		return nil, nil, err
	}
	out := heatMapJSON{
		ID: h.ID, Title: h.Title, Caption: h.Caption,
		X: axisData(h.X), Y: axisData(h.Y),
		ZName: h.ZName, ZMin: optNumber(h.ZMin), ZMax: optNumber(h.ZMax),
		Z: grid(h.Z),
	}
	if h.Lo != nil {
		wide := number(wideOf(h))
		out.Lo, out.Hi, out.Wide = grid(h.Lo), grid(h.Hi), &wide
	}
	jsonData, err = encodeJSON(out)
	return csvData, jsonData, err
}

// grid is a grid of values as JSON numbers.
func grid(g [][]float64) [][]number {
	out := make([][]number, len(g))
	for y, row := range g {
		out[y] = numbers(row)
	}
	return out
}

// lineChartData returns the CSV (one row per X label, one column per series) and the JSON
// of l.
func lineChartData(l *LineChart) (csvData, jsonData []byte, err error) {
	header := lineChartColumns(l)
	rows := [][]string{header}
	for x, label := range l.X.Labels {
		r := make([]string, 0, len(header))
		r = append(r, label)
		if l.X.Values != nil {
			r = append(r, csvNumber(l.X.Values[x]))
		}
		for _, s := range l.Series {
			r = append(r, csvNumber(s.Values[x]))
			if s.Lo != nil {
				r = append(r, csvNumber(s.Lo[x]), csvNumber(s.Hi[x]))
			}
		}
		rows = append(rows, r)
	}
	if csvData, err = encodeCSV(rows); err != nil {
		return nil, nil, err
	}
	series := make([]seriesJSON, len(l.Series))
	for i, s := range l.Series {
		series[i] = seriesJSON{Name: s.Name, Values: numbers(s.Values), Lo: numbers(s.Lo), Hi: numbers(s.Hi)}
	}
	jsonData, err = encodeJSON(lineChartJSON{
		ID: l.ID, Title: l.Title, Caption: l.Caption,
		X: axisData(l.X), YName: l.YName, YLog: l.YLog, Series: series,
	})
	return csvData, jsonData, err
}

// barChartData returns the CSV (one row per X label, one column per series, as for a line
// chart) and the JSON of b, which also names each series' stack.
func barChartData(b *BarChart) (csvData, jsonData []byte, err error) {
	header := []string{b.X.Name}
	if b.X.Values != nil {
		header = append(header, valueColumn(b.X))
	}
	for _, s := range b.Series {
		header = append(header, s.Name)
	}
	rows := [][]string{header}
	for x, label := range b.X.Labels {
		r := make([]string, 0, len(header))
		r = append(r, label)
		if b.X.Values != nil {
			r = append(r, csvNumber(b.X.Values[x]))
		}
		for _, s := range b.Series {
			r = append(r, csvNumber(s.Values[x]))
		}
		rows = append(rows, r)
	}
	if csvData, err = encodeCSV(rows); err != nil {
		return nil, nil, err
	}
	series := make([]barSeriesJSON, len(b.Series))
	for i, s := range b.Series {
		series[i] = barSeriesJSON{Name: s.Name, Stack: s.Stack, Values: numbers(s.Values)}
	}
	jsonData, err = encodeJSON(barChartJSON{
		ID: b.ID, Title: b.Title, Caption: b.Caption,
		X: axisData(b.X), YName: b.YName, Series: series,
	})
	return csvData, jsonData, err
}

func tableData(t *Table) (csvData, jsonData []byte, err error) {
	rows := append([][]string{t.Header}, t.Rows...)
	if csvData, err = encodeCSV(rows); err != nil {
		return nil, nil, err
	}
	body := t.Rows
	if body == nil {
		body = [][]string{}
	}
	jsonData, err = encodeJSON(tableJSON{ID: t.ID, Title: t.Title, Caption: t.Caption, Header: t.Header, Rows: body})
	return csvData, jsonData, err
}
