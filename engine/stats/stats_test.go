package stats

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// tRef holds t quantiles computed with mpmath at 50 digits (the root of
// betainc(ν/2, ½, 0, ν/(ν+t²))/2 = 1 − p, rounded to 20 digits): ν, p, t.
var tRef = [][3]float64{
	{1, 0.6, 0.32491969623290632616},
	{1, 0.9, 3.0776835371752534026},
	{1, 0.975, 12.706204736174704646},
	{1, 0.995, 63.656741162871580995},
	{1, 0.9995, 636.61924876871961621},
	{2, 0.6, 0.28867513459481288225},
	{2, 0.9, 1.8856180831641267317},
	{2, 0.975, 4.3026527297494638523},
	{2, 0.995, 9.9248432009182931147},
	{2, 0.9995, 31.599054576443620733},
	{3, 0.6, 0.27667066233268991054},
	{3, 0.9, 1.6377443536962101055},
	{3, 0.975, 3.1824463052837095927},
	{3, 0.995, 5.8409093097333572607},
	{3, 0.9995, 12.923978636687483065},
	{4, 0.6, 0.27072229470759742496},
	{4, 0.9, 1.5332062740589439108},
	{4, 0.975, 2.7764451051977943578},
	{4, 0.995, 4.6040948713499932254},
	{4, 0.9995, 8.6103015813792750967},
	{5, 0.6, 0.26718086570414512673},
	{5, 0.9, 1.4758840488244810785},
	{5, 0.975, 2.5705818356363155147},
	{5, 0.995, 4.0321429835552280784},
	{5, 0.9995, 6.8688266258811102474},
	{7, 0.6, 0.26316686135202281214},
	{7, 0.9, 1.4149239276505084776},
	{7, 0.975, 2.3646242515927853417},
	{7, 0.995, 3.4994832973504939201},
	{7, 0.9995, 5.4078825208617252403},
	{10, 0.6, 0.26018482949208023537},
	{10, 0.9, 1.3721836411103356272},
	{10, 0.975, 2.2281388519862747484},
	{10, 0.995, 3.1692726726169512346},
	{10, 0.9995, 4.5868938587026358996},
	{29, 0.6, 0.25568363457125614267},
	{29, 0.9, 1.3114336473015510653},
	{29, 0.975, 2.0452296421327042982},
	{29, 0.995, 2.7563859036706054886},
	{29, 0.9995, 3.6594050194663328566},
	{30, 0.6, 0.25560536495191277249},
	{30, 0.9, 1.3104150253913955782},
	{30, 0.975, 2.04227245630123831},
	{30, 0.995, 2.7499956535672253324},
	{30, 0.9995, 3.6459586350420218161},
	{100, 0.6, 0.25402218245822781657},
	{100, 0.9, 1.2900747613465159692},
	{100, 0.975, 1.9839715185235522866},
	{100, 0.995, 2.6258905214380179306},
	{100, 0.9995, 3.3904913111642299194},
	{199, 0.6, 0.25368607538177214025},
	{199, 0.9, 1.2858202092594090125},
	{199, 0.975, 1.9719565442517538344},
	{199, 0.995, 2.6007602160585161949},
	{199, 0.9995, 3.3400865561614309612},
	{200, 0.6, 0.25368437919014769682},
	{200, 0.9, 1.2857987939948010746},
	{200, 0.975, 1.9718962236339093822},
	{200, 0.995, 2.6006344361915579582},
	{200, 0.9995, 3.3398354062756783235},
	{201, 0.6, 0.25368269988916703047},
	{201, 0.9, 1.2857775925323174236},
	{201, 0.975, 1.9718365067798592651},
	{201, 0.995, 2.6005099190831937567},
	{201, 0.9995, 3.3395867889052696663},
	{1000, 0.6, 0.25341451583949876477},
	{1000, 0.9, 1.2823987214609244373},
	{1000, 0.975, 1.962339080826408485},
	{1000, 0.995, 2.5807546980659510793},
	{1000, 0.9995, 3.3002826484239129098},
	{9999, 0.6, 0.25335384411983593603},
	{9999, 0.9, 1.2816362381983139148},
	{9999, 0.975, 1.9602012636213576804},
	{9999, 0.995, 2.5763210958565977375},
	{9999, 0.9995, 3.2915000633009318556},
	{100000, 0.6, 0.25334777715717994299},
	{100000, 0.9, 1.2815600314493610141},
	{100000, 0.975, 1.9599877075346096386},
	{100000, 0.995, 2.5758784699083753035},
	{100000, 0.9995, 3.2906240314118826697},
	{1000000, 0.6, 0.25334717053784167948},
	{1000000, 0.9, 1.2815524121299384804},
	{1000000, 0.975, 1.9599663568141070353},
	{1000000, 0.995, 2.5758342201053341543},
	{1000000, 0.9995, 3.2905364612486911308},
}

