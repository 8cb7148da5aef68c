package cost

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"commlab/internal/shown"
)

// Cost is an estimate of one run.
type Cost struct {
	Events  float64 // engine steps: process-stage updates, jitter windows met, noise events, schedule operations, messages
	Spans   float64 // trace records (spans, messages, markers) a recorded run keeps
	Bytes   float64 // peak memory the run allocates, bytes
	Seconds float64 // engine time on one core of the development machine (native)

	// Key is the parameter (JSON, URL and flag name) that drives the cost
	// most: the page shows a refusal beside its control.
	Key string
	// Why names the inputs that drive the cost and what dominates it, in
	// the form "P = 64 with N = 1e9 and period = 1e-6 records about 9e8
	// jitter windows".
	Why string
	// Fit, given how many times over the budget the run is (> 1), says
	// what would fit, e.g. "raise period to at least 2e-4 or lower N to at
	// most 5e6". Nil: Check says only by how much to shrink the run.
	Fit func(over float64) string
	// Knobs, when set, are the parameters a refusal may advise moving,
	// before Fit: the message names each that alone brings the run within
	// the budget, at the value that does (see Knob), and Fit only when
	// none does. A caller that changes a cost other than by multiplying
	// it (adding a part that does not move with the knobs) sets its own
	// or clears them.
	Knobs func() Knobs
}

// Add is the cost of running a and then b in the same process: events,
// records and time add up, memory is the larger peak unless both are kept.
func (c Cost) Add(b Cost) Cost {
	c.Events += b.Events
	c.Spans += b.Spans
	c.Seconds += b.Seconds
	c.Bytes = max(c.Bytes, b.Bytes)
	return c
}

// Budget is what a run may take.
type Budget struct {
	Name  string  // whose budget, for messages: "the page", "the command"
	Bytes float64 // peak memory, bytes; 0 or Inf: no limit
	// Basis, when not empty, says where Bytes comes from, after it in a
	// refusal: "half of the 4.29 GB of RLIMIT_AS (ulimit -v) less the
	// 1.24 GB this process has mapped".
	Basis   string
	Seconds float64 // engine time, s; 0 or Inf: no limit
	// Slowdown multiplies Cost.Seconds for this budget's platform: the
	// page runs WebAssembly, the commands run natively (0 means 1).
	Slowdown float64
	// Force, when not empty, is how to run anyway (a command's "-force"),
	// named at the end of a refusal.
	Force string
}

// WasmSlowdown is how much slower the engines run as WebAssembly than
// natively, measured on the development machine on 2026-11-25 (load 14-17,
// so only the ratio counts): the butterfly scene's build at P = 4096 took
// 247 ms natively and 1049 ms as wasm under node (4.2x), the jitter scene's
// at P = 4096 with 200 trials 455 and 1275 ms (2.8x). Re-measure with
// go test -run '^$' -bench Build -benchtime 5x ./scene/butterfly/ ./scene/jitter/
// natively and with GOOS=js GOARCH=wasm (go_js_wasm_exec on PATH).
const WasmSlowdown = 4

// Page is the budget of a run the page builds (scene Build, in the browser
// and in gen-anim's previews): a tab that needs more than about 500 MB or
// blocks for more than about 2 s of engine time is broken.
var Page = Budget{Name: "the page", Bytes: 500e6, Seconds: 2, Slowdown: WasmSlowdown}

// Unlimited accepts every run (a command's -force).
var Unlimited = Budget{Name: "no limit"}

// Error is a run over its budget.
type Error struct {
	Cost   Cost
	Budget Budget
	Over   float64 // how many times over: the larger of memory and time
}

// Check returns nil when c fits b, else an *Error naming what is over.
func (c Cost) Check(b Budget) error {
	over := c.over(b)
	if over <= 1 {
		return nil
	}
	return &Error{Cost: c, Budget: b, Over: over}
}

func (c Cost) seconds(b Budget) float64 {
	if b.Slowdown > 0 {
		return c.Seconds * b.Slowdown
	}
	return c.Seconds
}

// over is the larger of memory/budget and time/budget; NaN counts as over.
func (c Cost) over(b Budget) float64 {
	o := 0.0
	if limited(b.Bytes) {
		o = max(o, c.Bytes/b.Bytes)
	}
	if limited(b.Seconds) {
		o = max(o, c.seconds(b)/b.Seconds)
	}
	if math.IsNaN(c.Bytes) || math.IsNaN(c.Seconds) {
		return math.Inf(1)
	}
	return o
}

func limited(x float64) bool { return x > 0 && !math.IsInf(x, 1) }

