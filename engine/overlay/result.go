package overlay

import (
	"fmt"

	"commlab/internal/errf"
)

// EventKind is what happened to a connection or a message.
type EventKind uint8

const (
	// Open is a static connection, set up before the sort starts.
	Open EventKind = iota
	// Send is a message leaving on a direct connection (From to To).
	Send
	// Relay is a message that had no direct connection: From handed it to
	// Via, which forwards it towards To.
	Relay
	// ShortcutOpen is the sender of a relayed message starting the
	// handshake of a shortcut From–To (Section 3.2, Fig. 2 (2)).
	ShortcutOpen
	// ShortcutReady is the shortcut's handshake completing: messages
	// between From and To go direct from now on (Fig. 2 (3)).
	ShortcutReady
	// Evict is a shortcut closed because From's (or To's) cache was full
	// and it was the least recently used; Via is the process whose cache
	// evicted it.
	Evict
	numEventKinds
)

var eventKindNames = [numEventKinds]string{"open", "send", "relay", "shortcut_open", "shortcut_ready", "evict"}

func (k EventKind) String() string {
	if k < numEventKinds {
		return eventKindNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", k)
}

// MarshalText writes the kind's name, so JSON reads as words.
func (k EventKind) MarshalText() ([]byte, error) {
	if k >= numEventKinds {
		return nil, errf.Errorf("overlay: unknown event kind %d", k)
	}
	return []byte(eventKindNames[k]), nil
}

// ConnEvent is one event of the overlay, in time order. From and To are
// processes; Via is the relay of a Relay event, the evicting process of an
// Evict event, and -1 otherwise. The processes are int32 (MaxProcs fits):
// a run of the paper's experiment records 860,000 events, and 24 bytes
// each rather than 40 is a fifth of the run's CPU time saved in copying
// and page faults (BenchmarkRunIS).
type ConnEvent struct {
	Time float64   `json:"time"`
	Kind EventKind `json:"kind"`
	From int32     `json:"from"`
	To   int32     `json:"to"`
	Via  int32     `json:"via"`
}

// Result is what one Integer Sort run measured.
type Result struct {
	// Time is the sort's execution time, s: from the start of the first
	// timed iteration (static connections already set up, as in NPB's
	// timer) until the last process finishes the last.
	Time float64 `json:"time_s"`
	// ConnMean and ConnMax are over processes of each one's peak number of
	// open connections (static plus shortcuts, either end).
	ConnMean float64 `json:"conn_mean"`
	ConnMax  float64 `json:"conn_max"`
	// StaticMean and StaticMax are the same for the static connections.
	StaticMean float64 `json:"static_mean"`
	StaticMax  float64 `json:"static_max"`
	// Messages counts the sort's messages (each once, however relayed);
	// Relayed those that went through at least one relay.
	Messages int `json:"messages"`
	Relayed  int `json:"relayed"`
	// ShortcutsOpened counts shortcut handshakes started, Evicted the
	// shortcuts closed by LRU eviction.
	ShortcutsOpened int `json:"shortcuts_opened"`
	Evicted         int `json:"evicted"`
	// BufferBytes is the largest peak buffer memory of one process, and
	// BufferMean the mean over processes of theirs: each open connection
	// holds its path's bandwidth-delay product (Bandwidth × RTT).
	BufferBytes float64 `json:"buffer_bytes"`
	BufferMean  float64 `json:"buffer_mean_bytes"`
	// Events are the overlay's events in time order.
	Events []ConnEvent `json:"-"`
}