func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }

func TestTQuantileReference(t *testing.T) {
	for _, c := range tRef {
		df, p, want := int(c[0]), c[1], c[2]
		tol := 3e-13
		if df > 10000 {
			tol = 1e-11
		}
		if got := TQuantile(p, df); relErr(got, want) > tol {
			t.Errorf("TQuantile(%v, %d) = %.17g, want %.17g (relative error %.1e > %.0e)", p, df, got, want, relErr(got, want), tol)
		}
		// The lower tail by symmetry; 1 − p is rounded, hence the
		// looser tolerance.
		if got := TQuantile(1-p, df); relErr(-got, want) > 1e-10 {
			t.Errorf("TQuantile(%v, %d) = %.17g, want %.17g", 1-p, df, got, -want)
		}
	}
}

// TestTQuantileTables: the printed table of Student's t (NIST/SEMATECH
// e-Handbook of Statistical Methods, 1.3.6.7.2), to its 3 decimals, and
// 4-digit values of the 0.975 column.
func TestTQuantileTables(t *testing.T) {
	for _, c := range []struct {
		df   int
		p    float64
		want float64
		tol  float64
	}{
		{1, 0.975, 12.706, 5e-4}, {2, 0.975, 4.303, 5e-4}, {3, 0.975, 3.182, 5e-4}, {4, 0.975, 2.776, 5e-4},
		{5, 0.975, 2.571, 5e-4}, {10, 0.975, 2.228, 5e-4}, {20, 0.975, 2.086, 5e-4}, {30, 0.975, 2.042, 5e-4},
		{60, 0.975, 2.000, 5e-4}, {100, 0.975, 1.984, 5e-4},
		{1, 0.95, 6.314, 5e-4}, {10, 0.95, 1.812, 5e-4}, {30, 0.95, 1.697, 5e-4},
		{1, 0.995, 63.657, 5e-4}, {10, 0.995, 3.169, 5e-4}, {30, 0.995, 2.750, 5e-4},
		{1, 0.9995, 636.619, 5e-4}, {10, 0.9995, 4.587, 5e-4}, {100, 0.9995, 3.390, 5e-4},
		{9, 0.975, 2.2622, 5e-5}, {29, 0.975, 2.0452, 5e-5}, {99, 0.975, 1.9842, 5e-5}, {999, 0.975, 1.9623, 5e-5},
	} {
		if got := TQuantile(c.p, c.df); math.Abs(got-c.want) > c.tol {
			t.Errorf("TQuantile(%v, %d) = %.6f, the table says %v", c.p, c.df, got, c.want)
		}
	}
}

