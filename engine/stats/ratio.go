package stats

import (
	"fmt"
	"math"
)

// Paired keeps running means, variances and the covariance of pairs
// (x, y) — the two sides of a comparison under common random numbers,
// such as the proposed and the conventional time of one trial — by
// Welford's update. The zero value is empty.
type Paired struct {
	n        int
	mx, my   float64
	sxx, syy float64 // Σ (x − mx)², Σ (y − my)²
	sxy      float64 // Σ (x − mx)(y − my)
}

// Add takes one pair.
func (p *Paired) Add(x, y float64) {
	p.n++
	n := float64(p.n)
	dx := x - p.mx
	p.mx += dx / n
	dy := y - p.my
	p.my += dy / n
	p.sxx += float64(dx * (x - p.mx))
	p.syy += float64(dy * (y - p.my))
	p.sxy += float64(dx * (y - p.my))
}

// N is the number of pairs.
func (p *Paired) N() int { return p.n }

// MeanX and MeanY are the two means.
func (p *Paired) MeanX() float64 { return p.mx }
func (p *Paired) MeanY() float64 { return p.my }

// moments returns the sample variances and covariance (n − 1 in the
// denominator) after checking there are two pairs and a mean of y to
// divide by.
func (p *Paired) moments(method string) (vx, vy, cxy float64, err error) {
	if p.n < 2 {
		return 0, 0, 0, fmt.Errorf("stats: a %s interval for a ratio needs at least 2 pairs, got %d", method, p.n)
	}
	if p.my == 0 {
		return 0, 0, 0, fmt.Errorf("stats: a %s interval for a ratio: the denominator's mean is 0", method)
	}
	m := float64(p.n - 1)
	return p.sxx / m, p.syy / m, p.sxy / m, nil
}

// Ratio is the 95 % interval of mean(x)/mean(y) by the delta method:
// R ± t(0.975, n−1)·SE with SE² = (s²x − 2R·sxy + R²·s²y)/(n·ȳ²), the
// first-order variance of the ratio of two correlated means. Common random
// numbers make sxy large and the interval far narrower than the two
// means' own. It is symmetric and assumes ȳ stays well away from 0; where
// it does not, Fieller's interval is the honest one.
func (p *Paired) Ratio() (Interval, error) {
	vx, vy, cxy, err := p.moments(MethodDelta)
	if err != nil {
		return Interval{}, err
	}
	r := p.mx / p.my
	v := (vx - float64(2*float64(r*cxy)) + float64(float64(r*r)*vy)) / float64(float64(p.my*p.my)*float64(p.n))
	h := float64(tq975(p.n-1) * math.Sqrt(max(v, 0)))
	return Interval{Mean: r, N: p.n, Lo: r - h, Hi: r + h, Level: Level, Method: MethodDelta}.finite()
}

// Fieller is the 95 % interval of mean(x)/mean(y) by Fieller's theorem:
// the ρ for which mean(x) − ρ·mean(y) is not distinguishable from 0 by a
// t test, {ρ : (x̄ − ρȳ)² ≤ t²·(s²x − 2ρ·sxy + ρ²·s²y)/n}. It is exact for
// normal means, asymmetric where the ratio is, and bounded only when ȳ is
// itself distinguishable from 0 (t²·s²y/n < ȳ²); otherwise it is an error.
func (p *Paired) Fieller() (Interval, error) {
	vx, vy, cxy, err := p.moments(MethodFieller)
	if err != nil {
		return Interval{}, err
	}
	t := tq975(p.n - 1)
	k := float64(t*t) / float64(p.n)
	// a·ρ² + b·ρ + c ≤ 0
	a := float64(p.my*p.my) - float64(k*vy)
	b := -2 * (float64(p.mx*p.my) - float64(k*cxy))
	c := float64(p.mx*p.mx) - float64(k*vx)
	if a <= 0 {
		return Interval{}, fmt.Errorf("stats: Fieller interval of %d pairs is unbounded: the denominator's mean %g is not distinguishable from 0 (half-width %g)", p.n, p.my, math.Sqrt(k*vy))
	}
	disc := float64(b*b) - float64(4*float64(a*c))
	// The estimate x̄/ȳ lies inside (the quadratic is −k·(…) ≤ 0 there),
	// so with a > 0 the roots are real; rounding may leave disc a hair
	// below 0 when the data have no spread.
	sq := math.Sqrt(max(disc, 0))
	// The two roots without cancellation (Numerical Recipes §5.6).
	qq := -(b + math.Copysign(sq, b)) / 2
	r1, r2 := qq/a, c/qq
	if qq == 0 {
		r1, r2 = 0, 0
	}
	r := p.mx / p.my
	return Interval{Mean: r, N: p.n, Lo: min(r1, r2, r), Hi: max(r1, r2, r), Level: Level, Method: MethodFieller}.finite()
}

// RatioDelta is the delta-method interval (Paired.Ratio) of
// mean(num)/mean(den) over pairs (num[i], den[i]).
func RatioDelta(num, den []float64) (Interval, error) {
	p, err := pairs(num, den)
	if err != nil {
		return Interval{}, err
	}
	return p.Ratio()
}

// Fieller is Fieller's interval (Paired.Fieller) of mean(num)/mean(den)
// over pairs (num[i], den[i]).
func Fieller(num, den []float64) (Interval, error) {
	p, err := pairs(num, den)
	if err != nil {
		return Interval{}, err
	}
	return p.Fieller()
}

func pairs(num, den []float64) (Paired, error) {
	var p Paired
	if len(num) != len(den) {
		return p, fmt.Errorf("stats: a paired ratio needs as many denominators as numerators, got %d and %d", len(den), len(num))
	}
	for i := range num {
		p.Add(num[i], den[i])
	}
	return p, nil
}
