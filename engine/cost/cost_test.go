package cost

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	b := Budget{Name: "the page", Bytes: 500e6, Seconds: 2, Slowdown: 4, Force: "-force"}
	c := Cost{Bytes: 100e6, Seconds: 0.4, Why: "P = 64 with N = 8 updates about 768 process-stages",
		Fit: func(over float64) string { return "lower P" }}
	if err := c.Check(b); err != nil {
		t.Errorf("100 MB, 0.4 s × 4 under 500 MB, 2 s: %v", err)
	}
	c.Seconds = 0.6 // × 4 = 2.4 s
	err := c.Check(b)
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("0.6 s × 4 over 2 s: %v, want an *Error", err)
	}
	if ce.Over != 1.2 {
		t.Errorf("Over = %v, want 1.2", ce.Over)
	}
	want := "P = 64 with N = 8 updates about 768 process-stages (≈ 2.4 s of engine time, over the page's 2 s); lower P (-force runs it anyway)"
	if err.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", err, want)
	}
	c.Bytes, c.Fit = 40e9, nil
	if msg := c.Check(b).Error(); !strings.Contains(msg, "≈ 40 GB, over the page's 500 MB") || !strings.Contains(msg, "make it about 80 times smaller") {
		t.Errorf("memory over: %s", msg)
	}
	if err := (Cost{Bytes: math.NaN()}).Check(b); err == nil {
		t.Error("NaN bytes: accepted, want refused")
	}
	if err := (Cost{Bytes: 1e30, Seconds: math.Inf(1)}).Check(Unlimited); err != nil {
		t.Errorf("Unlimited refused: %v", err)
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Num(64), "64"}, {Num(0.001), "0.001"}, {Num(1e-6), "1e-6"}, {Num(1.94e-4), "1.9e-4"},
		{Num(9e8), "9e8"}, {Num(4.27e7), "4.3e7"}, {Num(5120), "5120"}, {Num(1000), "1000"}, {Num(0), "0"},
		{numDigits(1234, 2), "1234"}, {numDigits(1200, 2), "1200"}, {numDigits(0.00099999999, 5), "1e-3"},
		{numDigits(0.000999999999377, 12), "9.99999999377e-4"}, {numDigits(1.0069e-6, 5), "1.0069e-6"}, {numDigits(12.5, 2), "12"},
		{numDigits(0.0011, 2), "0.0011"}, {numDigits(4.25e8, 3), "4.25e8"},
		{Bytes(512), "512 B"}, {Bytes(40e9), "40 GB"}, {Bytes(6.62e9), "6.62 GB"}, {Bytes(1e30), "more than 1e24 B"},
		{Duration(0.8), "0.8 s"}, {Duration(25 * 60), "25 min"}, {Duration(3 * 3600), "3 h"}, {Duration(1e13), "more than 1e12 s"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestScale(t *testing.T) {
	// A cost linear in N, 10 times over: N shrinks 11 times (10 % margin);
	// quadratic in P: P shrinks by √11.
	if s := Scale(10, 1); math.Abs(s-11) > 1e-12 {
		t.Errorf("Scale(10, 1) = %v, want 11", s)
	}
	if s := Scale(10, 2); math.Abs(s-math.Sqrt(11)) > 1e-12 {
		t.Errorf("Scale(10, 2) = %v, want √11", s)
	}
}

func TestAdd(t *testing.T) {
	a := Cost{Events: 1, Spans: 2, Bytes: 10, Seconds: 1}
	b := Cost{Events: 3, Spans: 4, Bytes: 5, Seconds: 2}
	if got := a.Add(b); got.Events != 4 || got.Spans != 6 || got.Bytes != 10 || got.Seconds != 3 {
		t.Errorf("Add = %+v", got)
	}
}