// TestTQuantileClosedForms: for 1, 2 and 4 degrees of freedom the t
// quantile has a closed form (Hill 1970): tan(π(p−½)),
// (2p−1)/√(2p(1−p)), and 2√(q−1) with q = cos(⅓·acos(√α))/√α,
// α = 4p(1−p).
func TestTQuantileClosedForms(t *testing.T) {
	for i := 1; i < 200; i++ {
		p := 0.5 + float64(i)/400
		forms := map[int]float64{
			1: math.Tan(math.Pi * (p - 0.5)),
			2: (2*p - 1) / math.Sqrt(2*p*(1-p)),
		}
		a := 4 * p * (1 - p)
		forms[4] = 2 * math.Sqrt(math.Cos(math.Acos(math.Sqrt(a))/3)/math.Sqrt(a)-1)
		for df, want := range forms {
			// Near p = ½ the closed form for 4 degrees of freedom
			// cancels (q − 1 with q near 1): an absolute bound there.
			if got := TQuantile(p, df); math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
				t.Errorf("TQuantile(%v, %d) = %.17g, closed form %.17g", p, df, got, want)
			}
		}
	}
}

// TestTUpperReference: the tail P(T > t) against mpmath's betainc at 40
// digits, across the branches of the continued fraction; with 10⁶ degrees
// of freedom at t = 2 the x side alone would be off by 2e-11.
func TestTUpperReference(t *testing.T) {
	for _, c := range [][3]float64{
		{1000000, 2.0, 0.022750266925659604211},
		{100000, 1.5, 0.066808779761415299327},
		{10000, 2.0, 0.022763630330717721369},
		{1000, 2.5, 0.0062892839005453984049},
		{100, 4.0, 0.000060761822150380838601},
		{10, 6.0, 0.000066054430177392802118},
		{3, 30.0, 0.00004067640213581979727},
		{30, 0.1, 0.46050480589513557804},
		{2, 1.0, 0.21132486540518711775},
	} {
		if got := TUpper(c[1], int(c[0])); relErr(got, c[2]) > 5e-14 {
			t.Errorf("TUpper(%v, %v) = %.17g, mpmath %.17g (relative error %.1e)", c[1], c[0], got, c[2], relErr(got, c[2]))
		}
	}
}

func TestTUpperRoundTrip(t *testing.T) {
	for _, df := range []int{1, 3, 8, 40, 300, 5000} {
		for _, p := range []float64{0.55, 0.8, 0.975, 0.999, 0.3} {
			q := TQuantile(p, df)
			if got := 1 - TUpper(q, df); math.Abs(got-p) > 1e-13 {
				t.Errorf("df %d: 1 − TUpper(TQuantile(%v)) = %.17g", df, p, got)
			}
		}
	}
	if TUpper(0, 7) != 0.5 || TUpper(math.Inf(1), 7) != 0 || TUpper(math.Inf(-1), 7) != 1 {
		t.Error("TUpper at 0 and ±∞")
	}
	for _, bad := range []float64{TQuantile(0, 5), TQuantile(1, 5), TQuantile(0.5, 0), TQuantile(math.NaN(), 3), TUpper(1, 0), TUpper(math.NaN(), 3)} {
		if !math.IsNaN(bad) {
			t.Errorf("out of the domain: got %v, want NaN", bad)
		}
	}
}

// TestZ95: Z95 is the normal 0.975 quantile, the t quantile's limit:
// at 10⁶ degrees of freedom the Cornish-Fisher expansion
// z + (z³+z)/4ν + (5z⁵+16z³+3z)/96ν² is exact to 1e-19.
func TestZ95(t *testing.T) {
	z, nu := Z95, 1e6
	want := z + (z*z*z+z)/(4*nu) + (5*math.Pow(z, 5)+16*z*z*z+3*z)/(96*nu*nu)
	if got := TQuantile(0.975, 1_000_000); relErr(got, want) > 1e-11 {
		t.Fatalf("TQuantile(0.975, 10⁶) = %.17g, Cornish-Fisher from Z95 %.17g", got, want)
	}
}

