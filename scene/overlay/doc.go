// Package overlay is the shortcut-creation scene of paper 004 (model
// settled in specs/connections.md, engine in engine/overlay): the
// processes of an Integer Sort run keep connections chosen from the
// network's switch tree, relay messages to destinations they have no
// connection to, open a direct connection (a shortcut) after a relayed
// message, and close the least recently used shortcut when their cache of
// C shortcuts is full.
//
// The frame draws the switch tree at the top, every switch at its depth
// and above the middle of what hangs under it; the nodes in a row under
// their leaf switches, each node a box holding its processes; and the
// connections as arcs under that row (an arc diagram: a connection
// between two processes is a half-ellipse between their positions, so
// lines between neighbours on one switch stay short and low and
// connections across switches reach deeper). Static connections are thin
// solid arcs, shortcuts dashed; a shortcut appears at its open event and
// not before. Messages in flight at the playhead are dots moving along the
// connection they travel on; a relayed message's two hops are drawn in the
// relay colour and the relaying process is ringed. When a process's cache
// is full, the shortcut the LRU rule closes fades out over a short window
// after its close, drawn in the warning colour and crossed at its lowest
// point. A panel on the right counts, at the playhead, the open
// connections per process (mean and max, and a bar per process split
// into static connections and shortcuts), the shortcuts open and opened,
// the evictions and the relayed messages, and the Integer Sort's time
// once the run is over.
//
// Dynamic membership (the join and leave fields, off by default): after
// the sort a node cabled to a chosen leaf switch joins. It measures its
// RTT to one node per switch only (topology.MeasureJoin; the probes are
// dotted arcs with a ping going back and forth, then their RTTs), is
// placed from those (topology.Join, with the thresholds of the cluster's
// own inferred RTT matrix) and opens the topology policy's connections
// (overlay.Membership), drawn in the joining colour, dashed during their
// handshake. Then a node leaves: its node is crossed, its connections
// fade out, and every process that reached its switch through it opens a
// replacement. The panel says how many RTTs the join took (against the
// N − 1 of measuring everything again), the joiner's routes, and the
// connections closed, opened and routes changed by the leave.
//
// The handshake and chunk_bytes fields are the engine's two readings of
// when a shortcut can carry a message (docs/overlay.md): under the
// kernel's handshake, with key messages cut into chunks, the later chunks
// of a relayed message go direct over the shortcut its first chunk
// opened. The report's Fig. 5 links here with its configurations.
//
// Every picture is built from the engine's connection events
// (overlay.Result.Events) and its trace's message hops; Numbers are the
// engine's Result. The sort is NPB IS class S's size (Keys), so messages
// are small and the connection events spread over each exchange. The seed
// feeds the engine's random draws (the random policy's choice of
// connections) through scene.RNG(seed, 0). Times are in seconds.
package overlay
