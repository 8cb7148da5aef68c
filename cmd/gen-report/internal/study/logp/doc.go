// Package logp is paper 002's study (the LogP model under fluctuating
// latency): E[T](L_s) for P = 2 and 3 against the slides' numbers, the
// optimal planning latency for P up to 1024, the σ sweep that looks for
// the slides' σ, the findings, and `gen-report eval logp`. The model is
// commlab/engine/logp; the scene is scene/logp.
package logp