// TestMeanT: R's t.test(1:10) prints 3.334149 7.665851; the digits are
// mpmath's.
func TestMeanT(t *testing.T) {
	iv, err := MeanT([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	if err != nil {
		t.Fatal(err)
	}
	if iv.Mean != 5.5 || iv.N != 10 || iv.Method != MethodT || relErr(iv.Lo, 3.3341494103318304) > 1e-14 || relErr(iv.Hi, 7.6658505896681696) > 1e-14 {
		t.Fatalf("got %+v", iv)
	}
	if _, err := MeanT([]float64{3}); err == nil || !strings.Contains(err.Error(), "at least 2") {
		t.Fatalf("one value: %v", err)
	}
	if _, err := MeanT([]float64{1, math.NaN()}); err == nil || !strings.Contains(err.Error(), "not finite") {
		t.Fatalf("NaN: %v", err)
	}
	var r Running
	if !math.IsNaN(r.Var()) || r.Mean() != 0 || r.N() != 0 {
		t.Fatal("empty Running")
	}
}

// TestRunningAccurate: Welford's update keeps the variance of values with
// a large common offset, where Σx²/n − x̄² cancels to nothing. The
// reference is the two-pass variance of x − 10⁹, which is exact to
// compute (Sterbenz) and has the same variance.
func TestRunningAccurate(t *testing.T) {
	var r Running
	rng := rand.New(rand.NewPCG(1, 1))
	var ds []float64
	var sq, sum float64
	for range 10000 {
		x := 1e9 + rng.Float64()
		ds = append(ds, x-1e9)
		r.Add(x)
		sum += x
		sq += x * x
	}
	var m, ss float64
	for _, d := range ds {
		m += d
	}
	m /= float64(len(ds))
	for _, d := range ds {
		ss += (d - m) * (d - m)
	}
	n := float64(len(ds))
	want := ss / (n - 1)
	naive := (sq - sum*sum/n) / (n - 1)
	if relErr(r.Var(), want) > 1e-6 || relErr(r.Mean(), 1e9+m) > 1e-14 {
		t.Fatalf("Welford %v %v, two passes %v %v", r.Mean(), r.Var(), 1e9+m, want)
	}
	if relErr(naive, want) < 0.1 {
		t.Fatalf("the naive formula gives %v against %v: the test no longer shows what Welford is for", naive, want)
	}
}

var ratioNum = []float64{2.9, 3.1, 2.7, 3.6, 3.3, 2.8, 3.0, 3.4, 2.6, 3.2}
var ratioDen = []float64{1.9, 2.2, 1.8, 2.5, 2.1, 2.0, 1.9, 2.4, 1.7, 2.3}

// TestRatio: the delta method and Fieller against mpmath's arithmetic on
// the same formulas at 40 digits.
func TestRatio(t *testing.T) {
	d, err := RatioDelta(ratioNum, ratioDen)
	if err != nil {
		t.Fatal(err)
	}
	if relErr(d.Mean, 1.4711538461538462) > 1e-15 || relErr(d.Lo, 1.4191763207795716) > 1e-13 || relErr(d.Hi, 1.5231313715281207) > 1e-13 || d.Method != MethodDelta || d.N != 10 {
		t.Errorf("delta: %+v", d)
	}
	f, err := Fieller(ratioNum, ratioDen)
	if err != nil {
		t.Fatal(err)
	}
	if relErr(f.Lo, 1.4218377589798065) > 1e-13 || relErr(f.Hi, 1.526398204832419) > 1e-13 || f.Method != MethodFieller {
		t.Errorf("Fieller: %+v", f)
	}
	// A denominator indistinguishable from 0 has no bounded interval.
	if _, err := Fieller([]float64{1, 2, 3}, []float64{-1, 0.5, 0.6}); err == nil || !strings.Contains(err.Error(), "unbounded") {
		t.Errorf("Fieller near 0: %v", err)
	}
	if _, err := RatioDelta([]float64{1, 2}, []float64{1, -1}); err == nil || !strings.Contains(err.Error(), "mean is 0") {
		t.Errorf("zero denominator: %v", err)
	}
	if _, err := RatioDelta([]float64{1, 2}, []float64{1}); err == nil {
		t.Error("unpaired lengths accepted")
	}
}

// TestCommonRandomNumbers: pairs that share their noise give a ratio's
// interval far narrower than independent draws of the same two means.
func TestCommonRandomNumbers(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	var crn, ind Paired
	for range 100 {
		u := rng.ExpFloat64()
		crn.Add(1+0.9*u, 1+u)
		ind.Add(1+0.9*rng.ExpFloat64(), 1+u)
	}
	a, _ := crn.Ratio()
	b, _ := ind.Ratio()
	if a.HalfWidth() > b.HalfWidth()/5 {
		t.Fatalf("common random numbers: ±%.4f, independent: ±%.4f", a.HalfWidth(), b.HalfWidth())
	}
}

// TestBootstrapDeterministic: the same data give the same interval; the
// seed comes from the data, so other data give other resamples.
func TestBootstrapDeterministic(t *testing.T) {
	a, err := RatioBootstrap(ratioNum, ratioDen)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := RatioBootstrap(append([]float64(nil), ratioNum...), append([]float64(nil), ratioDen...))
	if a != b {
		t.Fatalf("two runs: %v, %v", a, b)
	}
	if a.Method != MethodBootstrap || a.Lo >= a.Mean || a.Hi <= a.Mean {
		t.Fatalf("%+v", a)
	}
	// It agrees with the delta method roughly: the percentile bootstrap
	// runs short at n = 10 (its interval is 20 % narrower here).
	d, _ := RatioDelta(ratioNum, ratioDen)
	if math.Abs(a.Lo-d.Lo) > 0.3*d.HalfWidth() || math.Abs(a.Hi-d.Hi) > 0.3*d.HalfWidth() {
		t.Errorf("bootstrap %v, delta %v", a, d)
	}
	if DataSeed(ratioNum, ratioDen) == DataSeed(ratioDen, ratioNum) || DataSeed([]float64{1}, []float64{2}) == DataSeed([]float64{1, 2}) {
		t.Error("DataSeed does not tell the data apart")
	}
	if _, _, err := Bootstrap(10, 38, 1, func([]int) float64 { return 0 }); err == nil {
		t.Error("38 resamples accepted")
	}
	if _, err := RatioBootstrap([]float64{1, 2, 3}, []float64{1, -1, 0}); err == nil {
		t.Error("zero denominator accepted")
	}
	if _, err := RatioBootstrap([]float64{1, 2, 3}, []float64{1, -1, 0.5}); err == nil || !strings.Contains(err.Error(), "resample") {
		t.Errorf("a resample dividing by 0: %v", err)
	}
}

// TestCoverage: each interval covers the true value in about 95 % of
// 1,000 simulated samples (3 binomial standard errors: ±2.1 %; the
// percentile bootstrap is known to run a little short at small n).
func TestCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 samples of each interval")
	}
	const reps = 1000
	rng := rand.New(rand.NewPCG(11, 12))
	var cover [5]int
	for range reps {
		const n = 40
		var mean Running
		var pair Paired
		num, den := make([]float64, n), make([]float64, n)
		hits := 0
		for i := range n {
			mean.Add(rng.NormFloat64()*2 + 5)
			u, v := rng.NormFloat64(), rng.NormFloat64()
			num[i], den[i] = 3+0.6*u+0.2*v, 2+0.4*u // true ratio 3/2
			pair.Add(num[i], den[i])
			if rng.Float64() < 0.1 {
				hits++
			}
		}
		ivs := [5]Interval{}
		ivs[0], _ = mean.Interval()
		ivs[1], _ = pair.Ratio()
		ivs[2], _ = pair.Fieller()
		ivs[3], _ = RatioBootstrap(num, den)
		ivs[4], _ = Wilson(hits, n)
		for k, want := range []float64{5, 1.5, 1.5, 1.5, 0.1} {
			if ivs[k].Contains(want) {
				cover[k]++
			}
		}
	}
	for k, name := range []string{"t", "delta", "Fieller", "bootstrap", "Wilson"} {
		c := float64(cover[k]) / reps
		if c < 0.925 || c > 0.975 {
			t.Errorf("%s covers %.1f %% of %d samples, want 95 ± 2.1 %%", name, 100*c, reps)
		}
		t.Logf("%s: %.1f %%", name, 100*float64(cover[k])/reps)
	}
}

