// Package overlay is the connection management of papers/004
// (specs/connections.md, Sections 3 and 4): sparse static connections
// chosen from the switch tree, routing through relays, a shortcut cache
// with LRU eviction, and the NAS Parallel Benchmarks' Integer Sort whose
// key exchange runs over it.
//
// # Connections
//
// Static (Section 3.1): under the Topology policy every process connects
// to all processes on its own leaf switch and to one process of every other
// leaf switch, spread so that each process of a switch serves about the
// same share of another switch's processes (staticTopology). All connects
// every pair; Random gives every process RandomDegree random partners.
// Connections are undirected: a connection either end set up serves both.
//
// Routing: a message to a process without a direct connection goes to the
// next hop of the sender's routing table, built from the static
// connections: under Topology the sender's own connection into the
// destination's switch, whose end is connected to the destination; under
// Random a common neighbour of the two, spread by (sender + destination).
//
// Shortcuts (Section 3.2): when a message has to be relayed, its sender
// opens a direct connection to the destination and uses it once the
// handshake lets it (Params.Handshake: by default TCP's, completed by the
// kernels, so that the opener may send one round trip after its connect;
// see the costs below). Every process holds at most C shortcuts (Params.Cache;
// a shortcut counts at both ends); a new one evicts the least recently
// used (sent or received on, by either end) of a full cache. Connections
// keeps this state; RunIS drives it in simulated time. Membership keeps the
// static connections and routes up to date as processes join and leave.
//
// # Integer Sort and its costs
//
// RunIS simulates NPB IS on engine/des: each iteration every process
// buckets its keys, the bucket sizes are allreduced (recursive doubling:
// log2 P rounds of one message of Buckets × 4 bytes), the send counts are
// exchanged all-to-all (NPB's MPI_Alltoall of send_count: a 4-byte message
// to every process), and once a process has every count the keys are
// exchanged all-to-all-v; after receiving all of them the process ranks
// its keys. Both exchanges post their P−1 sends at once in the order of
// Params.Pattern, and ChunkBytes splits key messages into chunks sent one
// after another. Each send's route is chosen when the CPU gets to it, so
// the later chunks of a message whose first chunk opened a shortcut go
// direct once it is ready (under HandshakeKernel). The keys are drawn as NPB draws them (mean of four
// uniforms) and the buckets are split over the processes as NPB's rank()
// splits them, so the message sizes are IS's own. Phoenix, the paper's
// runtime, replaces MPI's collectives by point-to-point messages the same
// way (Section 4.2). ReuseDistances says, for the same messages, how soon
// each destination without a static connection comes back, and so what a
// shortcut cache of C can serve.
//
// The costs, each a named parameter:
//
//   - the path: a message crosses the links of its path in the switch tree
//     (node to leaf switch, switches up to the common ancestor and down,
//     switch to node), taking Latency + HopLatency per switch plus
//     bytes/Bandwidth; each link serves messages in the order their heads
//     reach it, so messages sharing a link (two processes of one node, an
//     uplink between switches) contend;
//   - CPU: one CPU per process serves its jobs in order; a message costs
//     its sender and its receiver MsgCPU plus PollPerConn for every
//     connection open when the CPU gets to it (select() scans them all,
//     shortcuts opened since the send was posted included); a relay pays
//     a receive, a send, RelayCPU, and the copy at RelayBandwidth;
//   - set-up and teardown: a shortcut costs each end HandshakeCPU, queued
//     on its CPU behind the work already there, and an evicted one
//     TeardownCPU. The handshake's packets (SYN, SYN-ACK, ACK) take the
//     path's latency each, without contending for links. Under
//     HandshakeKernel (the default) the SYN leaves as the sender relays,
//     the opener may send once the SYN-ACK is back (one round trip), and
//     the far end once it has accepted, after the ACK (Linux's listen(2)
//     queues established connections for accept(2); Stevens, UNIX Network
//     Programming Vol. 1, 3rd ed., Section 4.5). Under
//     HandshakeApplication the SYN leaves when the opener's CPU gets to
//     the connect, behind every send already posted, and the shortcut is
//     ready at both ends a round trip after that plus the far end's
//     queue and accept; no send posted before it can use it;
//   - memory: each open connection holds its path's bandwidth-delay product
//     (Bandwidth × round-trip latency) at each end (Result.BufferBytes).
//
// Static connections are set up before the timed iterations, as NPB's
// timer starts after the runtime's initialisation.
package overlay
