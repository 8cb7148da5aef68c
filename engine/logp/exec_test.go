package logp

import (
	"math"
	"testing"
)

// A hand-checked ping-pong: 0 computes 3, sends to 1; 1 receives, computes
// 2, sends back; 0 receives. L=10, o=1: send [3,4], arrive 14, recv
// [14,15], compute [15,17], send [17,18], arrive 28, recv [28,29].
func TestPingPong(t *testing.T) {
	b := NewBuilder(2)
	c0 := b.Compute(0, 3, 0)
	s0 := b.Send(0, 1, 1, 0, c0)
	r1 := b.Recv(1, s0, 0, s0)
	c1 := b.Compute(1, 2, 1, r1)
	s1 := b.Send(1, 0, 1, 1, c1)
	b.Recv(0, s1, 1, s0)
	prog, err := b.Program()
	if err != nil {
		t.Fatal(err)
	}
	var e Executor
	got := e.Run(prog, Machine{L: 10, O: 1, Gap: 1}, Noise{})
	if got != 29 {
		t.Fatalf("T = %g, want 29", got)
	}
	want := [][2]float64{{0, 3}, {3, 4}, {14, 15}, {15, 17}, {17, 18}, {28, 29}}
	for i, w := range want {
		if e.Start(i) != w[0] || e.End(i) != w[1] {
			t.Errorf("op %d: [%g, %g], want %v", i, e.Start(i), e.End(i), w)
		}
	}
	if e.Arrive(int(s1)) != 28 {
		t.Errorf("second message arrives %g, want 28", e.Arrive(int(s1)))
	}
}

// The gap separates consecutive sends even when the CPU is free: g = 5,
// o = 1, three sends from 0 start at 0, 5, 10. LogGP: a 4-byte message
// with G = 2 arrives o + 3G + L after its start and holds the next send
// off g + 3G.
func TestGapAndLogGP(t *testing.T) {
	b := NewBuilder(4)
	var sends []int32
	for j := 1; j < 4; j++ {
		sends = append(sends, b.Send(0, j, 1, 0))
	}
	for j, s := range sends {
		b.Recv(j+1, s, 0)
	}
	prog, err := b.Program()
	if err != nil {
		t.Fatal(err)
	}
	var e Executor
	T := e.Run(prog, Machine{L: 10, O: 1, Gap: 5}, Noise{})
	for k, s := range sends {
		if e.Start(int(s)) != float64(5*k) {
			t.Errorf("send %d starts at %g, want %d", k, e.Start(int(s)), 5*k)
		}
	}
	if T != 10+1+10+1 {
		t.Errorf("T = %g, want 22", T)
	}

	b = NewBuilder(2)
	s1 := b.Send(0, 1, 4, 0)
	s2 := b.Send(0, 1, 1, 0)
	b.Recv(1, s1, 0)
	b.Recv(1, s2, 0)
	prog, err = b.Program()
	if err != nil {
		t.Fatal(err)
	}
	e.Run(prog, Machine{L: 10, O: 1, Gap: 1, PerByte: 2}, Noise{})
	if e.Arrive(int(s1)) != 1+6+10 {
		t.Errorf("long message arrives %g, want 17", e.Arrive(int(s1)))
	}
	if e.Start(int(s2)) != 1+6 {
		t.Errorf("send after a long message starts %g, want 7", e.Start(int(s2)))
	}
}

// One op at a time per CPU: two computes ready at 0 on one processor run
// one after the other, in op order.
func TestOneOpPerCPU(t *testing.T) {
	b := NewBuilder(1)
	b.Compute(0, 2, 0)
	b.Compute(0, 3, 0)
	prog, err := b.Program()
	if err != nil {
		t.Fatal(err)
	}
	var e Executor
	if T := e.Run(prog, Machine{}, Noise{}); T != 5 || e.Start(1) != 2 {
		t.Fatalf("T = %g, second starts %g; want 5, 2", T, e.Start(1))
	}
}

