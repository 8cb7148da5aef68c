package topology

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMeasureRTTPinned pins the first draws so that native and js/wasm runs
// (this test runs under both) stay bit-identical. Do not edit: a change
// here changes every seeded result.
func TestMeasureRTTPinned(t *testing.T) {
	tr, _ := Generate(2, 2, 2)
	got := MeasureRTT(tr, DefaultNet(), rand.New(rand.NewPCG(1, 2)))
	want := [][]float64{
		{0, 61.1235107530601, 70.66103751682782, 70.35795530381304},
		{61.454982360325026, 0, 70.66683365856196, 70.16205445301529},
		{70.07281759834936, 70.15154380280093, 0, 60.79688281482331},
		{70.65930080742058, 70.02956874882128, 63.5051616841617, 0},
	}
	for u := range want {
		for v := range want[u] {
			if got[u][v] != want[u][v] {
				t.Errorf("rtt[%d][%d] = %v, want %v", u, v, got[u][v], want[u][v])
			}
		}
	}
}

// Noise-free RTT is base + hop latency × hops; with noise every entry lies
// above it, and more pings bring the minimum closer.
func TestMeasureRTTModel(t *testing.T) {
	tr, _ := Generate(3, 2, 3)
	n := DefaultNet()
	n.Noise = 0
	rtt := MeasureRTT(tr, n, rand.New(rand.NewPCG(1, 1)))
	if rtt[0][1] != 60 || rtt[0][3] != 70 || rtt[0][6] != 80 || rtt[0][0] != 0 {
		t.Errorf("noise-free RTTs %v %v %v, want 60 70 80", rtt[0][1], rtt[0][3], rtt[0][6])
	}
	mean := func(pings int) float64 {
		n := DefaultNet()
		n.Pings = pings
		r := MeasureRTT(tr, n, rand.New(rand.NewPCG(5, 5)))
		s, k := 0.0, 0
		for u := range r {
			for v := range r {
				if u != v {
					if d := r[u][v] - n.RTT(tr, u, v); d < 0 {
						t.Fatalf("measured below the noise-free RTT")
					} else {
						s += d
						k++
					}
				}
			}
		}
		return s / float64(k)
	}
	// Minimum of p exponentials of mean 2 has mean 2/p.
	if m1, m5 := mean(1), mean(5); math.Abs(m1-2) > 0.4 || math.Abs(m5-0.4) > 0.1 {
		t.Errorf("mean extra delay %v (1 ping), %v (5 pings); want ≈ 2, 0.4", m1, m5)
	}
}

func TestInterferes(t *testing.T) {
	tr, _ := Generate(3, 2, 2) // leaves 3,4 under 1; 5,6 under 2
	for _, c := range []struct {
		a, b, c, d int
		want       bool
	}{
		{0, 2, 4, 6, false}, // within switch 1's and 2's subtrees
		{0, 4, 2, 6, true},  // both cross the root: links 1 and 2
		{0, 4, 6, 7, false}, // 6-7 stay on their leaf switch
		{0, 2, 1, 3, true},  // links 3 and 4 on both
		{0, 1, 2, 3, false},
		{0, 2, 0, 4, true}, // node 0's own link
		{0, 0, 1, 2, false},
	} {
		if got := Interferes(tr, c.a, c.b, c.c, c.d); got != c.want {
			t.Errorf("Interferes(%d,%d,%d,%d) = %v, want %v", c.a, c.b, c.c, c.d, got, c.want)
		}
		ab, cd := Throughput(tr, DefaultNet(), c.a, c.b, c.c, c.d)
		if want := map[bool]float64{false: 125, true: 62.5}[c.want]; ab != want || cd != want {
			t.Errorf("Throughput = %v, %v; want %v", ab, cd, want)
		}
	}
}

func TestNetValidate(t *testing.T) {
	if err := DefaultNet().Validate(); err != nil {
		t.Fatal(err)
	}
	n := DefaultNet()
	n.Pings = 0
	if err := n.Validate(); err == nil {
		t.Error("pings 0 accepted")
	}
	n = DefaultNet()
	n.Noise = math.NaN()
	if err := n.Validate(); err == nil {
		t.Error("noise NaN accepted")
	}
}
