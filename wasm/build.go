package main

import (
	"math"
	"sync"
	"sync/atomic"
	"time"

	"commlab/engine/progress"
	"commlab/scene"
)

// change is a request that SetParams accepted: the state it leads to and
// the view settings that come with it. Applying it needs a Build when the
// values or the seed differ from the run shown.
type change struct {
	next    scene.State
	speed   float64
	loop    bool
	t       float64
	seek    bool
	notices []scene.Notice
}

// job is one build in flight, and the change it applies when it succeeds.
// The app holds at most one (app.job); a newer request cancels it.
type job struct {
	sc scene.Scene
	c  change

	// initial is the page's first build, the URL's: when it succeeds the
	// playhead goes where the URL says (scene.InitialT of query) and
	// autoplay plays; keep are the URL's messages, shown until then and
	// after.
	initial bool
	query   string
	keep    []*scene.FieldError
	// rebuild: the job builds again the run released to make room for a
	// build that failed or was canceled (room.go).
	rebuild bool

	done     atomic.Uint64 // fraction done, float64 bits
	canceled atomic.Bool

	// run and err are the build's outcome, set before ended; seconds is
	// its wall time, pauses included.
	run     scene.Run
	err     error
	seconds float64

	mu       sync.Mutex
	launched bool          // a builder started it
	ended    bool          // run and err are set
	detached bool          // its starter stopped waiting; the builder calls later
	yielded  chan struct{} // closed at the first pause or at the end
	yield    sync.Once

	// waiters hear the outcome: the promises setParams returned.
	waiters []func(errs []*scene.FieldError, canceled bool)
}

func newJob(sc scene.Scene, c change) *job {
	return &job{sc: sc, c: c, yielded: make(chan struct{})}
}

// Progress is the fraction of the build done, in [0, 1].
func (j *job) Progress() float64 { return math.Float64frombits(j.done.Load()) }

// Cancel asks the build to stop at its next checkpoint and tells the
// waiters at once; the build's outcome is then ignored.
func (j *job) Cancel() {
	j.canceled.Store(true)
	j.tell(nil, true)
}

// tell resolves the waiters, once.
func (j *job) tell(errs []*scene.FieldError, canceled bool) {
	j.mu.Lock()
	ws := j.waiters
	j.waiters = nil
	j.mu.Unlock()
	for _, w := range ws {
		w(errs, canceled)
	}
}

// wait adds a waiter.
func (j *job) wait(w func(errs []*scene.FieldError, canceled bool)) {
	j.mu.Lock()
	j.waiters = append(j.waiters, w)
	j.mu.Unlock()
}

// build runs the scene's Build for the change, telling pr how far it got.
//
//go:noinline
func (j *job) build(pr progress.Func) {
	j.run, j.err = scene.BuildProgress(j.sc, j.c.next.Values, j.c.next.Seed, pr)
}

// builder runs jobs in steps: the build runs in a goroutine and, once it
// has worked for slice, pauses at its next checkpoint (pause). In the
// browser, where Go's goroutines share JavaScript's one thread and Go hands
// the thread back only when every goroutine waits, the pause waits one
// turn of the event loop (browserBuilder, yield_js.go): the page gets its
// frames and events, then the build goes on.
type builder struct {
	slice time.Duration
	pause func()
	now   func() time.Time
}

// buildSlice is how long a build works before it lets the page run: well
// under a 60 Hz frame (16.7 ms), so the page keeps drawing while a run of
// seconds builds.
const buildSlice = 12 * time.Millisecond

// start runs j's build in a goroutine and waits for its first slice:
// ended is true when the build ended within it (j.run and j.err are set and
// later is never called); else the caller goes on and later(j) is called
// from the build's goroutine when it ends.
func (b *builder) start(j *job, later func(*job)) (ended bool) {
	j.mu.Lock()
	j.launched = true
	j.mu.Unlock()
	t0 := b.now()
	go func() {
		j.build(b.hook(j))
		j.seconds = b.now().Sub(t0).Seconds()
		j.mu.Lock()
		j.ended = true
		detached := j.detached
		j.mu.Unlock()
		j.yield.Do(func() { close(j.yielded) })
		if detached {
			later(j)
		}
	}()
	<-j.yielded
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.ended {
		return true
	}
	j.detached = true
	return false
}

// hook is the progress.Func of j's build: it records the fraction done,
// stops a canceled build and pauses when the slice is used.
func (b *builder) hook(j *job) progress.Func {
	start := b.now()
	return func(done float64) error {
		j.done.Store(math.Float64bits(done))
		if j.canceled.Load() {
			return progress.ErrCanceled
		}
		if b.now().Sub(start) < b.slice {
			return nil
		}
		j.yield.Do(func() { close(j.yielded) })
		b.pause()
		start = b.now()
		if j.canceled.Load() {
			return progress.ErrCanceled
		}
		return nil
	}
}