// TestWilson: Newcombe (1998), Table I, method 3: 81/263, 15/148, 0/20,
// 1/29 to his four decimals.
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{{81, 263, 0.2553, 0.3662}, {15, 148, 0.0624, 0.1605}, {0, 20, 0, 0.1611}, {1, 29, 0.0061, 0.1718}} {
		iv, err := Wilson(c.k, c.n)
		if err != nil || math.Abs(iv.Lo-c.lo) > 5e-5 || math.Abs(iv.Hi-c.hi) > 5e-5 || iv.Mean != float64(c.k)/float64(c.n) {
			t.Errorf("Wilson(%d, %d) = %v (%v), Newcombe: [%v, %v]", c.k, c.n, iv, err, c.lo, c.hi)
		}
	}
	if iv, _ := Wilson(30, 30); iv.Hi != 1 || iv.Lo > 0.8865 || iv.Lo < 0.8864 {
		t.Errorf("30 of 30: %v", iv)
	}
	for _, bad := range [][2]int{{1, 0}, {-1, 5}, {6, 5}} {
		if _, err := Wilson(bad[0], bad[1]); err == nil || !strings.Contains(err.Error(), "0 ≤ hits ≤ n") {
			t.Errorf("Wilson(%d, %d): %v", bad[0], bad[1], err)
		}
	}
}

