package stats

import (
	"math"
	"sync/atomic"

	"commlab/engine/detmath"
)

// TQuantile is the p-quantile of Student's t distribution with df degrees
// of freedom, for 0 < p < 1 and df ≥ 1 (NaN outside). It solves
// P(T > t) = 1 − p by Newton's method kept inside a bracket, with the tail
// from the regularized incomplete beta function (tUpper); the result is
// within a few ulps of the exact quantile for df up to 10⁶ (the tests hold
// it to the tables and to the closed forms for 1, 2 and 4 degrees of
// freedom). The work grows as √df.
func TQuantile(p float64, df int) float64 {
	if !(p > 0 && p < 1) || df < 1 {
		return math.NaN()
	}
	if p == 0.5 {
		return 0
	}
	// Solve for the upper tail q < ½ at t > 0; 1 − p is exact for p ≥ ½.
	q, sign := 1-p, 1.0
	if p < 0.5 {
		q, sign = p, -1
	}
	d := newStudent(df)
	lo, hi := 0.0, math.Inf(1)
	t := guessT(q, d.nu)
	for range 200 {
		g := d.upper(t) - q // decreasing in t
		switch {
		case g > 0:
			lo = t
		case g < 0:
			hi = t
		default:
			return sign * t
		}
		step := g / d.pdf(t)
		if math.Abs(step) <= 1e-14*t {
			// The tail's own rounding (a few 1e-17 against q) makes
			// smaller steps noise; Newton's error after this one is
			// of the order of its square.
			return sign * (t + step)
		}
		next := t + step
		switch {
		case next > lo && next < hi:
		case math.IsInf(hi, 1):
			next = 2 * t
		default: // Newton left the bracket: bisect
			next = lo + (hi-lo)/2
		}
		t = next
	}
	return sign * t
}

// guessT starts TQuantile's Newton iteration near the t quantile of upper
// tail q < ½: the normal quantile z by Abramowitz and Stegun 26.2.23
// (error below 4.5e-4), widened by the first terms of the Cornish-Fisher
// expansion in 1/ν (A&S 26.7.5). Far in the tails of few degrees of
// freedom it is poor, and the bracket in TQuantile takes over.
func guessT(q, nu float64) float64 {
	w := math.Sqrt(-2 * detmath.Log(q))
	z := w - (2.515517+float64(0.802853*w)+float64(0.010328*float64(w*w)))/
		(1+float64(1.432788*w)+float64(0.189269*float64(w*w))+float64(0.001308*float64(float64(w*w)*w)))
	z2 := float64(z * z)
	g1 := float64(z*(z2+1)) / 4
	g2 := float64(z*(float64(float64(5*z2+16)*z2)+3)) / 96
	if t := z + g1/nu + g2/float64(nu*nu); t > 0 {
		return t
	}
	return 1
}

// t975 caches TQuantile(0.975, df), which the intervals need at every
// checkpoint of an adaptive sweep: 0 means not computed yet. Concurrent
// callers may both compute an entry; they store the same bits.
var t975 [1 << 12]atomic.Uint64

// tq975 is TQuantile(0.975, df), cached for df below 4,096.
func tq975(df int) float64 {
	if df < 1 || df >= len(t975) {
		return TQuantile(0.975, df)
	}
	if b := t975[df].Load(); b != 0 {
		return math.Float64frombits(b)
	}
	v := TQuantile(0.975, df)
	t975[df].Store(math.Float64bits(v))
	return v
}

// TUpper is P(T > t) for Student's t with df ≥ 1 degrees of freedom,
// within 5e-14 of it, relative, where TestTUpperReference checks it against
// mpmath (from 2 to 10⁶ degrees of freedom, tails down to 4e-5).
func TUpper(t float64, df int) float64 {
	if df < 1 || math.IsNaN(t) {
		return math.NaN()
	}
	if t < 0 {
		return 1 - newStudent(df).upper(-t)
	}
	return newStudent(df).upper(t)
}

// student is Student's t with ν degrees of freedom. c = 1/B(ν/2, ½)
// = Γ((ν+1)/2) / (Γ(ν/2)·√π) is the constant of both the density and the
// incomplete beta's front factor.
type student struct {
	df int
	nu float64
	c  float64
}

func newStudent(df int) student {
	return student{df: df, nu: float64(df), c: invBetaHalf(df)}
}

