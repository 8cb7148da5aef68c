package overlay

// The numbers papers/004 publishes for its own cluster (Section 4, Fig. 3:
// 128 processes on 64 nodes over 6 switches, Default), in one place: the
// report's study reads them from here. Fig. 5's execution times are not in
// the text (the figure did not survive), so the paper gives no time to
// compare a run with. The overlay scene draws at most 48 processes and so
// never runs the paper's cluster: it shows none of these beside its own.
const (
	// PaperFig4Jump is where one node's RTTs, sorted (Fig. 4), change
	// sharply: between the 13th and the 14th node, which tells the nodes
	// on its own switch (14 nodes per switch).
	PaperFig4Jump = 13
	// PaperStaticMax is the most static connections a process opens under
	// the topology-aware policy (Section 4.2).
	PaperStaticMax = 31
	// PaperRandomConns is the random policy's connections per process: half
	// of the 127 possible (Section 4.2).
	PaperRandomConns = 64
)

// The paper's words for the numbers above.
const (
	PaperWordsFig4Jump  = "13 ノード目と 14ノード目の間で RTTが大幅に変化しており"
	PaperWordsStaticMax = "静的に確立される接続数は最大 31本"
	PaperWordsRandom    = "各ノードが，確立可能な接続中の半分（64本）をランダムに選択して確立した場合"
)
