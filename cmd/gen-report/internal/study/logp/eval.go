package logp

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"commlab/cmd/gen-report/internal/cli"
	engine "commlab/engine/logp"
)

// logpEval is the JSON that `eval logp` prints. Times are in the spec's
// units (one addition = 1). The planned and expected times are at Ls: the
// mean latency μ unless -Ls names another planning latency.
type logpEval struct {
	Model  string        `json:"model"`
	Params engine.Params `json:"params"`
	Trials int           `json:"trials"`
	Seed   uint64        `json:"seed"`

	Ls             float64 `json:"Ls"`
	PlannedT       float64 `json:"planned_T"`
	ExpectedT      float64 `json:"expected_T"`
	ExpectedStderr float64 `json:"expected_T_stderr"`

	OptimalLs          float64 `json:"optimal_Ls"`
	ExpectedAtOptimum  float64 `json:"expected_T_at_optimum"`
	OptimalOffsetSigma float64 `json:"optimal_offset_sigma,omitempty"` // (L_s* − μ)/σ; absent when σ = 0
	// SearchCut: the search for the optimal L_s, over [max(0, μ−3σ),
	// μ+5σ+3σ_g], reached past 1e9, the largest planning latency the model
	// takes, and was cut there (μ and σ near 1e9): both optima are the best
	// up to 1e9, and the unconstrained one may lie beyond.
	SearchCut bool `json:"optimal_Ls_search_cut,omitempty"`

	// The closed form (the spec's for P = 2, the engine's star extension
	// for P = 3): E[T](Ls), the optimal L_s (μ for P = 2, up to the
	// truncation at 0) and the excess E[T](L_s*) − T_s(μ) (σ/√(2π) for
	// P = 2). Absent when the plan is not a star.
	ExpectedClosedForm  *float64 `json:"expected_T_closed_form,omitempty"`
	OptimalLsClosedForm *float64 `json:"optimal_Ls_closed_form,omitempty"`
	ExcessClosedForm    *float64 `json:"excess_closed_form,omitempty"`
}

// lsFlag is -Ls: unset means "the mean latency μ", which is only known once
// -L is parsed.
type lsFlag struct {
	set bool
	v   float64
	raw string
}

func (f *lsFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return f.raw
}

func (f *lsFlag) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("not a number")
	}
	f.set, f.v, f.raw = true, v, s
	return nil
}

func evalLogp(stdout, stderr io.Writer, args []string) error {
	p := engine.Default()
	fs := cli.NewFlagSet("eval logp", stderr, "gen-report eval logp [flags]")
	cli.BindParams(fs.FlagSet, &p)
	var ls lsFlag
	fs.Var(&ls, "Ls", "planning latency L_s the schedule is built for, in [0, 1e9] (default: the mean latency L)")
	trials := fs.Int("trials", 100_000, fmt.Sprintf("Monte-Carlo trials per expected time, in [1, %d]", cli.MaxTrials))
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same output byte for byte")
	force := cli.AddForce(fs.FlagSet)
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	if *trials < 1 || *trials > cli.MaxTrials {
		return fmt.Errorf("eval logp: -trials = %d is out of range: want an integer in [1, %d]", *trials, cli.MaxTrials)
	}
	if err := p.Validate(); err != nil {
		return fs.ParamError(err)
	}
	at := p.L
	if ls.set {
		if err := engine.ValidateLs(ls.v); err != nil {
			return fmt.Errorf("eval logp: -%w", err)
		}
		at = ls.v
	}
	// Expected at L_s, then Optimal's evaluations.
	if err := cli.CheckCost("eval logp", engine.Estimate(p, at, *trials, 1+engine.OptimalEvaluations(p)), *force); err != nil {
		return err
	}
	ev, err := evaluateLogp(p, at, *trials, *seed)
	if err != nil {
		return fmt.Errorf("eval logp: %w", err)
	}
	return fs.WriteJSON(stdout, ev)
}

// evaluateLogp is one point of the model: the schedule planned with ls,
// its expected time, and the optimal planning latency.
func evaluateLogp(p engine.Params, ls float64, trials int, seed uint64) (logpEval, error) {
	ev := logpEval{Model: "logp", Params: p, Trials: trials, Seed: seed, Ls: ls}
	s, err := engine.Plan(p, ls)
	if err != nil {
		return ev, err
	}
	ev.PlannedT = s.Planned()
	if ev.ExpectedT, ev.ExpectedStderr, err = engine.Expected(p, ls, trials, seed); err != nil {
		return ev, err
	}
	if ev.OptimalLs, ev.ExpectedAtOptimum, err = engine.Optimal(p, trials, seed); err != nil {
		return ev, err
	}
	ev.SearchCut = p.Sigma+p.GapSigma > 0 && engine.ValidateLs(p.L+5*p.Sigma+3*p.GapSigma) != nil
	if p.Sigma > 0 {
		ev.OptimalOffsetSigma = (ev.OptimalLs - p.L) / p.Sigma
	}
	// The closed forms hold while the plan is a star (every partial sum
	// sent straight to the root): P = 2 always, P = 3 in the slides' setting.
	cf, err := closedForm(p, ls)
	if errors.Is(err, engine.ErrNotStar) {
		return ev, nil
	}
	if err != nil {
		return ev, err
	}
	ev.ExpectedClosedForm, ev.OptimalLsClosedForm, ev.ExcessClosedForm = &cf.expected, &cf.optimalLs, &cf.excess
	return ev, nil
}

// logpClosed is the closed form of one machine at one planning latency.
type logpClosed struct {
	expected  float64 // E[T](ls)
	optimalLs float64 // L_s*
	excess    float64 // E[T](L_s*) − T_s(μ)
}

// closedForm evaluates the engine's closed forms; engine.ErrNotStar when the
// plan is not a star.
func closedForm(p engine.Params, ls float64) (logpClosed, error) {
	var c logpClosed
	var err error
	if c.expected, err = engine.ExpectedStar(p, ls); err != nil {
		return c, err
	}
	opt, eopt, err := engine.OptimalStar(p)
	if err != nil {
		return c, err
	}
	s, err := engine.Plan(p, p.L)
	if err != nil {
		return c, err
	}
	c.optimalLs, c.excess = opt, eopt-s.Planned()
	return c, nil
}
