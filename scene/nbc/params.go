package nbc

import (
	"fmt"

	enbc "commlab/engine/nbc"
	"commlab/scene"
)

// The scene's URL keys. The model's keys are the engine's JSON names
// (enbc.Params), so a page URL, a gen-report flag and an engine error name
// a parameter alike.
const (
	KeyQueue         = "queue"
	KeyCollectives   = "collectives"
	KeyMsg           = "msg"
	KeyNodes         = "nodes"
	KeyMatrix        = "matrix"
	KeyCores         = "cores"
	KeyOversubscribe = "oversubscribe"
	KeyTestEvery     = "test_every"
	KeyView          = "view"
)

// The views: TCC's queue and threads, LibNBC's progress-function
// timeline on the same workload, or both timelines on one time axis.
const (
	ViewTCC  = "tcc"
	ViewNBCF = "nbcf"
	ViewBoth = "both"
)

// Scene limits, narrower than the engine's where the picture needs it:
// MaxQueue slots stay wider than their handle's label at 640x360, MaxCores
// compute threads keep a Gantt lane and a progress bar each a few pixels
// wide, and MaxNodes, the paper's largest run, keeps a rebuild on a slider
// move under 100 ms natively with 16 collectives (BenchmarkBuild: ~70 ms
// at 32 nodes, ~230 ms at 64; the engine simulates every rank, O(nodes²)
// messages per collective).
const (
	MaxQueue  = 16
	MaxCores  = 32
	MaxNodes  = 32
	MinMatrix = 100
	MinMsg    = 100
	MaxMsg    = 1e8
)

// The scene's defaults: the paper's 32-node machine (16 cores, a progress
// thread on its own core) with a smaller workload, so that several
// collectives are in flight at once and the queue fills: 6 alltoalls of
// DefaultMsg bytes into a queue of 3 slots, overlapped with a
// DefaultMatrix² matrix-vector product.
const (
	DefaultQueue       = 3
	DefaultCollectives = 6
	DefaultNodes       = 8
	DefaultMsg         = 500e3
	DefaultMatrix      = 12000
)

// Fields are the controls: the queue and the workload, the node's threads,
// LibNBC's progress-call frequency (for the contrast view) and the view.
func Fields() []scene.Field {
	d := enbc.Default()
	return []scene.Field{
		{Key: KeyQueue, Label: "queue", Help: "TCC handle queue capacity (slots of the ring)", Kind: scene.Int, Type: "int", Min: 1, Max: MaxQueue, Default: fmt.Sprint(DefaultQueue)},
		{Key: KeyCollectives, Label: "collectives", Help: "non-blocking alltoalls issued before the matrix-vector product", Kind: scene.Int, Type: "int", Min: 1, Max: enbc.MaxCollectives, Default: fmt.Sprint(DefaultCollectives)},
		{Key: KeyMsg, Label: "message", Unit: "B", Help: "alltoall message size per destination, in bytes (eager up to 262144 B, rendezvous above)", Kind: scene.Float, Type: "float", Min: MinMsg, Max: MaxMsg, Log: true, Default: fmt.Sprint(DefaultMsg)},
		{Key: KeyNodes, Label: "nodes", Help: "nodes, one MPI rank each", Kind: scene.Int, Type: "int", Min: 2, Max: MaxNodes, Log: true, Default: fmt.Sprint(DefaultNodes)},
		{Key: KeyMatrix, Label: "matrix n", Help: "n of the n × n matrix of the matrix-vector product (rows split over ranks and threads)", Kind: scene.Int, Type: "int", Min: MinMatrix, Max: enbc.MaxMatrix, Log: true, Default: fmt.Sprint(DefaultMatrix)},
		{Key: KeyCores, Label: "cores", Help: "cores per node (the paper: 16); the progress thread takes one unless oversubscribed", Kind: scene.Int, Type: "int", Min: 2, Max: MaxCores, Default: fmt.Sprint(d.Cores)},
		{Key: KeyOversubscribe, Label: "oversubscribe", Help: "as many compute threads as cores, the progress thread sharing a core (16+1 instead of 15+1)", Kind: scene.Bool, Type: "bool", Default: "0"},
		{Key: KeyTestEvery, Label: "test every", Help: "LibNBC: one progress call (NBC_Test) per this many outer-loop iterations of each compute thread", Kind: scene.Int, Type: "int", Min: 1, Max: 10000, Log: true, Default: fmt.Sprint(d.TestEvery)},
		{Key: KeyView, Label: "view", Help: "TCC's queue and threads, LibNBC's progress-function timeline on the same workload, or both", Kind: scene.Choice, Type: "choice", Choices: []string{ViewTCC, ViewNBCF, ViewBoth}, Default: ViewTCC},
	}
}

// Params turns field values into the engine's parameters for TCC and for
// LibNBC with the progress function called during the computation
// (NBCF-ovlp-test): the same workload, every other model constant the
// engine's default. A value the engine rejects comes back as a
// *scene.FieldError on the field to change.
func Params(v scene.Values) (tcc, nbcf enbc.Params, err error) {
	tcc = enbc.Default()
	tcc.Method = enbc.TCC
	tcc.QueueCap = v.Int(KeyQueue)
	tcc.Collectives = v.Int(KeyCollectives)
	tcc.Msg = v.Float(KeyMsg)
	tcc.Nodes = v.Int(KeyNodes)
	tcc.Matrix = v.Int(KeyMatrix)
	tcc.Cores = v.Int(KeyCores)
	tcc.Oversubscribe = v.Bool(KeyOversubscribe)
	tcc.TestEvery = v.Int(KeyTestEvery)
	nbcf = tcc
	nbcf.Method = enbc.NBCFTest
	if err = tcc.Validate(); err == nil {
		err = nbcf.Validate()
	}
	return tcc, nbcf, scene.EngineError(err, v)
}
