package detmath

import "math"

// Exp is e^x with the same bits on every GOARCH, within 2 ulps of
// math.Exp; it overflows to +Inf above 709.78 and underflows to 0 below
// −745.13, as math.Exp does.
//
// It reduces x = k·ln 2 + r with |r| ≤ ½ln 2 (k·ln2hi is exact: ln2hi has
// 21 trailing zero bits) and sums the Taylor series of e^r to r^17/17!,
// whose remainder is below 1e-24; math.Ldexp scales by 2^k exactly (and
// rounds once into the subnormal range).
func Exp(x float64) float64 {
	const (
		ln2hi = 6.93147180369123816490e-01
		ln2lo = 1.90821492927058770002e-10
		log2e = 1.44269504088896338700e+00
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x > 709.782712893384:
		return math.Inf(1)
	case x < -745.1332191019412:
		return 0
	}
	k := math.Floor(float64(x*log2e) + 0.5)
	r := float64(x-float64(k*ln2hi)) - float64(k*ln2lo)
	p := invFact[17]
	for i := 16; i >= 0; i-- {
		p = float64(p*r) + invFact[i]
	}
	return math.Ldexp(p, int(k))
}

// invFact[i] is 1/i!, each rounded once from the exact constant (a
// literal, so no init code reaches the wasm).
var invFact = [18]float64{
	1, 1, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320,
	1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800,
	1.0 / 87178291200, 1.0 / 1307674368000, 1.0 / 20922789888000, 1.0 / 355687428096000,
}

// Log1p is ln(1 + u) for u > −1, within 3 ulps of math.Log1p: accurate
// for small u, where Log(1+u) would lose the bits of u that 1 + u rounds
// away. Near 0 it is the series 2·atanh(u/(2+u)), whose argument carries
// one rounding; elsewhere, with w = 1 + u rounded, ln(1+u) = ln w +
// (u − (w − 1))/w to first order, the correction restoring what the
// rounding took (Goldberg 1991, theorem 4).
func Log1p(u float64) float64 {
	if u > -0.29 && u < 0.41 { // |u/(2+u)| ≤ 0.1716, atanh2's range
		return atanh2(u / (2 + u))
	}
	w := 1 + u
	return Log(w) + (u-(w-1))/w
}
