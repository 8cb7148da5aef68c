package scene

import (
	"math"
	"strconv"
)

// PaperNumber is one of a paper's published numbers beside the same
// quantity from the run shown, for a scene whose parameters are one of the
// paper's points: the page writes it "paper X (Source) · commlab Y".
type PaperNumber struct {
	// What is the quantity compared, in words: "TCC's overlap speedup
	// over the blocking MPI_Alltoall".
	What string
	// Paper is the paper's value and Source where the paper gives it (its
	// section, table or figure, and the setup); the engine package of the
	// paper's model holds both (engine/nbc/paper.go and its siblings).
	Paper  float64
	Source string
	// By names who published Paper, as the page labels it: "paper" when
	// empty (ByText), "slides", or a tool ("LogGOPSim").
	By string
	// Ours is the same quantity from the run shown (its Numbers, or the
	// engine on the same parameters), and OursSE its standard error when
	// it is a Monte Carlo estimate; 0 when it is exact.
	Ours, OursSE float64
	// Unit is both numbers' unit, and Digits the decimals the paper
	// prints, which both are written with (ours with more when its
	// standard error needs them).
	Unit   Unit
	Digits int
	// Note says what a reader must know to compare the two: how this
	// configuration was chosen where the paper leaves part of it open,
	// or which of the report's models the run is. "" for nothing.
	Note string
}

// PaperPointer is a Scene that knows the points at which its paper
// publishes numbers. The page shows them beside the run's own, in its
// panel, whenever the current parameters are such a point.
type PaperPointer interface {
	// PaperPoint returns the paper's numbers beside ours for a run
	// built from v whose Numbers are numbers, or nil when v is none of
	// the paper's points (or the scene cannot run the paper's
	// configuration exactly). It builds nothing heavy: the page calls it
	// once per run.
	PaperPoint(v Values, numbers map[string]float64) []PaperNumber
}

// PaperPoint is sc's PaperPoint, looking through Within's budget; nil for
// a scene that is no PaperPointer.
func PaperPoint(sc Scene, v Values, numbers map[string]float64) []PaperNumber {
	if w, ok := sc.(budgeted); ok {
		sc = w.Scene
	}
	if p, ok := sc.(PaperPointer); ok {
		return p.PaperPoint(v, numbers)
	}
	return nil
}

// ByText is who published the paper's number: By, or "paper".
func (n PaperNumber) ByText() string {
	if n.By == "" {
		return "paper"
	}
	return n.By
}

// PaperText writes the paper's value in n's unit with the paper's
// decimals: "1.271×", "12.431613 s", "55684 ns".
func (n PaperNumber) PaperText(info Info) string {
	return withUnit(info, n.Unit, strconv.FormatFloat(n.Paper, 'f', max(n.Digits, 0), 64))
}

// OursText writes our value like the paper's, with its standard error
// when it has one ("0.701 ± 0.006 additions"): then with the decimals of
// the error's first significant digit, if that is more than the paper's.
func (n PaperNumber) OursText(info Info) string {
	d := max(n.Digits, 0)
	if n.OursSE > 0 && !math.IsInf(n.OursSE, 0) {
		d = max(d, int(-math.Floor(math.Log10(n.OursSE))))
		return withUnit(info, n.Unit, strconv.FormatFloat(n.Ours, 'f', d, 64)+" ± "+strconv.FormatFloat(n.OursSE, 'f', d, 64))
	}
	return withUnit(info, n.Unit, strconv.FormatFloat(n.Ours, 'f', d, 64))
}

// withUnit appends the unit to a number already written.
func withUnit(info Info, u Unit, s string) string {
	switch u {
	case UnitTime:
		if info.TimeUnit != "" {
			return s + " " + info.TimeUnit
		}
		return s + " s"
	case UnitRatio:
		return s + "×"
	}
	return s
}
