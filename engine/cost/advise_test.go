package cost

import (
	"strconv"
	"strings"
	"testing"
)

// toy is a model whose memory is 100 bytes per P·N and whose time is N
// jitter windows of 1 ns per (period − duration): the shape of the
// allreduce's cost, small enough to check by hand.
type toy struct{ P, N, period, duration float64 }

func (m toy) cost() Cost {
	c := Cost{Bytes: 100 * m.P * m.N, Seconds: 1e-9 * m.N / (m.period - m.duration)}
	c.Knobs = func() Knobs {
		return Knobs{
			List: []Knob{
				{Key: "P", Now: m.P, Down: true, Min: 2, Max: 1 << 24, Pow2: true},
				{Key: "N", Now: m.N, Down: true, Min: 0, Max: 1e12},
				{Key: "period", Now: m.period, Min: 0, Max: 1e3},
				{Key: "duration", Now: m.duration, Down: true, Min: 1e-300, Max: m.period},
			},
			Cost: func(at []float64) (Cost, bool) {
				n := toy{P: at[0], N: at[1], period: at[2], duration: at[3]}
				if !(n.duration < n.period) {
					return Cost{}, false
				}
				return n.cost(), true
			},
		}
	}
	return c
}

var toyBudget = Budget{Name: "the command", Bytes: 1e9, Seconds: 600, Force: "-force"}

// advised reads "lower K to at most V" / "raise K to at least V" for key.
func advised(msg, key string) (float64, bool) {
	for _, verb := range []string{"lower " + key + " to at most ", "raise " + key + " to at least "} {
		if _, rest, ok := strings.Cut(msg, verb); ok {
			f := strings.FieldsFunc(rest, func(r rune) bool { return r == ' ' || r == ';' || r == ')' })
			v, err := strconv.ParseFloat(f[0], 64)
			return v, err == nil
		}
	}
	return 0, false
}

// TestAdviceFits: every value a refusal advises brings the run within the
// budget when set, and a value a little nearer the refused one would not;
// a parameter whose whole range does not fit is not named.
func TestAdviceFits(t *testing.T) {
	for _, m := range []toy{
		{P: 64, N: 1e9, period: 1e-6, duration: 1e-7},              // both over
		{P: 64, N: 1e5, period: 1e-3, duration: 0.000999999999999}, // the windows, not the processes
		{P: 1 << 20, N: 1e4, period: 1e-3, duration: 1e-4},         // memory: P or N
		{P: 2, N: 1e8, period: 1e-9, duration: 5e-10},              // P at its floor cannot help
	} {
		c := m.cost()
		err := c.Check(toyBudget)
		if err == nil {
			t.Fatalf("%+v: fits, want a refusal", m)
		}
		msg := err.Error()
		named := 0
		ks := c.Knobs()
		costAt := func(i int, v float64) (Cost, bool) {
			at := []float64{m.P, m.N, m.period, m.duration}
			at[i] = v
			return ks.Cost(at)
		}
		for i, k := range ks.List {
			v, ok := advised(msg, k.Key)
			if !ok {
				continue
			}
			named++
			e, valid := costAt(i, v)
			if !valid || e.Check(toyBudget) != nil {
				t.Errorf("%+v: advises %s = %v, which is refused: %s", m, k.Key, v, msg)
			}
			if v < k.Min || v > k.Max {
				t.Errorf("%+v: advises %s = %v, outside [%v, %v]", m, k.Key, v, k.Min, k.Max)
			}
			// 10 % nearer the refused value no longer fits (the advice
			// is not needlessly far), unless that passes it.
			nearer := v + (k.Now-v)*0.1
			if k.Pow2 {
				nearer = v * 2
			}
			if (k.Down && nearer <= k.Now || !k.Down && nearer >= k.Now) && nearer != v {
				if e, valid := costAt(i, nearer); valid && e.Check(toyBudget) == nil {
					t.Errorf("%+v: advises %s = %v, but %v fits too", m, k.Key, v, nearer)
				}
			}
		}
		if named == 0 && !strings.Contains(msg, "times smaller (no one of P, N, period, duration does it alone") {
			t.Errorf("%+v: names no parameter and does not say so: %s", m, msg)
		}
		if m.P == 2 && strings.Contains(msg, "lower P") {
			t.Errorf("P = 2 (its floor): advises lowering P: %s", msg)
		}
		t.Log(msg)
	}
}

// TestAdviceNamesTheWindows: issue 26's case, duration just under period:
// the cost is the jitter windows, so the advice is duration or period,
// never P (at its floor of 2 it would still be refused).
func TestAdviceNamesTheWindows(t *testing.T) {
	msg := toy{P: 64, N: 1e5, period: 1e-3, duration: 0.000999999999999}.cost().Check(toyBudget).Error()
	for _, want := range []string{"lower duration to at most ", "raise period to at least "} {
		if !strings.Contains(msg, want) {
			t.Errorf("does not say %q: %s", want, msg)
		}
	}
	if strings.Contains(msg, "lower P") {
		t.Errorf("advises P: %s", msg)
	}
}

// TestAdviceScaledCaller: a caller that multiplies the cost (30 trials of
// one) keeps the model's knobs, and the advice is for the whole: N 30
// times smaller than for one trial.
func TestAdviceScaledCaller(t *testing.T) {
	one := toy{P: 64, N: 1e9, period: 1, duration: 0.5}.cost() // 6.4e12 B
	b := Budget{Name: "the command", Bytes: 1e12}
	all := one
	all.Bytes *= 30
	n1, _ := advised(one.Check(b).Error(), "N")
	n30, _ := advised(all.Check(b).Error(), "N")
	if !(n1 > 0 && n30 > 0) || n1/n30 < 25 || n1/n30 > 35 {
		t.Errorf("N advised %v for one trial, %v for 30: want about 30 times less", n1, n30)
	}
	e, _ := one.Knobs().Cost([]float64{64, n30, 1, 0.5})
	e.Bytes *= 30
	if e.Check(b) != nil {
		t.Errorf("30 trials at N = %v: refused", n30)
	}
}

func TestBisect(t *testing.T) {
	// Integers: the largest n ≤ 1000 with n² ≤ 5000 is 70.
	if v, ok := bisect(0, 1000, func(x float64) bool { return x*x <= 5000 }, true); !ok || v != 70 {
		t.Errorf("whole search: %v, %v; want 70", v, ok)
	}
	// Upwards: the smallest x ≥ 1e-9 with 1/x ≤ 2e5 is 5e-6.
	if v, ok := bisect(1e3, 1e-9, func(x float64) bool { return 1/x <= 2e5 }, false); !ok || v < 5e-6 || v > 5e-6*(1+1e-8) {
		t.Errorf("real search: %v, %v; want 5e-6", v, ok)
	}
	if _, ok := bisect(0, 10, func(float64) bool { return false }, true); ok {
		t.Error("nothing fits: ok")
	}
}
