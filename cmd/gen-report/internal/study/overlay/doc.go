// Package overlay is paper 004's study (a message-passing layer that
// infers the network topology, keeps few connections and adds shortcuts on
// demand): the RTT jump, the inferred trees, Fig. 5's Integer Sort over
// the connection policies for every reading of what a shortcut can carry
// (chunk size × handshake, fig5.go: seeds with common random numbers,
// t-intervals and paired Fieller intervals), the costs and readings, the
// findings by verdict.Claim/Compare (findings.go), the links from every
// point to the overlay scene (links.go), `gen-report eval overlay` and
// `gen-report topology measure|infer`. The models are
// commlab/engine/overlay and commlab/engine/topology; the scene is
// scene/overlay. docs/overlay.md says what the page shows and measures.
package overlay
