package jitter

import (
	"math"
	"slices"
	"testing"
)

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		max    int
		want   []float64
	}{
		{0, 16.05e-6, 4, []float64{0, 5e-6, 10e-6, 15e-6}},
		{0, 16.05e-6, 9, []float64{0, 2e-6, 4e-6, 6e-6, 8e-6, 10e-6, 12e-6, 14e-6, 16e-6}},
		{3.03e-6, 38.03e-6, 3, []float64{10e-6, 20e-6, 30e-6}},
		{0, 173, 4, []float64{0, 50, 100, 150}},
		{0, 3, 8, []float64{0, 0.5, 1, 1.5, 2, 2.5, 3}},
		{5, 5, 3, []float64{5}},
	}
	for _, tc := range tests {
		got, _ := niceTicks(tc.lo, tc.hi, tc.max)
		if len(got) > max(tc.max, 1) || !slices.EqualFunc(got, tc.want, func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }) {
			t.Errorf("niceTicks(%v, %v, %d) = %v, want %v", tc.lo, tc.hi, tc.max, got, tc.want)
		}
	}
	// The first tick of an axis from 0 is +0, never -0 (a "-0 s" label).
	if got, _ := niceTicks(0, 1e-5, 4); math.Signbit(got[0]) {
		t.Error("first tick is -0")
	}
}
