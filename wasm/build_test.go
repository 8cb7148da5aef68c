package main

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"commlab/engine/progress"
	"commlab/scene"
)

// slowScene is testScene built in steps: its BuildProgress reports
// steps times, and after each report waits while gate is held, so a test
// decides when a build may go on.
type slowScene struct {
	testScene
	steps int
	gate  *sync.Mutex
}

func (s slowScene) Build(v scene.Values, seed uint64) (scene.Run, error) {
	return s.BuildProgress(v, seed, nil)
}

func (s slowScene) BuildProgress(v scene.Values, seed uint64, pr progress.Func) (scene.Run, error) {
	for i := range s.steps {
		if err := pr.Report(float64(i) / float64(s.steps)); err != nil {
			return nil, err
		}
		s.gate.Lock()
		s.gate.Unlock()
	}
	if err := pr.Report(1); err != nil {
		return nil, err
	}
	if v["co"] == "1" && v["P"] == "64" {
		return nil, errors.New("engine says no at P = 64 with co")
	}
	return s.testScene.Build(v, seed)
}

// testBuilder pauses after every report (a zero slice), like the browser
// after each of its slices, by yielding the goroutine.
func testBuilder() *builder {
	return &builder{slice: 0, pause: func() { time.Sleep(time.Millisecond) }, now: time.Now}
}

// ended collects the jobs that end after their first slice.
type ended struct {
	mu   sync.Mutex
	jobs chan *job
}

func newEnded() *ended { return &ended{jobs: make(chan *job, 8)} }

func (e *ended) later(j *job) { e.jobs <- j }

func (e *ended) next(t *testing.T) *job {
	t.Helper()
	select {
	case j := <-e.jobs:
		return j
	case <-time.After(10 * time.Second):
		t.Fatal("no build ended within 10 s")
		return nil
	}
}

func TestBuildInStepsKeepsTheRunShown(t *testing.T) {
	gate := new(sync.Mutex)
	reg := scene.Registry{slowScene{testScene{"slow"}, 50, gate}}
	a, err := newApp(reg, "t=0")
	if err != nil {
		t.Fatal(err)
	}
	b, done := testBuilder(), newEnded()
	oldRun, oldEnd := a.runID, a.player.End

	j, errs := a.Request(map[string]string{"P": "32", "theme": "dark", "speed": "2"})
	if errs != nil || j == nil {
		t.Fatalf("Request = %v, %v; want a job", j, errs)
	}
	gate.Lock()
	if b.start(j, done.later) {
		t.Fatal("a build of 50 paused steps ended within its first slice")
	}
	st := a.State(1, 1)
	if st["building"] != true || a.runID != oldRun || a.player.End != oldEnd {
		t.Errorf("while building: building %v, run %d (was %d), end %v (was %v)", st["building"], a.runID, oldRun, a.player.End, oldEnd)
	}
	if a.st.Theme != "dark" || a.player.Speed != 2 {
		t.Errorf("view settings wait for the build: theme %s speed %v", a.st.Theme, a.player.Speed)
	}
	if p := st["pending"].(map[string]any)["params"].(map[string]any)["P"]; p != "32" {
		t.Errorf("pending P = %v, want 32", p)
	}
	if !strings.Contains(a.Query(), "P=32") {
		t.Errorf("query %q does not hold the values being built", a.Query())
	}
	// The run shown plays on.
	a.Do(actPlay)
	a.Tick(1)
	if !(a.player.T > 0) {
		t.Error("the run shown did not play while building")
	}
	gate.Unlock()
	if got := done.next(t); got != j {
		t.Fatal("another job ended")
	}
	if errs := a.Finish(j); errs != nil {
		t.Fatal(errs)
	}
	if a.runID == oldRun || a.player.End != 32+1 || a.st.Values["P"] != "32" || a.job != nil {
		t.Errorf("after the build: run %d end %v P %s job %v", a.runID, a.player.End, a.st.Values["P"], a.job)
	}
	if p := j.Progress(); p != 1 {
		t.Errorf("progress at the end %v, want 1", p)
	}
}

func TestNewerRequestReplacesTheBuild(t *testing.T) {
	gate := new(sync.Mutex)
	reg := scene.Registry{slowScene{testScene{"slow"}, 20, gate}}
	a, _ := newApp(reg, "t=0")
	b, done := testBuilder(), newEnded()
	gate.Lock()
	j1, _ := a.Request(map[string]string{"P": "16"})
	var told []bool
	j1.wait(func(errs []*scene.FieldError, canceled bool) { told = append(told, canceled) })
	b.start(j1, done.later)

	// Same values again (with a seek): the build in flight takes it over.
	same, _ := a.Request(map[string]string{"P": "16", "t": "3"})
	if same != j1 || !same.launched {
		t.Fatal("a request for the values being built started another build")
	}
	// Other values: the old build is canceled and told so at once.
	j2, _ := a.Request(map[string]string{"seed": "5"})
	if j2 == j1 || !j1.canceled.Load() || len(told) != 1 || !told[0] {
		t.Fatalf("the replaced build: canceled %v, told %v", j1.canceled.Load(), told)
	}
	if j2.c.next.Values["P"] != "16" {
		t.Errorf("the newer request starts from the values being built: P = %s, want 16", j2.c.next.Values["P"])
	}
	b.start(j2, done.later)
	gate.Unlock()
	for range 2 {
		j := done.next(t)
		errs := a.Finish(j)
		if j == j1 && (!errors.Is(j.err, progress.ErrCanceled) || errs != nil) {
			t.Errorf("the canceled build ended with %v, Finish %v", j.err, errs)
		}
	}
	if a.st.Values["P"] != "16" || a.st.Seed != 5 || a.player.End != 21 {
		t.Errorf("after the newer build: P %s seed %d end %v; want 16, 5, 21", a.st.Values["P"], a.st.Seed, a.player.End)
	}
}

