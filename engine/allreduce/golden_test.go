package allreduce

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current code")

// gcase is one pinned run.
type gcase struct {
	Name   string   `json:"name"`
	Params Params   `json:"params"`
	Seed   uint64   `json:"seed"`
	ByT    []string `json:"by_T"` // exact: strconv 'g' -1 round-trips every bit
}

// goldenCases are the pinned runs, each from Default() edited.
func goldenCases() []gcase {
	mk := func(name string, edit func(*Params)) gcase {
		p := Default()
		edit(&p)
		return gcase{Name: name, Params: p}
	}
	return []gcase{
		mk("paper defaults P=4096", func(p *Params) {}),
		mk("P=2", func(p *Params) { p.P, p.T = 2, 1 }),
		mk("OS jitter only, P=256", func(p *Params) { p.P, p.T, p.NetNoise = 256, 8, false }),
		mk("network noise only, long messages", func(p *Params) { p.P, p.T, p.OSJitter, p.N = 256, 8, false, 1e6 }),
		mk("co-scheduled, P=1024", func(p *Params) { p.P, p.T, p.CoScheduled = 1024, 10, true }),
		mk("set C heavy jitter, P=512", func(p *Params) { p.P, p.T, p.Duration = 512, 9, 1e-4 }),
		mk("send overhead, P=64", func(p *Params) { p.P, p.T, p.SendOverhead = 64, 6, 2e-7 }),
		mk("two blocking passes, P=2^15", func(p *Params) { p.P, p.T = 1<<15, 15 }),
		mk("network wait 1/period, long messages", func(p *Params) { p.P, p.T, p.N, p.NetWait = 256, 8, 1e6, WaitInverse }),
		mk("fewer exchanges than stages, P=4096 T=3", func(p *Params) { p.T = 3 }),
	}
}

// TestGolden pins seeded outputs. `make test` runs it natively and under
// js/wasm (node), so both must produce these exact bits: that is what lets a
// browser scene and a report agree on a seed. Refresh with -update only for
// a deliberate model change, never by hand.
func TestGolden(t *testing.T) {
	checkGolden(t, "butterfly.golden", goldenCases())
}

// TestGoldenStationary pins the same runs with os_phase=stationary. Its
// first eight cases are the model before os_phase existed: when the option
// was added their by_T were checked to be bit for bit the previous
// butterfly.golden's, so the option keeps the old model exactly.
func TestGoldenStationary(t *testing.T) {
	cases := goldenCases()
	for i := range cases {
		cases[i].Name += ", stationary"
		cases[i].Params.OSPhase = PhaseStationary
	}
	checkGolden(t, "butterfly_stationary.golden", cases)
}

// TestGoldenCompute pins the same runs with os_hits=compute (OS jitter
// only while a process reduces).
func TestGoldenCompute(t *testing.T) {
	cases := goldenCases()
	for i := range cases {
		cases[i].Name += ", compute"
		cases[i].Params.OSHits = HitsCompute
	}
	checkGolden(t, "butterfly_compute.golden", cases)
}

func checkGolden(t *testing.T, file string, cases []gcase) {
	t.Helper()
	var s Simulator
	for i := range cases {
		c := &cases[i]
		c.Seed = uint64(100 + i)
		r, err := s.Run(c.Params, rand.New(rand.NewPCG(c.Seed, 0)), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for _, v := range r.ByT {
			c.ByT = append(c.ByT, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	got, err := json.MarshalIndent(cases, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", file)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		var w []gcase
		_ = json.Unmarshal(want, &w)
		for i := range min(len(w), len(cases)) {
			if fmt.Sprint(w[i].ByT) != fmt.Sprint(cases[i].ByT) {
				t.Errorf("%s: ByT\n got %v\nwant %v", cases[i].Name, cases[i].ByT, w[i].ByT)
			}
		}
		t.Fatalf("output differs from %s", path)
	}
}
