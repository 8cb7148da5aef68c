package nbc

// The paper's published numbers (papers/001), in one place: the report's
// study and the TCC scene both read them from here. Paper2Nodes and
// Paper32Nodes (params.go) are the two setups they belong to.

// PaperCase is one bar of the paper's Fig. 1 and 2: a method and the
// paper's name for it.
type PaperCase struct {
	Method Method
	Name   string // the paper's label, e.g. "TCC-ovlp"
}

// PaperCases returns the bars of Fig. 1 and 2 in the paper's order (the
// order of Methods), with the paper's names. The figures' bar heights did
// not survive into the text; Section V gives the overlap speedups
// (PaperSpeedups).
func PaperCases() []PaperCase {
	return []PaperCase{
		{NBCFNoOvlp, "NBCF-noovlp"},
		{NBCFTest, "NBCF-ovlp-test"},
		{NBCFNoTest, "NBCF-ovlp-notest"},
		{NBCT, "NBCT-ovlp"},
		{MPI, "MPI"},
		{TCC, "TCC-ovlp"},
	}
}

// PaperName is the paper's name for m's bar ("TCC-ovlp"), or m itself for
// a method the paper does not name.
func (m Method) PaperName() string {
	for _, c := range PaperCases() {
		if c.Method == m {
			return c.Name
		}
	}
	return string(m)
}

// PaperSpeedup is one overlap speedup the paper states: the time of a
// method's baseline (Method.Baseline) over the method's own, for the one
// non-blocking Alltoall before the matrix-vector product, on the setup of
// Nodes nodes (PaperSetup).
type PaperSpeedup struct {
	Nodes   int
	Method  Method
	Speedup float64
	// Source says where: the section, and the figure whose setup
	// (PaperSetup) it is on.
	Source string
	// Words are the paper's own, as printed (it rounds to three decimals
	// and says "about").
	Words string
}

// PaperSpeedups returns the six speedups of Section V, 2 nodes first.
// NBCF-ovlp-notest and MPI have none: the paper states none.
func PaperSpeedups() []PaperSpeedup {
	const (
		fig1 = "§V, on Fig. 1's setup"
		fig2 = "§V, on Fig. 2's setup"
	)
	return []PaperSpeedup{
		{2, NBCFTest, 1.346, fig1, "プログレス関数による実装の約 1.346"},
		{2, NBCT, 1.127, fig1, "通信隠蔽によるスピードアップは約 1.127"},
		{2, TCC, 1.166, fig1, "TCCでは，ノード数 2におけるスピードアップが約 1.166"},
		{32, NBCFTest, 1.338, fig2, "プログレス関数の約 1.338"},
		{32, NBCT, 1.020, fig2, "プログレススレッドによる実装のスピードアップは約 1.020"},
		{32, TCC, 1.271, fig2, "ノード数 32におけるスピードアップが約 1.271"},
	}
}

// PaperSpeedupOf is the paper's speedup of m on nodes nodes, if it states
// one.
func PaperSpeedupOf(nodes int, m Method) (PaperSpeedup, bool) {
	for _, s := range PaperSpeedups() {
		if s.Nodes == nodes && s.Method == m {
			return s, true
		}
	}
	return PaperSpeedup{}, false
}

// PaperSetup is the setup of the paper's figure for nodes nodes
// (Paper2Nodes for 2, Paper32Nodes for 32) with method m; false for any
// other node count.
func PaperSetup(nodes int, m Method) (Params, bool) {
	switch nodes {
	case 2:
		return Paper2Nodes(m), true
	case 32:
		return Paper32Nodes(m), true
	}
	return Params{}, false
}
