package nbc

import (
	enbc "commlab/engine/nbc"
	"commlab/scene"
)

// PaperPoint shows the paper's overlap speedups (Section V) when the
// values are the setup of its Fig. 1 or 2: 2 nodes, 5 MB, 4,000 × 4,000,
// or 32 nodes, 500 KB, 30,000 × 30,000, with one collective, 16 cores, the
// progress thread on its own core and a progress call every outer-loop
// iteration, every other model constant the engine's default. The queue
// may be any size: one collective never fills it (TestPaperPointQueue).
// The scene runs TCC and NBCF-ovlp-test, so those two of the paper's
// speedups; its runs are the report's speedup table's, the model with the
// hardware's figures and nothing fitted (scene.PaperPointer).
func (Scene) PaperPoint(v scene.Values, numbers map[string]float64) []scene.PaperNumber {
	tcc, _, err := Params(v)
	if err != nil {
		return nil
	}
	set, ok := enbc.PaperSetup(tcc.Nodes, enbc.TCC)
	if !ok {
		return nil
	}
	tcc.QueueCap = set.QueueCap
	if tcc != set {
		return nil
	}
	const note = "commlab: the model with the hardware's own figures, nothing fitted, as in the report's table of overlap speedups (the report also calibrates on 2 nodes and predicts 32)"
	var out []scene.PaperNumber
	for _, c := range []struct {
		m   enbc.Method
		key string
	}{{enbc.TCC, "speedup"}, {enbc.NBCFTest, "nbcf_speedup"}} {
		s, ok := enbc.PaperSpeedupOf(set.Nodes, c.m)
		ours, have := numbers[c.key]
		if !ok || !have {
			continue
		}
		out = append(out, scene.PaperNumber{
			What:  c.m.PaperName() + ": overlap speedup over " + c.m.Baseline().PaperName(),
			Paper: s.Speedup, Source: s.Source, Ours: ours,
			Unit: scene.UnitRatio, Digits: 3, Note: note,
		})
	}
	return out
}
