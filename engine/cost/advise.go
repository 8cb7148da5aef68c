package cost

import (
	"math"
	"strconv"
	"strings"
)

// Knob is one parameter a refusal may advise moving. Check's message names
// every knob that, moved alone within its range, brings the run within the
// budget, at the value nearest the refused one that does, found by
// searching the model's estimate itself (Knobs.Cost); when none does
// without going to the end of its range, it names a pair moved together.
// A value the parameter cannot take, or one that would still be refused,
// is never advised.
type Knob struct {
	Key string  // the parameter as the user writes it: "P", "period", "-fps"
	Now float64 // its value in the refused run
	// Down: lowering the parameter lowers the cost ("lower P to at most
	// 16"); otherwise raising it does ("raise period to at least 2e-4").
	Down     bool
	Min, Max float64 // the range the parameter takes (inclusive)
	Int      bool    // whole numbers only
	Pow2     bool    // powers of two only
	// With, when set, names what moves along with the parameter at v,
	// shown after the advice: "and T to 21" (all K redundant exchanges
	// follow P).
	With func(v float64) string
}

// Knobs are the parameters a refusal may advise moving and the estimate as
// a function of them.
type Knobs struct {
	List []Knob
	// Cost is the model's estimate with knob i at at[i], the parameters
	// that are no knob as refused; false when the values are invalid
	// together (T above log2 P, say).
	Cost func(at []float64) (Cost, bool)
}

// Keys are the knobs' names, for a message.
func (ks Knobs) Keys() []string {
	var out []string
	for _, k := range ks.List {
		out = append(out, k.Key)
	}
	return out
}

// advise names what brings c within b: "lower P to at most 16 or raise
// period to at least 2e-4"; "" when nothing does.
//
// A move is judged by how the estimate changes, relative to the estimate
// at the refused values, applied to c: so a caller that multiplies a
// model's cost (trials of one trial, workers each holding a run) keeps the
// model's knobs, and the advice holds for the whole.
func advise(c Cost, b Budget, ks Knobs) string {
	now := make([]float64, len(ks.List))
	for i, k := range ks.List {
		now[i] = k.Now
	}
	base, ok := ks.Cost(now)
	if !ok {
		return ""
	}
	fits := func(at []float64) bool {
		e, ok := ks.Cost(at)
		if !ok {
			return false
		}
		scaled := c
		scaled.Bytes = scale(c.Bytes, e.Bytes, base.Bytes)
		scaled.Seconds = scale(c.Seconds, e.Seconds, base.Seconds)
		return scaled.over(b) <= 1
	}
	// The knob named c.Key (the one that drives the cost) first.
	first := 0
	for i, k := range ks.List {
		if k.Key == c.Key {
			first = i
		}
	}
	order := []int{first}
	for i := range ks.List {
		if i != first {
			order = append(order, i)
		}
	}
	var out []string
	extreme := true
	for _, i := range order {
		k := ks.List[i]
		at := append([]float64(nil), now...)
		if v, text, ok := k.search(func(v float64) bool { at[i] = v; return fits(at) }); ok {
			out = append(out, k.verb()+" "+k.bound()+" "+text)
			extreme = extreme && v == k.far()
		}
	}
	if extreme {
		// Every one alone goes to the end of its range: two moved less
		// come first.
		if s := pair(ks, first, now, fits); s != "" {
			out = append([]string{s}, out...)
		}
	}
	return strings.Join(out, " or ")
}

// pair is the pair of knobs, the first of them List[first] (the knob that
// drives the cost), that together bring the run within the budget with the
// least move in all, each move measured as the share of its range it takes
// on a log scale: "lower trials to at most 100 and N to at most 2e7".
func pair(ks Knobs, first int, now []float64, fits func([]float64) bool) string {
	a := ks.List[first]
	best, bestScore := "", math.Inf(1)
	for j, b := range ks.List {
		if j == first {
			continue
		}
		at := append([]float64(nil), now...)
		for _, va := range a.grid() {
			at[first] = va
			bv, tb, ok := b.search(func(v float64) bool { at[j] = v; return fits(at) })
			if !ok {
				continue
			}
			// With b there, a may come back nearer Now.
			at[j] = bv
			av, ta, ok := a.search(func(v float64) bool { at[first] = v; return fits(at) })
			if !ok {
				av, ta = va, a.write(va)
			}
			if score := a.share(av) + b.share(bv); score < bestScore {
				best, bestScore = a.verb()+" "+a.bound()+" "+ta+" and "+b.Key+" "+b.bound()+" "+tb, score
			}
			break
		}
	}
	return best
}

// share is how far v is from Now, as a share of the way to the far end on
// a log scale (a far end of 0 counts as Now·1e-9).
func (k Knob) share(v float64) float64 {
	far := k.far()
	if far <= 0 || k.Now <= 0 {
		far = k.Now * 1e-9
	}
	v = max(v, min(far, k.Now), 1e-300)
	if far == k.Now {
		return 1
	}
	return math.Abs(math.Log(v/k.Now) / math.Log(far/k.Now))
}

