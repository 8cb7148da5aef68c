package detmath

import "math"

// Log is the natural logarithm of a positive finite x (normal or
// subnormal), within 2 ulps of math.Log and with the same bits on every
// GOARCH. x ≤ 0, +Inf and NaN are not in its domain: the samplers call it
// on uniforms in (0, 1].
//
// It splits x = m·2^e exactly (math.Frexp), moves m into [√½, √2), and sums
// the series ln m = 2·atanh(f) = 2f·(1 + f²/3 + f⁴/5 + …) with
// f = (m−1)/(m+1), |f| ≤ 0.1716: 12 terms leave an error below 1e-17.
// e·ln 2 is added in two parts (ln2hi has trailing zero bits, so e·ln2hi is
// exact) to keep the sum's rounding at the end.
func Log(x float64) float64 {
	m, e := math.Frexp(x) // x = m·2^e, m in [0.5, 1)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	const ln2hi, ln2lo = 6.93147180369123816490e-01, 1.90821492927058770002e-10
	fe := float64(e)
	return float64(fe*ln2hi) + (float64(fe*ln2lo) + atanh2((m-1)/(m+1)))
}

// atanh2 is 2·atanh(f) = ln((1+f)/(1−f)) for |f| ≤ 0.1716, by the series
// 2f·(1 + f²/3 + f⁴/5 + … + f²²/23), whose remainder is below 1e-17.
func atanh2(f float64) float64 {
	s := float64(f * f)
	// Horner for 1 + s/3 + s²/5 + … + s^11/23.
	p := 1.0 / 23
	for k := 21; k >= 1; k -= 2 {
		p = float64(p*s) + 1/float64(k)
	}
	return float64(float64(2*f) * p)
}
