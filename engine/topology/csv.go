package topology

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"commlab/internal/errf"
	"commlab/internal/shown"
)

// AsymmetryTolerance is how far u's and v's measurements of the same pair
// may differ, as a fraction of the larger, before the pair counts as far
// apart: noise makes them differ a little, a matrix with rows and columns
// mixed up (or in different units) differs by far more.
const AsymmetryTolerance = 0.5

// AsymmetricPairs is the share of pairs that may differ by more than
// AsymmetryTolerance: outliers (one slow ping) are allowed, a matrix whose
// pairs disagree wholesale is refused.
const AsymmetricPairs = 0.05

// ReadRTTCSV reads an RTT matrix in the spec's format: a header row of node
// names (optionally after an empty or "node" first cell), then one row per
// node, in any order: its name, then its RTTs in microseconds to every node
// in header order, its own entry 0. Errors name the line (and column).
func ReadRTTCSV(r io.Reader) (names []string, rtt [][]float64, err error) {
	cr := csv.NewReader(skipBOM(r))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	head, err := cr.Read()
	if err == io.EOF {
		return nil, nil, errf.Errorf("rtt csv: empty input (want a header row of node names)")
	}
	if err != nil {
		return nil, nil, csvError("rtt csv", err)
	}
	if len(head) > 0 && (strings.TrimSpace(head[0]) == "" || strings.EqualFold(strings.TrimSpace(head[0]), "node")) {
		head = head[1:]
	}
	if len(head) == 0 {
		return nil, nil, errf.Errorf("rtt csv: line 1, column 1: the header names no nodes")
	}
	if len(head) > MaxNodes {
		return nil, nil, errf.Errorf("rtt csv: line 1, column %d: %d nodes, at most %d", MaxNodes+2, len(head), MaxNodes)
	}
	n := len(head)
	ids := make(map[string]int, n)
	names = make([]string, n)
	for i, h := range head {
		h = strings.TrimSpace(h)
		if h == "" {
			return nil, nil, errf.Errorf("rtt csv: line 1, column %d: empty node name", i+2)
		}
		if j, dup := ids[h]; dup {
			return nil, nil, errf.Errorf("rtt csv: line 1, column %d: node %q named twice (first in column %d)", i+2, shown.Cut(h), j+2)
		}
		ids[h] = i
		names[i] = h
	}
	rtt = make([][]float64, n)
	rowLine := make([]int, n)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, csvError("rtt csv", err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rec) != n+1 {
			return nil, nil, errf.Errorf("rtt csv: line %d, column %d: %d fields, want %d (the node's name and %d RTTs)", line, min(len(rec), n+1)+1, len(rec), n+1, n)
		}
		name := strings.TrimSpace(rec[0])
		u, ok := ids[name]
		if !ok {
			return nil, nil, errf.Errorf("rtt csv: line %d, column 1: node %q is not in the header", line, shown.Cut(name))
		}
		if rtt[u] != nil {
			return nil, nil, errf.Errorf("rtt csv: line %d, column 1: node %q has a second row (the first is on line %d)", line, shown.Cut(name), rowLine[u])
		}
		row := make([]float64, n)
		for v, f := range rec[1:] {
			x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, nil, errf.Errorf("rtt csv: line %d, column %d (%s to %s): %q is not a finite number", line, v+2, shown.Cut(name), shown.Cut(names[v]), shown.Cut(f))
			}
			if x < 0 {
				return nil, nil, errf.Errorf("rtt csv: line %d, column %d (%s to %s): RTT %v is negative", line, v+2, shown.Cut(name), shown.Cut(names[v]), x)
			}
			if v == u && x != 0 {
				return nil, nil, errf.Errorf("rtt csv: line %d, column %d: %s's RTT to itself is %v, want 0", line, v+2, shown.Cut(name), x)
			}
			row[v] = x
		}
		rtt[u], rowLine[u] = row, line
	}
	for u, row := range rtt {
		if row == nil {
			return nil, nil, errf.Errorf("rtt csv: line 1, column %d: node %q has no row", u+2, shown.Cut(names[u]))
		}
	}
	// A pair's two entries differ by noise, and now and then one is an
	// outlier (a slow ping) that InferLeaves repairs; a matrix with rows
	// and columns mixed up, or rows in different units, has many pairs far
	// apart.
	far, pairs, fu, fv := 0, n*(n-1)/2, -1, -1
	byLine := make([]int, n)
	for u := range byLine {
		byLine[u] = u
	}
	slices.SortFunc(byLine, func(a, b int) int { return rowLine[a] - rowLine[b] })
	for k, u := range byLine { // in file order, so the first pair named is the file's first
		for _, v := range byLine[:k] {
			a, b := rtt[u][v], rtt[v][u]
			if math.Abs(a-b) > AsymmetryTolerance*max(a, b) {
				if far == 0 {
					fu, fv = u, v
				}
				far++
			}
		}
	}
	if far > 0 && float64(far) > AsymmetricPairs*float64(pairs) {
		return nil, nil, errf.Errorf("rtt csv: line %d, column %d: %s to %s is %v but line %d has %s to %s %v, and %d of the %d pairs are more than %g%% apart (at most %g%% may be: outliers); rows and columns mixed up, or different units?",
			rowLine[fu], fv+2, shown.Cut(names[fu]), shown.Cut(names[fv]), rtt[fu][fv], rowLine[fv], shown.Cut(names[fv]), shown.Cut(names[fu]), rtt[fv][fu], far, pairs, 100*AsymmetryTolerance, 100*AsymmetricPairs)
	}
	return names, rtt, nil
}

