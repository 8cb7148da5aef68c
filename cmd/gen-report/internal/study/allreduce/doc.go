// Package allreduce is paper 000's study (Matsumoto, Suda: a butterfly
// allreduce that sheds OS and network jitter with redundant exchanges):
// the sweeps of sets A, B, C1 and C2 behind Fig. 5-21, the readings of the
// model side by side, the paper's six findings checked against the cells,
// and `gen-report eval allreduce`. The model is commlab/engine/allreduce;
// the scenes are scene/butterfly and scene/jitter.
package allreduce
