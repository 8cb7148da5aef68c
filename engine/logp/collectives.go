package logp

import (
	"fmt"
	"math/bits"

	"commlab/engine/param"
)

// MaxCollectiveP bounds the processor count of the standard collectives.
const MaxCollectiveP = 1 << 20

func checkCollectiveP(P int) error {
	if P < 2 || P > MaxCollectiveP {
		return &param.Error{Field: "P", Value: fmt.Sprint(P), Want: fmt.Sprintf("an integer in [2, %d]", MaxCollectiveP)}
	}
	return nil
}

// rounds is ⌈log2 P⌉.
func rounds(P int) int { return bits.Len(uint(P - 1)) }

// BinomialBroadcast is the binomial-tree broadcast from processor 0: in
// round k every processor i < 2^k that holds the message sends it to
// i + 2^k (if < P). Each processor sends greedily, as soon as it has
// received and its CPU and gap allow; no round barrier.
func BinomialBroadcast(P int) (*Program, error) {
	if err := checkCollectiveP(P); err != nil {
		return nil, err
	}
	b := NewBuilder(P)
	last := make([]int32, P) // each processor's last op, chained
	for i := range last {
		last[i] = -1
	}
	dep := func(i int) []int32 {
		if last[i] < 0 {
			return nil
		}
		return []int32{last[i]}
	}
	for k := range rounds(P) {
		for i := 0; i < 1<<k && i+1<<k < P; i++ {
			j := i + 1<<k
			s := b.Send(i, j, 1, k, dep(i)...)
			last[i] = s
			last[j] = b.Recv(j, s, k, s)
		}
	}
	return b.Program()
}

// BroadcastTime is the closed form of BinomialBroadcast when max(o, g) ≤
// L + 2o: processor j, with m one-bits of which the highest is bit b, is
// reached along the path that adds its bits low to high; every hop costs
// a send, the flight and a receive (L + 2o), and a sender's r-th send
// starts (r-1)·max(o, g) after its first, which adds up to (b - m + 1)
// sends of delay. The broadcast ends at the maximum over j < P; for
// P = 2^k that is j = P - 1 and T = k(L + 2o).
func BroadcastTime(P int, m Machine) float64 {
	s := max(m.O, m.Gap)
	var t float64
	for j := 1; j < P; j++ {
		ones := bits.OnesCount(uint(j))
		high := bits.Len(uint(j)) - 1
		t = max(t, float64(high-ones+1)*s+float64(ones)*(m.L+2*m.O))
	}
	return t
}

// DisseminationBarrier is the dissemination barrier (Hensgen, Finkel,
// Manber 1988): in round k processor i sends to (i + 2^k) mod P and
// receives from (i - 2^k) mod P, and starts round k+1 once both are done.
func DisseminationBarrier(P int) (*Program, error) {
	if err := checkCollectiveP(P); err != nil {
		return nil, err
	}
	b := NewBuilder(P)
	prev := make([]int32, P)
	send := make([]int32, P)
	for k := range rounds(P) {
		d := 1 << k
		for i := range P {
			if k == 0 {
				send[i] = b.Send(i, (i+d)%P, 1, k)
			} else {
				send[i] = b.Send(i, (i+d)%P, 1, k, prev[i])
			}
		}
		for i := range P {
			from := (i - d%P + P) % P
			prev[i] = b.Recv(i, send[from], k, send[i])
		}
	}
	return b.Program()
}

// BarrierTime is the closed form of DisseminationBarrier when g ≤ L + 2o:
// every round is a send (o), a flight (L) and a receive (o), all
// processors in lockstep, so T = ⌈log2 P⌉·(L + 2o).
func BarrierTime(P int, m Machine) float64 {
	return float64(rounds(P)) * (m.L + 2*m.O)
}
