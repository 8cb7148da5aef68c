// Package fit calibrates a model's unknown magnitudes: it finds the values
// within given bounds that minimise a sum of squared residuals, with
// gonum's Nelder–Mead simplex (gonum.org/v1/gonum/optimize).
//
// The bounds are kept by transformation: the simplex moves in unbounded
// coordinates u, and each parameter is lo + (hi − lo)·σ(u) with σ the
// logistic function, so every point the objective sees is inside its box.
// The search is deterministic: the same objective and start give the same
// result bit for bit.
//
// It lives under cmd/gen-report, not engine/, because the engine packages
// (and so the browser's WebAssembly) stay free of gonum.
package fit