func TestCancelAndFailedBuildKeepTheRun(t *testing.T) {
	gate := new(sync.Mutex)
	reg := scene.Registry{slowScene{testScene{"slow"}, 20, gate}}
	a, _ := newApp(reg, "")
	b, done := testBuilder(), newEnded()
	before := a.Query()
	gate.Lock()
	j, _ := a.Request(map[string]string{"P": "32"})
	b.start(j, done.later)
	if !a.Cancel() || a.job != nil || a.Query() != before {
		t.Errorf("Cancel: job %v, query %s (was %s)", a.job, a.Query(), before)
	}
	if len(a.notices) != 1 || a.notices[0].Key != "run" {
		t.Errorf("notices after cancel %v, want one saying so", a.notices)
	}
	if a.Cancel() {
		t.Error("Cancel with no build in flight says it stopped one")
	}
	gate.Unlock()
	a.Finish(done.next(t))
	if a.Query() != before {
		t.Errorf("a canceled build changed the view: %s", a.Query())
	}

	// A build that fails: its message, the run shown kept.
	id := a.runID
	j, _ = a.Request(map[string]string{"P": "64", "co": "1"})
	b.start(j, done.later)
	errs := a.Finish(done.next(t))
	if len(errs) != 1 || !strings.Contains(message(errs[0]), "engine says no") || a.runID != id || a.Query() != before {
		t.Errorf("failed build: errors %v, run %d (was %d), query %s", errs, a.runID, id, a.Query())
	}
	if len(a.errs) != 1 {
		t.Errorf("page messages %v, want the build's error", a.errs)
	}
}

func TestStartAppBuildsTheURLInSteps(t *testing.T) {
	gate := new(sync.Mutex)
	reg := scene.Registry{slowScene{testScene{"slow"}, 20, gate}}
	b, done := testBuilder(), newEnded()
	gate.Lock()
	var pending *job
	a, err := startApp(reg, "P=32&seed=2&autoplay=1&bogus=1", func(j *job) bool {
		pending = j
		ended := b.start(j, done.later)
		// The defaults build (in one go) while the URL's run waits.
		gate.Unlock()
		return ended
	})
	if err != nil {
		t.Fatal(err)
	}
	if a.job != pending || a.st.Values["P"] != "8" || a.player.End != 8+2 {
		t.Fatalf("while the URL builds: job %v, P %s, end %v; want the defaults shown", a.job, a.st.Values["P"], a.player.End)
	}
	if !strings.Contains(a.Query(), "P=32") {
		t.Errorf("query %q, want the URL's values while they build", a.Query())
	}
	a.Finish(done.next(t))
	if a.st.Values["P"] != "32" || a.player.End != 34 || !a.player.Playing || a.player.T != 0 {
		t.Errorf("after the URL's build: P %s, end %v, playing %v at %v; want 32, 34, autoplay from 0",
			a.st.Values["P"], a.player.End, a.player.Playing, a.player.T)
	}
	if k := keysOf(a.errs); len(k) != 1 || k[0] != "bogus" {
		t.Errorf("messages %v, want the URL's bad key kept", k)
	}
}

// A URL at the scene's defaults is built once, at once: its stepped build
// would build the very run shown meanwhile, beside the page's start.
func TestStartAppBuildsTheDefaultsOnce(t *testing.T) {
	reg := scene.Registry{slowScene{testScene{"slow"}, 20, new(sync.Mutex)}}
	for _, query := range []string{"", "scene=slow&P=8&seed=3&autoplay=1"} {
		launched := 0
		a, err := startApp(reg, query, func(j *job) bool {
			launched++
			return testBuilder().start(j, func(*job) {})
		})
		if err != nil {
			t.Fatal(err)
		}
		if launched != 0 || a.job != nil || a.runID != 1 {
			t.Errorf("%q: %d stepped builds, job %v, %d runs built; want the defaults built once, at once", query, launched, a.job, a.runID)
		}
	}
	// Any other value still builds in steps.
	launched := 0
	if _, err := startApp(reg, "P=16", func(j *job) bool { launched++; return buildNow(j) }); err != nil {
		t.Fatal(err)
	}
	if launched != 1 {
		t.Errorf("P=16: %d stepped builds, want 1", launched)
	}
}