// write is v as search writes it, without rounding.
func (k Knob) write(v float64) string {
	s := numDigits(v, 17)
	if k.Int || k.Pow2 {
		s = strconv.FormatInt(int64(v), 10)
	}
	return s + k.with(v)
}

// with is With's note for v, in parentheses, or "".
func (k Knob) with(v float64) string {
	if k.With == nil {
		return ""
	}
	if w := k.With(v); w != "" {
		return " (" + w + ")"
	}
	return ""
}

func (k Knob) verb() string {
	if k.Down {
		return "lower " + k.Key
	}
	return "raise " + k.Key
}

func (k Knob) bound() string {
	if k.Down {
		return "to at most"
	}
	return "to at least"
}

// far is the end of the range where the cost is least.
func (k Knob) far() float64 {
	if k.Down {
		return k.Min
	}
	return k.Max
}

// grid is up to about 24 values from Now (excluded) to the far end
// (included), nearest first: powers of two, or geometric steps.
func (k Knob) grid() []float64 {
	far := k.far()
	var out []float64
	switch {
	case k.Pow2:
		for v := k.Now; ; {
			if k.Down {
				v /= 2
			} else {
				v *= 2
			}
			if k.Down && v < far || !k.Down && v > far {
				break
			}
			out = append(out, v)
		}
	default:
		lo := far
		if lo <= 0 || k.Now <= 0 {
			lo = k.Now * 1e-9
		}
		for i := 1; i <= 24; i++ {
			v := k.Now * math.Pow(lo/k.Now, float64(i)/24)
			if k.Int {
				v = math.Round(v)
			}
			if len(out) == 0 || v != out[len(out)-1] {
				out = append(out, v)
			}
		}
		if out[len(out)-1] != far {
			out = append(out, far)
		}
	}
	return out
}

// search finds the value of k nearest Now at which fits holds, searching
// from the far end of its range, where the cost is least, and writes it
// ("16", "2e-4", with With's note): rounded away from Now to as few digits
// as keep it near, when the value as written fits too.
func (k Knob) search(fits func(float64) bool) (float64, string, bool) {
	far, near := k.far(), k.Now
	var v float64
	var ok bool
	text := func(v float64) string { return strconv.FormatInt(int64(v), 10) }
	switch {
	case k.Pow2:
		lo, hi := math.Log2(max(far, 1)), math.Log2(max(near, 1))
		v, ok = bisect(lo, hi, func(x float64) bool { return fits(math.Exp2(math.Round(x))) }, true)
		v = math.Exp2(math.Round(v))
	case k.Int:
		v, ok = bisect(math.Round(far), math.Round(near), fits, true)
	default:
		v, ok = bisect(far, near, fits, false)
		// Shown to as few significant digits as keep it within 1 % of
		// the move from Now, rounded away from Now so that the value as
		// shown fits too; else in full.
		text = func(v float64) string { return numDigits(v, 17) }
		for d := 2; ok && d <= 17; d++ {
			s := numDigits(roundDigits(v, d, k.Down), d)
			r, err := strconv.ParseFloat(s, 64)
			if err == nil && math.Abs(r-v) <= 0.01*math.Abs(k.Now-v) && r >= k.Min && r <= k.Max && fits(r) {
				v, text = r, func(float64) string { return s }
				break
			}
		}
	}
	if !ok || v == k.Now {
		return 0, "", false
	}
	return v, text(v) + k.with(v), true
}

// scale is x times got/base: a cost component moved as the model's did.
func scale(x, got, base float64) float64 {
	if base == 0 {
		if got == 0 {
			return x
		}
		return math.Inf(1)
	}
	return x * got / base
}

// bisect finds the point of [far, near] (or [near, far]) nearest near where
// fits holds, given that it holds at far and, moving towards near, stops
// holding once (a monotone cost); ok is false when it fails at far. On
// whole numbers (whole) it returns one; otherwise within 1e-9 of the
// boundary, by bisection (on a log scale when both ends are positive).
func bisect(far, near float64, fits func(float64) bool, whole bool) (float64, bool) {
	if !fits(far) {
		return 0, false
	}
	if fits(near) {
		return near, true
	}
	logScale := !whole && far > 0 && near > 0
	for range 200 {
		if whole && math.Abs(near-far) <= 1 {
			break
		}
		var mid float64
		switch {
		case whole:
			mid = math.Floor((far + near) / 2)
			if mid == far || mid == near {
				mid = math.Ceil((far + near) / 2)
			}
		case logScale:
			mid = math.Sqrt(far * near)
		default:
			mid = far + (near-far)/2
		}
		if mid == far || mid == near {
			break
		}
		if fits(mid) {
			far = mid
		} else {
			near = mid
		}
		if !whole && math.Abs(near-far) <= 1e-9*math.Abs(near) {
			break
		}
	}
	return far, true
}

// roundDigits rounds x to d significant digits, down or up.
func roundDigits(x float64, d int, down bool) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	e := math.Pow(10, math.Floor(math.Log10(math.Abs(x)))-float64(d-1))
	if down {
		return math.Floor(x/e) * e
	}
	return math.Ceil(x/e) * e
}