// invBetaHalf is 1/B(ν/2, ½) = Γ((ν+1)/2) / (Γ(ν/2)·√π) for an integer
// ν ≥ 1, from Γ(x+1) = x·Γ(x): it is 1/π at ν = 1, ½ at ν = 2, and grows
// by (ν+1)/ν from ν to ν+2. Beyond 200 degrees of freedom the product's
// rounding (one per factor) gives way to the asymptotic series of
// Γ(x+½)/Γ(x) at x = ν/2, whose next term is below 1e-17 there.
func invBetaHalf(df int) float64 {
	if df > 200 {
		x := float64(df) / 2
		u := 1 / x
		// Γ(x+½)/Γ(x) = √x·(1 − 1/8x + 1/128x² + 5/1024x³ − 21/32768x⁴
		//                     − 399/262144x⁵ + 869/4194304x⁶ + …)
		s := 869.0 / 4194304
		for _, c := range []float64{-399.0 / 262144, -21.0 / 32768, 5.0 / 1024, 1.0 / 128, -1.0 / 8, 1} {
			s = float64(s*u) + c
		}
		return float64(math.Sqrt(x)*s) / math.Sqrt(math.Pi)
	}
	c, k := 1/math.Pi, 1
	if df%2 == 0 {
		c, k = 0.5, 2
	}
	for ; k < df; k += 2 {
		c = c * float64(k+1) / float64(k)
	}
	return c
}

// lnCos2 is ln x for x = ν/(ν+t²) = cos²θ, as −ln(1 + t²/ν): x itself
// would carry a rounding that the powers x^(ν/2) multiply by ν/2.
func (d student) lnCos2(t float64) float64 {
	return -detmath.Log1p(float64(t*t) / d.nu)
}

// pdf is the density (c/√ν)·x^((ν+1)/2) with x = ν/(ν+t²).
func (d student) pdf(t float64) float64 {
	return d.c / math.Sqrt(d.nu) * detmath.Exp(float64((d.nu+1)/2*d.lnCos2(t)))
}

// upper is P(T > t) for t ≥ 0: ½·I_x(ν/2, ½) with x = ν/(ν+t²) (Abramowitz
// and Stegun 26.7.1 and 26.5.1), from the continued fraction on whichever
// side converges (Numerical Recipes' betai). 1 − x = t²/(ν+t²) is formed
// directly, without the cancellation of 1 − x.
func (d student) upper(t float64) float64 {
	if math.IsInf(t, 1) {
		return 0
	}
	den := d.nu + float64(t*t)
	x, y := d.nu/den, float64(t*t)/den
	a, b := d.nu/2, 0.5
	// front = x^a · y^b / B(a, b)
	front := detmath.Exp(float64(a*d.lnCos2(t))) * (t / math.Sqrt(den)) * d.c
	// Numerical Recipes takes the side where the fraction converges
	// fast. With many degrees of freedom and a moderate t, y is tiny and
	// the fraction on the x side cancels (its error grows as 1e-16/y:
	// 2e-11 at ν = 10⁶, t = 2), while the y side stays within 1e-14 up to
	// t = 2.5 (both checked against mpmath's betainc).
	if x < (a+1)/(a+b+2) && !(y < 0.002 && t <= 2.5) {
		return float64(front*betaCF(a, b, x)) / a / 2
	}
	// I_x(a, b) = 1 − I_y(b, a); halved, with b = ½: ½ − front·cf.
	return 0.5 - float64(front*betaCF(b, a, y))
}

// betaCF evaluates the continued fraction of the incomplete beta function
// I_x(a, b) by the modified Lentz method (Numerical Recipes §6.4). It
// converges in O(√max(a, b)) steps for x < (a+1)/(a+b+2).
func betaCF(a, b, x float64) float64 {
	const tiny, eps = 1e-300, 4e-16 // eps: within 2 ulps of 1
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-float64(qab*x)/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	// step takes one partial numerator aa into c and d and returns the
	// factor of h. The product is converted: del − 1 below must not fuse.
	step := func(aa float64) float64 {
		d = 1 + float64(aa*d)
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		return float64(d * c)
	}
	for m := 1; m < 1_000_000; m++ {
		fm := float64(m)
		m2 := 2 * fm
		h *= step(float64(float64(fm*(b-fm))*x) / float64((qam+m2)*(a+m2)))
		del := step(-float64(float64((a+fm)*(qab+fm))*x) / float64((a+m2)*(qap+m2)))
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}
