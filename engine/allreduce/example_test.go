package allreduce_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"commlab/engine/allreduce"
)

// One trial of the paper's default point: the conventional butterfly and
// the time with T = 1..K redundant exchanges, from one pass.
func ExampleSimulator_Run() {
	p := allreduce.Default()
	p.P, p.T = 1024, 10
	var s allreduce.Simulator
	r, err := s.Run(p, rand.New(rand.NewPCG(1, 2)), nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("no jitter    %.3g s\n", p.NoJitterTime())
	fmt.Printf("conventional %.3g s\n", r.Conventional())
	fmt.Printf("T = 10       %.3g s\n", r.ByT[10])
	// Output:
	// no jitter    1.01e-05 s
	// conventional 2.96e-05 s
	// T = 10       1.88e-05 s
}

// FuzzParamsJSON: whatever JSON decodes into Params and validates survives
// an encode/decode round trip unchanged (the URL and the CLI use the same
// names).
func FuzzParamsJSON(f *testing.F) {
	b, _ := json.Marshal(allreduce.Default())
	f.Add(b)
	f.Add([]byte(`{"P":8,"alpha":1e-7,"period":0.01,"duration":1e-4,"T":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var p allreduce.Params
		if json.Unmarshal(data, &p) != nil || p.Validate() != nil {
			return
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var q allreduce.Params
		if err := json.Unmarshal(b, &q); err != nil || q != p {
			t.Fatalf("round trip: %+v -> %s -> %+v (%v)", p, b, q, err)
		}
	})
}
