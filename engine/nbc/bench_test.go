package nbc

import "testing"

// BenchmarkRun is one Run (the case, its communication alone and its
// baseline): the cost of one point of the report's sweeps.
func BenchmarkRun(b *testing.B) {
	for _, bc := range []struct {
		name string
		p    func() Params
	}{
		{"tcc-32nodes", func() Params { return Paper32Nodes(TCC) }},
		{"nbcf-test-32nodes", func() Params { return Paper32Nodes(NBCFTest) }},
		{"nbcf-test-master-32nodes", func() Params { p := Paper32Nodes(NBCFTest); p.TestThreads = TestMaster; return p }},
		{"nbcf-test-2nodes", func() Params { return Paper2Nodes(NBCFTest) }},
		{"nbct-interference-2nodes", func() Params { p := Paper2Nodes(NBCT); p.PollInterference = 0.1; return p }},
		{"tcc-32nodes-collectives16", func() Params { p := Paper32Nodes(TCC); p.Collectives = 16; return p }},
		{"nbct-32nodes-collectives16", func() Params { p := Paper32Nodes(NBCT); p.Collectives = 16; return p }},
		{"tcc-32nodes-memory-share", func() Params { p := Paper32Nodes(TCC); p.MemoryShare = true; return p }},
		{"nbct-2nodes-oversubscribed-min-slice", func() Params {
			p := Paper2Nodes(NBCT)
			p.Oversubscribe, p.TimeSlice, p.Msg, p.Matrix = true, MinTimeSlice, 100e6, 40000
			return p
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := bc.p()
			for b.Loop() {
				if _, err := Run(p, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