func (e *Error) Error() string {
	c, b := e.Cost, e.Budget
	var what []string
	memOver := limited(b.Bytes) && c.Bytes > b.Bytes
	timeOver := limited(b.Seconds) && c.seconds(b) > b.Seconds
	if memOver {
		m := fmt.Sprintf("%s, over %s's %s", approx(Bytes(c.Bytes)), b.Name, Bytes(b.Bytes))
		if b.Basis != "" {
			m += ", " + b.Basis
		}
		what = append(what, m)
	}
	if timeOver {
		what = append(what, fmt.Sprintf("%s of engine time, over %s's %s", approx(Duration(c.seconds(b))), b.Name, Duration(b.Seconds)))
	}
	if !memOver && !timeOver { // NaN
		what = append(what, "a cost that cannot be estimated")
	}
	why := c.Why
	if why == "" {
		why = "this run"
	}
	msg := fmt.Sprintf("%s (%s)", why, strings.Join(what, "; "))
	// The knobs' advice first; Fit when they have none (or there are
	// none); else by how much to shrink the run.
	advice, tried := "", ""
	if c.Knobs != nil {
		ks := c.Knobs()
		advice = advise(c, b, ks)
		switch keys := ks.Keys(); len(keys) {
		case 0:
		case 1:
			tried = " (" + keys[0] + " alone cannot do it within its range)"
		default:
			tried = " (no one of " + strings.Join(keys, ", ") + " does it alone within its range, nor two together)"
		}
	}
	if advice == "" && c.Fit != nil {
		advice = c.Fit(e.Over)
	}
	if advice != "" {
		msg += "; " + advice
	} else {
		msg += fmt.Sprintf("; make it about %s times smaller%s", Num(math.Ceil(e.Over)), tried)
	}
	if b.Force != "" {
		msg += " (" + b.Force + " runs it anyway)"
	}
	return msg
}

// approx marks an estimate: "≈ 40 GB", but "more than 1e24 B" as is.
func approx(s string) string {
	if strings.HasPrefix(s, "more than") {
		return s
	}
	return "≈ " + s
}

// Num writes a count or a parameter value for messages, to two or three
// significant digits: "64", "0.001", "4.2e8", "1.9e-4".
func Num(x float64) string {
	if x != 0 && (math.Abs(x) >= 1e6 || math.Abs(x) < 1e-3) {
		return numDigits(x, 2)
	}
	if math.Abs(x) >= 1000 {
		return strconv.FormatFloat(math.Round(x), 'f', 0, 64)
	}
	return fmt.Sprintf("%.3g", x)
}

// numDigits writes x to d significant digits in Num's style: "1.9e-4",
// "0.00099999", "4.25e8" (trailing zeros dropped).
func numDigits(x float64, d int) string {
	if x != 0 && (math.Abs(x) >= 1e6 || math.Abs(x) < 1e-3) {
		m, e, _ := strings.Cut(strconv.FormatFloat(x, 'e', d-1, 64), "e")
		if strings.Contains(m, ".") {
			m = strings.TrimRight(strings.TrimRight(m, "0"), ".")
		}
		exp, _ := strconv.Atoi(e)
		return fmt.Sprintf("%se%d", m, exp)
	}
	decimals := 0
	if x != 0 {
		decimals = max(0, d-1-int(math.Floor(math.Log10(math.Abs(x)))))
	}
	s := strconv.FormatFloat(x, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Bytes writes a size in decimal units: "512 B", "40 MB", "8.5 GB".
//
//go:noinline
func Bytes(x float64) string { return shown.Bytes(x) }

// Duration writes an engine time: "0.8 s", "25 min", "3.1 h", "12 days".
func Duration(s float64) string {
	switch {
	case !(s < 1e12):
		return "more than 1e12 s"
	case s >= 86400*365:
		return Num(s/(86400*365)) + " years"
	case s >= 2*86400:
		return fmt.Sprintf("%.2g days", s/86400)
	case s >= 2*3600:
		return fmt.Sprintf("%.2g h", s/3600)
	case s >= 120:
		return fmt.Sprintf("%.2g min", s/60)
	}
	return fmt.Sprintf("%.2g s", s)
}

// Scale is the factor x must move by to bring a cost that grows as x^exp
// under the budget when it is over times too large: for a cost linear in N,
// N must shrink by over; for one linear in 1/period, period must grow by
// over. It includes a 10 % margin.
//
//go:noinline
func Scale(over, exp float64) float64 {
	return math.Pow(over*1.1, 1/exp)
}
