// Package overlay is paper 004's study (a message-passing layer that
// infers the network topology, keeps few connections and adds shortcuts on
// demand): the RTT jump, the inferred trees, Fig. 5's Integer Sort over
// the connection policies, the costs and readings, the findings,
// `gen-report eval overlay` and `gen-report topology measure|infer`. The
// models are commlab/engine/overlay and commlab/engine/topology; the scene
// is scene/overlay.
package overlay
