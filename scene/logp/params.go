package logp

import (
	"fmt"

	elogp "commlab/engine/logp"
	"commlab/scene"
)

// The scene's URL keys. The model's keys are the engine's JSON names
// (elogp.Params), so a page URL, a gen-report flag and an engine error
// name a parameter alike.
const (
	KeyP        = "P"
	KeyN        = "n"
	KeyL        = "L"
	KeyO        = "o"
	KeyG        = "g"
	KeySigma    = "sigma"
	KeyGapSigma = "gap_sigma"
	KeyLs       = "Ls" // the planning latency L_s, as elogp.ValidateLs names it
	KeyReplays  = "replays"
)

// MaxP is the most processors the scene draws: up to 32 lanes per panel
// stay a few pixels tall on a 640x360 embed with both panels stacked.
// (The engine goes to elogp.MaxP; the report covers large P.)
const MaxP = 32

// MaxReplays bounds the running mean's replays, so a rebuild on every
// slider move stays well under 100 ms.
const MaxReplays = 2000

// Fields are the LogP model's parameters with the engine's defaults, the
// planning latency L_s (default μ, the fluctuation-free choice) and the
// number of replays the running mean averages. Time ranges are narrower
// than the engine's so that a linear slider moves in useful steps.
func Fields() []scene.Field {
	d := elogp.Default()
	g := func(x float64) string { return fmt.Sprint(x) }
	return []scene.Field{
		{Key: KeyP, Label: "P", Help: "processors", Kind: scene.Int, Type: "int", Min: 2, Max: MaxP, Default: fmt.Sprint(d.P)},
		{Key: KeyN, Label: "n", Help: "numbers to sum", Kind: scene.Int, Type: "int", Min: 1, Max: 1e6, Log: true, Default: fmt.Sprint(DefaultN)},
		{Key: KeyL, Label: "μ", Help: "mean latency L (one addition = 1 time unit)", Kind: scene.Float, Type: "float", Min: 0, Max: 100, Default: g(d.L)},
		{Key: KeyO, Label: "o", Help: "send and receive overhead", Kind: scene.Float, Type: "float", Min: 0, Max: 20, Default: g(d.O)},
		{Key: KeyG, Label: "g", Help: "gap between consecutive messages of a processor", Kind: scene.Float, Type: "float", Min: 0, Max: 20, Default: g(d.G)},
		{Key: KeySigma, Label: "σ", Help: "latency fluctuation: L ~ Normal(μ, σ²), truncated at 0", Kind: scene.Float, Type: "float", Min: 0, Max: 20, Default: g(d.Sigma)},
		{Key: KeyGapSigma, Label: "σ_g", Help: "gap fluctuation: gap = max(g, g + Normal(0, σ_g²))", Kind: scene.Float, Type: "float", Min: 0, Max: 20, Default: g(d.GapSigma)},
		{Key: KeyLs, Label: "L_s", Help: "planning latency the schedule is fixed with (μ is the fluctuation-free choice)", Kind: scene.Float, Type: "float", Min: 0, Max: 100, Default: g(d.L)},
		{Key: KeyReplays, Label: "replays", Help: "replays in the running mean of T (replay 1 is the one drawn)", Kind: scene.Int, Type: "int", Min: 1, Max: MaxReplays, Log: true, Default: "200"},
	}
}

// Params turns validated field values into the engine's parameters and the
// planning latency. A value the engine rejects comes back as a
// *scene.FieldError on the field to change.
func Params(v scene.Values) (elogp.Params, float64, error) {
	p := elogp.Params{
		P:        v.Int(KeyP),
		N:        v.Int(KeyN),
		L:        v.Float(KeyL),
		O:        v.Float(KeyO),
		G:        v.Float(KeyG),
		Sigma:    v.Float(KeySigma),
		GapSigma: v.Float(KeyGapSigma),
	}
	ls := v.Float(KeyLs)
	err := p.Validate()
	if err == nil {
		err = elogp.ValidateLs(ls)
	}
	return p, ls, scene.EngineError(err, v)
}
