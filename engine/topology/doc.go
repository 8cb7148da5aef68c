// Package topology is the cluster model and the topology inference of
// papers/004 (Section 2), as settled in specs/connections.md.
//
// A Tree is a tree of switches whose leaf switches carry the nodes. Generate
// builds symmetric trees (levels, fan-out, nodes per leaf switch), Spread
// spreads nodes evenly over leaf switches under one root, PaperCluster and
// PaperExperiment are the paper's 112-node cluster and its 64-node
// experiment, Random grows trees with leaves at different depths for the
// property tests.
//
// Measurements are simulated from a Net with seeded noise: MeasureRTT gives
// the RTT matrix (each entry the minimum of a few pings, paper 2.1 (1)),
// Interferes and Throughput say whether two concurrent transfers share a
// link and so halve each other's throughput (paper 2.2).
//
// Inference runs in the paper's two steps. InferLeaves finds the leaf-switch
// groups from the RTT matrix (the gap in each node's sorted RTTs, all views
// combined by vote). InferTree builds the switch tree from interference
// observations with the algorithm of the paper's Fig. 1 (merge, fresh
// switches, update of R), with the sibling rule made exact and the small and
// uneven cases settled (see InferTree). Isomorphic compares inferred and true
// trees as interference can tell them apart.
//
// Join places a node that joins from its RTTs to one representative per
// leaf switch (S measurements, not N − 1); Leave removes one.
//
// ReadRTTCSV, ReadInterferenceCSV and their writers carry the spec's file
// formats; NaivePlan and ScalablePlan count the measurements and their
// simulated time for the paper's procedure and for a scalable one.
//
// Everything is deterministic: random draws come from a *rand.Rand handed
// in, and the noise sampler uses only exactly rounded arithmetic, so results
// are bit-identical natively and under js/wasm.
package topology