// TestIntervalJSON: the field names are the reports' data format.
func TestIntervalJSON(t *testing.T) {
	iv, _ := MeanT([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	b, err := json.Marshal(iv)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"mean":5.5,"n":10,"lo":3.334149410331831,"hi":7.665850589668169,"level":0.95,"method":"t"}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	if s := iv.String(); s != "5.5 [3.334, 7.666] (95 % t, n = 10)" {
		t.Fatalf("String: %q", s)
	}
	if iv.HalfWidth() != (iv.Hi-iv.Lo)/2 || math.Abs(iv.Relative()-0.3938) > 1e-4 {
		t.Fatalf("half-width %v, relative %v", iv.HalfWidth(), iv.Relative())
	}
}

// TestPinnedBits pins the bits of a spread of results, so that the same
// test under GOOS=js GOARCH=wasm proves them equal there; a deliberate
// change to an algorithm changes the hash. Do not edit the value to make
// a failure go away without knowing why the bits moved.
func TestPinnedBits(t *testing.T) {
	h := fnv.New64a()
	put := func(v float64) {
		b := math.Float64bits(v)
		h.Write([]byte{byte(b), byte(b >> 8), byte(b >> 16), byte(b >> 24), byte(b >> 32), byte(b >> 40), byte(b >> 48), byte(b >> 56)})
	}
	for df := 1; df < 3000; df += 7 {
		for _, p := range []float64{0.6, 0.975, 0.9995, 0.01} {
			put(TQuantile(p, df))
		}
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for range 50 {
		var r Running
		var pr Paired
		num, den := make([]float64, 30), make([]float64, 30)
		for i := range num {
			u := rng.ExpFloat64()
			num[i], den[i] = 1+u+rng.Float64(), 2+u
			r.Add(num[i])
			pr.Add(num[i], den[i])
		}
		for _, f := range []func() (Interval, error){r.Interval, pr.Ratio, pr.Fieller, func() (Interval, error) { return RatioBootstrap(num, den) },
			func() (Interval, error) { return Wilson(rng.IntN(31), 30) }} {
			iv, err := f()
			if err != nil {
				t.Fatal(err)
			}
			put(iv.Mean)
			put(iv.Lo)
			put(iv.Hi)
		}
	}
	const want uint64 = 0xd76a4308df550076
	if got := h.Sum64(); got != want {
		t.Fatalf("hash %#x, want %#x", got, want)
	}
}