func TestBuilderErrors(t *testing.T) {
	cases := map[string]func(b *Builder){
		"unreceived": func(b *Builder) { b.Send(0, 1, 1, 0) },
		"self send":  func(b *Builder) { b.Send(0, 0, 1, 0) },
		"bad dep":    func(b *Builder) { b.Compute(0, 1, 0, 5) },
		"bad proc":   func(b *Builder) { b.Compute(7, 1, 0) },
		"neg dur":    func(b *Builder) { b.Compute(0, -1, 0) },
		"recv wrong": func(b *Builder) { s := b.Send(0, 1, 1, 0); b.Recv(0, s, 0) },
		"recv twice": func(b *Builder) { s := b.Send(0, 1, 1, 0); b.Recv(1, s, 0); b.Recv(1, s, 0) },
		"recv non-send": func(b *Builder) {
			c := b.Compute(0, 1, 0)
			b.Recv(1, c, 0)
		},
	}
	for name, f := range cases {
		b := NewBuilder(2)
		f(b)
		if _, err := b.Program(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// The numbers: L = 2500, o = 1500, g = 1000 ns, P = 16 takes 4
// rounds of 2o + L = 22000 ns.
func TestDisseminationBarrier(t *testing.T) {
	m := Machine{L: 2500, O: 1500, Gap: 1000}
	var e Executor
	for _, P := range []int{2, 3, 5, 16, 17, 100, 1024} {
		prog, err := DisseminationBarrier(P)
		if err != nil {
			t.Fatal(err)
		}
		got := e.Run(prog, m, Noise{})
		if want := BarrierTime(P, m); got != want {
			t.Errorf("P=%d: T = %g, want %g", P, got, want)
		}
	}
	if BarrierTime(16, m) != 22000 {
		t.Fatalf("closed form for P=16: %g, want 4·5500 = 22000", BarrierTime(16, m))
	}
}

func TestBinomialBroadcast(t *testing.T) {
	var e Executor
	for _, m := range []Machine{{L: 10, O: 1, Gap: 1}, {L: 10, O: 1, Gap: 4}, {L: 2500, O: 1500, Gap: 1000}, {L: 3, O: 2, Gap: 7}} {
		for _, P := range []int{2, 3, 4, 7, 8, 13, 64, 1000} {
			prog, err := BinomialBroadcast(P)
			if err != nil {
				t.Fatal(err)
			}
			got := e.Run(prog, m, Noise{})
			if want := BroadcastTime(P, m); math.Abs(got-want) > 1e-9 {
				t.Errorf("%+v P=%d: T = %g, want %g", m, P, got, want)
			}
		}
	}
	m := Machine{L: 10, O: 1, Gap: 1}
	if got := BroadcastTime(8, m); got != 3*12 {
		t.Fatalf("P=8: closed form %g, want 3(L+2o) = 36", got)
	}
}

// RunOrdered agrees with the event-driven Run on programs whose ops are
// chained per processor.
func TestRunOrderedMatchesRun(t *testing.T) {
	m := Machine{L: 2500, O: 1500, Gap: 1000}
	var e1, e2 Executor
	for _, P := range []int{5, 16, 33} {
		for _, mk := range []func(int) (*Program, error){DisseminationBarrier, BinomialBroadcast} {
			prog, _ := mk(P)
			a, b := e1.Run(prog, m, Noise{}), e2.RunOrdered(prog, m, Noise{})
			if a != b {
				t.Fatalf("P=%d: Run %g, RunOrdered %g", P, a, b)
			}
			for i := range prog.Ops {
				if e1.Start(i) != e2.Start(i) {
					t.Fatalf("P=%d op %d: start %g vs %g", P, i, e1.Start(i), e2.Start(i))
				}
			}
		}
	}
}

func TestCollectiveRange(t *testing.T) {
	for _, P := range []int{-1, 0, 1, MaxCollectiveP + 1} {
		if _, err := DisseminationBarrier(P); err == nil {
			t.Errorf("P=%d accepted", P)
		}
	}
}

func BenchmarkExecutor(b *testing.B) {
	m := Machine{L: 2500, O: 1500, Gap: 1000}
	for _, c := range []struct {
		name string
		mk   func(int) (*Program, error)
		P    int
	}{{"barrier/P=1024", DisseminationBarrier, 1024}, {"broadcast/P=4096", BinomialBroadcast, 4096}, {"barrier/P=65536", DisseminationBarrier, 65536}} {
		prog, err := c.mk(c.P)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			var e Executor
			e.Run(prog, m, Noise{})
			for b.Loop() {
				e.Run(prog, m, Noise{})
			}
			b.ReportMetric(float64(len(prog.Ops))*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
		b.Run(c.name+"/ordered", func(b *testing.B) {
			var e Executor
			for b.Loop() {
				e.RunOrdered(prog, m, Noise{})
			}
			b.ReportMetric(float64(len(prog.Ops))*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}
