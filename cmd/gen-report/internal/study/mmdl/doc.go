// Package mmdl is paper 003's study (multi-master divisible load in
// steady rounds): Table 4 and 5 and Fig. 8 regenerated, the optimal round
// count, the live calibration loop on this machine, the findings, and
// `gen-report eval mmdl`. The model is commlab/engine/mmdl; the scene is
// scene/mmdl.
package mmdl
