// Package lp solves the MMDL steady state with a per-pair communication
// cost β_ij (a multi-cluster network, the paper's future work) as a linear
// programme, with gonum's simplex (gonum.org/v1/gonum/optimize/convex/lp).
// It is a sub-package so that engine/mmdl, which the browser scene
// imports, does not pull gonum into the wasm.
//
// The programme, in the variables x_ij ≥ 0 (tasks i sends to j) and T:
//
//	minimise T
//	subject to γ_i·f_i + Σ_j β_ij·x_ij + Σ_j β_ji·x_ji ≤ T   (busy time)
//	           f_i = l_i − Σ_j x_ij + Σ_j x_ji ≥ 0           (final load)
//
// A transfer occupies both ends for β_ij per task, as β does in the
// uniform model, so with β_ij = β it is the problem engine/mmdl solves in
// closed form (the tests check that both give the same T).
package lp