// WriteRTTCSV writes the matrix in the format ReadRTTCSV reads, every value
// in the shortest form that reads back exactly.
func WriteRTTCSV(w io.Writer, names []string, rtt [][]float64) error {
	if len(rtt) != len(names) {
		return errf.Errorf("rtt csv: %d names but %d rows", len(names), len(rtt))
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(append([]string{"node"}, names...)); err != nil {
		return err
	}
	rec := make([]string, len(names)+1)
	for u, row := range rtt {
		if len(row) != len(names) {
			return errf.Errorf("rtt csv: row %d has %d entries, want %d", u, len(row), len(names))
		}
		rec[0] = names[u]
		for v, x := range row {
			rec[v+1] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// interferenceHeader is the spec's header.
var interferenceHeader = []string{"a", "b", "c", "d", "interferes"}

// ReadInterferenceCSV reads interference observations in the spec's format
// (header a,b,c,d,interferes; node names from names; true or false) as an
// Oracle that knows exactly those. Errors name the line.
func ReadInterferenceCSV(r io.Reader, names []string) (Oracle, error) {
	obs, err := readInterference(r, names)
	if err != nil {
		return nil, err
	}
	return NewObserved(obs), nil
}

func readInterference(r io.Reader, names []string) ([]Observation, error) {
	ids := make(map[string]int, len(names))
	for i, n := range names {
		ids[n] = i
	}
	cr := csv.NewReader(skipBOM(r))
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err == io.EOF {
		return nil, errf.Errorf("interference csv: empty input (want the header a,b,c,d,interferes)")
	}
	if err != nil {
		return nil, csvError("interference csv", err)
	}
	if len(head) != len(interferenceHeader) {
		return nil, errf.Errorf("interference csv: line 1, column %d: header has %d fields, want a,b,c,d,interferes", min(len(head), 5)+1, len(head))
	}
	for i, h := range head {
		if !strings.EqualFold(strings.TrimSpace(h), interferenceHeader[i]) {
			return nil, errf.Errorf("interference csv: line 1, column %d: header %q, want %q (a,b,c,d,interferes)", i+1, shown.Cut(h), interferenceHeader[i])
		}
	}
	var obs []Observation
	// The line of each question's first answer: the same question (pairs
	// in any order) answered both ways is a contradiction, not a choice.
	seen := make(map[[4]int]int)
	var obsLine []int
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError("interference csv", err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rec) != 5 {
			return nil, errf.Errorf("interference csv: line %d, column %d: %d fields, want 5 (a,b,c,d,interferes)", line, min(len(rec), 5)+1, len(rec))
		}
		var q [4]int
		for i := range 4 {
			name := strings.TrimSpace(rec[i])
			v, ok := ids[name]
			if !ok {
				return nil, errf.Errorf("interference csv: line %d, column %d (%s): node %q is not in the RTT matrix", line, i+1, interferenceHeader[i], shown.Cut(name))
			}
			q[i] = v
		}
		if q[0] == q[1] || q[2] == q[3] {
			col := 2
			if q[0] != q[1] {
				col = 4
			}
			return nil, errf.Errorf("interference csv: line %d, column %d: a pair joins a node to itself (%s-%s, %s-%s)", line, col, shown.Cut(rec[0]), shown.Cut(rec[1]), shown.Cut(rec[2]), shown.Cut(rec[3]))
		}
		var x bool
		switch strings.ToLower(strings.TrimSpace(rec[4])) {
		case "true":
			x = true
		case "false":
			x = false
		default:
			return nil, errf.Errorf("interference csv: line %d, column 5 (interferes): %q, want true or false", line, shown.Cut(rec[4]))
		}
		k := quadKey(q[0], q[1], q[2], q[3])
		if first, ok := seen[k]; ok && obs[first].Interferes != x {
			o := obs[first]
			return nil, errf.Errorf("interference csv: line %d, column 5 (interferes): %s-%s with %s-%s is %v, but line %d has %s-%s with %s-%s %v: the same question answered both ways",
				line, shown.Cut(names[q[0]]), shown.Cut(names[q[1]]), shown.Cut(names[q[2]]), shown.Cut(names[q[3]]), x,
				obsLine[first], shown.Cut(names[o.A]), shown.Cut(names[o.B]), shown.Cut(names[o.C]), shown.Cut(names[o.D]), o.Interferes)
		} else if !ok {
			seen[k] = len(obs)
		}
		obs = append(obs, Observation{q[0], q[1], q[2], q[3], x})
		obsLine = append(obsLine, line)
	}
	return obs, nil
}

// utf8BOM is the byte-order mark spreadsheet programs put before a CSV.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// skipBOM drops a UTF-8 byte-order mark at the start of r: the first node
// name (or the header "a") would otherwise carry it, invisibly.
func skipBOM(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if b, _ := br.Peek(len(utf8BOM)); bytes.Equal(b, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	return br
}

// WriteInterferenceCSV writes observations in the format
// ReadInterferenceCSV reads.
func WriteInterferenceCSV(w io.Writer, names []string, obs []Observation) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(interferenceHeader); err != nil {
		return err
	}
	for i, o := range obs {
		for _, v := range []int{o.A, o.B, o.C, o.D} {
			if v < 0 || v >= len(names) {
				return errf.Errorf("interference csv: observation %d names node %d (want [0, %d))", i, v, len(names))
			}
		}
		if err := cw.Write([]string{names[o.A], names[o.B], names[o.C], names[o.D], strconv.FormatBool(o.Interferes)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvError keeps encoding/csv's line and column (it names them already).
func csvError(what string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return errf.Errorf("%s: line %d, column %d: %v", what, pe.Line, pe.Column, pe.Err)
	}
	return errf.Errorf("%s: %w", what, err)
}
