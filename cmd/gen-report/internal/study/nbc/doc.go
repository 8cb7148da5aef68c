// Package nbc is paper 001's study (non-blocking collectives: LibNBC with
// a progress function or thread against TCC's handle queue and progress
// thread): the paper's cases and speedups, the calibration of the unknown
// magnitudes on 2 nodes and the prediction of 32, the regimes' sweeps, the
// findings, and `gen-report eval nbc`. The model is commlab/engine/nbc;
// the scene is scene/nbc (the "tcc" scene).
package nbc
