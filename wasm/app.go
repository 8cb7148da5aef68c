package main

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"commlab/engine/cost"
	"commlab/internal/errf"
	"commlab/internal/permsort"
	"commlab/render"
	"commlab/scene"
	"commlab/scene/catalog"
)

// app is the visualizer's state and everything the page can do to it, in
// pure Go so that it is tested natively: the Ebiten game and the
// window.commlab callbacks (js && wasm files) only translate to and from it.
//
// Its invariant: st, run and player always describe a run that built. A
// change that fails (a bad value, or a Build error such as duration ≥
// period) changes nothing and only replaces the error messages, so the
// last valid run stays on screen.
type app struct {
	reg    scene.Registry
	sc     scene.Scene
	st     scene.State // the valid state; st.T and st.Speed follow player
	run    scene.Run
	player *scene.Player
	runID  int // counts successful Builds, so a frame knows its run changed

	// errs are the messages the page shows: the URL's bad values after
	// load, then those of the last change that failed.
	errs []*scene.FieldError
	// notices are the changes made on the user's behalf by the last change
	// that succeeded (a dependent value moved into range, scene.Follow).
	notices []scene.Notice

	frames int64 // Update ticks
	draws  int64 // real paints
	// baseDraws counts the paints that changed a base layer
	// (render.List.Base): few, while a scene with one plays well.
	baseDraws int64

	// layoutMs and paintMs are the Go side's cost of a frame: laying out
	// the display list, and turning it into Ebiten draw calls (the
	// browser's WebGL work comes after and is not in it).
	layoutMs, paintMs mean

	// firstFrameMs is performance.now() at the first paint of a built run.
	firstFrameMs float64

	// dirty says the page has not yet heard of a discrete change (anything
	// but the playhead moving while playing): the URL and the
	// "commlab-state" event then go out at once, not throttled.
	dirty bool
	// query is the query last written to the address bar.
	query string

	// hidden says the scene cannot be seen (a hidden tab, a frame scrolled
	// away, a slide left): nothing is painted and the playhead waits.
	hidden bool

	// job is the build in flight, if any: the run shown stays (and plays)
	// until it succeeds; if it fails, its error joins the messages. A
	// newer request cancels it (or, for the same values, takes it over).
	job *job
	// buildSeconds is the wall time of the last build that ended, pauses
	// for the page included.
	buildSeconds float64

	// budget is the page's (cost.Page): a build whose run would not fit
	// beside the run shown releases it first (room.go). lastList is the
	// last frame laid out, which a released run keeps showing.
	budget   cost.Budget
	lastList render.List

	// paper is the paper's numbers beside the run shown's, when its
	// values are one of the paper's points (scene.PaperPoint): worked out
	// once per run, for the run paperRun counts.
	paper    []scene.PaperNumber
	paperRun int
}

// launcher starts a job's build and says whether it ended at once (j.run
// and j.err set); if not, the app's Finish hears of it later.
type launcher func(j *job) (ended bool)

// buildNow builds j at once, with no pauses: the native tests' launcher.
func buildNow(j *job) bool {
	j.build(nil)
	return true
}

// newApp starts from a page URL's query. Bad values are kept as messages
// and replaced by defaults. If the remaining values still do not build (a
// constraint between fields, say duration ≥ period), the scene's defaults
// are built instead, with the Build error among the messages; only if the
// defaults fail too is there no picture, and newApp returns an error.
func newApp(reg scene.Registry, query string) (*app, error) {
	return startApp(reg, query, buildNow)
}

// startApp is newApp with the URL's build started by launch. If it does
// not end at once (a heavy run, built in steps between frames), the
// scene's defaults are built meanwhile and shown, with the URL's build in
// flight (app.job) until Finish.
func startApp(reg scene.Registry, query string, launch launcher) (*app, error) {
	if len(reg) == 0 {
		return nil, errors.New("this build has no scenes")
	}
	st, notices, errs := scene.ParseQueryNotices(query, reg)
	a := &app{reg: reg, dirty: true, notices: notices, budget: cost.Page}
	for _, err := range errs {
		a.errs = append(a.errs, fieldError(err))
	}
	a.sc, _ = reg.Lookup(st.Scene)
	def := scene.Default(a.sc)
	if maps.Equal(st.Values, def.Values) {
		// The defaults are what would be built and shown meanwhile if the
		// URL's build took more than its first slice: building them in
		// steps as well would build the same run twice, the second beside
		// the page's start (a bare link built two runs, state().run 2,
		// the second taking about a second of pauses for the page).
		launch = buildNow
	}
	j := newJob(a.sc, change{next: st, speed: st.Speed, loop: st.Loop})
	j.initial, j.query, j.keep = true, query, a.errs
	var run scene.Run
	var err error
	if launch(j) {
		run, err = j.run, j.err
	} else {
		a.job = j
		err = errors.New("building the URL's run")
	}
	if err != nil {
		if a.job == nil {
			a.errs = append(a.errs, fieldError(err))
		}
		st.Values = def.Values
		if run, err = a.sc.Build(st.Values, st.Seed); err != nil {
			return nil, errf.Errorf("scene %s does not build with its defaults: %w", st.Scene, err)
		}
	}
	a.st = st
	a.install(run)
	a.player.Speed, a.player.Loop = st.Speed, st.Loop
	if a.job == nil {
		a.opening(query)
	}
	a.sync()
	return a, nil
}

// opening puts the playhead where the page's URL asks (scene.InitialT) and
// plays if it says autoplay.
func (a *app) opening(query string) {
	if err := a.player.Seek(scene.InitialT(query, a.st, a.run)); err != nil {
		a.errs = append(a.errs, fieldError(err))
	}
	if a.st.Autoplay {
		a.player.Play()
	}
}

// install makes run current with a fresh player that keeps the old one's
// speed, loop, play state and playhead (moved to the end if the new run is
// shorter, or if the old playhead was at its run's end).
func (a *app) install(run scene.Run) {
	old := a.player
	if r, ok := a.run.(*released); ok && r.playing {
		old.Playing = true // released to make room while playing
	}
	a.run, a.runID = run, a.runID+1
	a.player = scene.NewPlayer(run)
	if old != nil {
		a.player.Speed, a.player.Loop, a.player.Playing = old.Speed, old.Loop, old.Playing
		a.player.T = min(old.T, a.player.End)
		if old.T >= old.End {
			// A view showing the outcome keeps showing it.
			a.player.T = a.player.End
		}
	}
}

// sync copies the player's playhead and speed into the state the URL shows.
func (a *app) sync() {
	a.st.T, a.st.Speed, a.st.Loop = a.player.T, a.player.Speed, a.player.Loop
}

// fieldError turns any error into the page's message form.
func fieldError(err error) *scene.FieldError {
	var fe *scene.FieldError
	if errors.As(err, &fe) {
		return fe
	}
	return &scene.FieldError{Key: "run", Value: "", Want: err.Error()}
}

// message is the sentence the page shows for e.
func message(e *scene.FieldError) string {
	if e.Key == "run" && e.Value == "" {
		return e.Want
	}
	return e.Error()
}

// Query is the canonical URL query of the current view.
func (a *app) Query() string {
	a.sync()
	if a.job != nil {
		// The address bar holds what was asked for, so that a reload
		// during a build builds it again.
		next := a.job.c.next
		next.Speed, next.Loop, next.T = a.job.c.speed, a.job.c.loop, a.st.T
		if a.job.c.seek {
			next.T = a.job.c.t
		}
		return next.Query(a.sc)
	}
	return a.st.Query(a.sc)
}

// SetParams applies a change of parameters and view settings given as
// text (see paramText for how JavaScript values become text). All or
// nothing: every value must parse and the result must build, or nothing
// changes and the errors come back (and become the page's messages).
func (a *app) SetParams(kv map[string]string) []*scene.FieldError {
	j, errs := a.Request(kv)
	if errs != nil || j == nil || j.launched {
		return errs
	}
	buildNow(j)
	errs = a.Finish(j)
	if r := a.job; r != nil && !r.launched { // the released run, built again
		buildNow(r)
		a.Finish(r)
	}
	return errs
}

// Request is SetParams for a page that builds in steps: a change that
// needs no Build is applied at once (job nil); one that does becomes
// app.job, which the caller launches unless it is already launched (the
// values are those of the build in flight, which then takes the change
// over), and Finish applies when the build ends. The view settings (theme,
// speed, loop) apply to the run shown at once. A request made while a
// build is in flight starts from the values being built; one that needs
// another build cancels it.
func (a *app) Request(kv map[string]string) (*job, []*scene.FieldError) {
	base := change{next: a.st, speed: a.player.Speed, loop: a.player.Loop}
	if a.job != nil {
		base = a.job.c
		base.seek = false
	}
	next := base.next
	next.Values = base.next.Values.Clone()
	speed, loop := base.speed, base.loop
	t, seek := 0.0, false
	var errs []*scene.FieldError
	var notices []scene.Notice
	bad := func(err error) { errs = append(errs, fieldError(err)) }
	fields := a.sc.Fields()
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	permsort.Sort(keys)
	for _, key := range keys {
		raw := kv[key]
		switch key {
		case scene.KeySeed:
			x, err := strconv.ParseUint(strings.TrimSpace(raw), 10, 64)
			if err != nil {
				bad(&scene.FieldError{Key: key, Value: raw, Want: "a whole number in [0, 18446744073709551615]"})
				continue
			}
			next.Seed = x
		case scene.KeyTheme:
			if _, ok := render.ThemeByName(raw); !ok {
				bad(&scene.FieldError{Key: key, Value: raw, Want: "one of " + strings.Join(render.ThemeNames, ", ")})
				continue
			}
			next.Theme = raw
		case scene.KeySpeed:
			x, err := scene.ParseSpeed(raw)
			if err != nil {
				bad(err)
				continue
			}
			speed = x
		case scene.KeyT:
			x, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
			if err != nil || !(x >= 0) || math.IsInf(x, 0) {
				bad(&scene.FieldError{Key: key, Value: raw, Want: "a time in seconds, 0 or more"})
				continue
			}
			t, seek = x, true
		case scene.KeyLoop, scene.KeyAutoplay:
			v, err := scene.Field{Key: key, Kind: scene.Bool}.Parse(raw)
			if err != nil {
				bad(err)
				continue
			}
			if key == scene.KeyLoop {
				loop = v == "1"
			} else {
				next.Autoplay = v == "1"
			}
		case scene.KeyScene, scene.KeyEmbed, scene.KeyScale:
			bad(&scene.FieldError{Key: key, Value: raw, Want: "no change here: load scene.html?" + key + "=… instead"})
		default:
			i := slices.IndexFunc(fields, func(f scene.Field) bool { return f.Key == key })
			if i < 0 {
				bad(&scene.FieldError{Key: key, Value: raw, Want: "no such parameter in scene " + a.st.Scene + "; its parameters are " + strings.Join(fieldKeys(fields), ", ")})
				continue
			}
			v, err := fields[i].Parse(raw)
			if err != nil {
				bad(err)
				continue
			}
			next.Values[key] = v
		}
	}
	if len(errs) == 0 {
		given := map[string]bool{}
		for _, f := range fields {
			if _, ok := kv[f.Key]; ok {
				given[f.Key] = true
			}
		}
		var ferrs []error
		notices, ferrs = scene.Follow(fields, base.next.Values, next.Values, given)
		for _, err := range ferrs {
			bad(err)
		}
	}
	if len(errs) > 0 {
		a.errs, a.dirty = errs, true
		return nil, errs
	}
	c := change{next: next, speed: speed, loop: loop, t: t, seek: seek, notices: notices}
	if next.Seed == a.st.Seed && equalValues(next.Values, a.st.Values) {
		// The run shown: any build in flight is no longer wanted.
		if err := a.apply(c, a.run); err != nil {
			return nil, []*scene.FieldError{err}
		}
		a.cancelJob()
		return nil, nil
	}
	a.st.Theme, a.player.Speed, a.player.Loop = next.Theme, speed, loop
	a.errs, a.dirty = nil, true
	if a.job != nil && next.Seed == a.job.c.next.Seed && equalValues(next.Values, a.job.c.next.Values) {
		if !c.seek {
			c.t, c.seek = a.job.c.t, a.job.c.seek
		}
		a.job.c = c
		return a.job, nil
	}
	a.cancelJob()
	a.job = newJob(a.sc, c)
	a.makeRoom(a.job)
	a.sync()
	return a.job, nil
}

// apply makes c current with run (the run shown, or the one c's build
// made); a seek past run's end is an error, and then nothing changes.
func (a *app) apply(c change, run scene.Run) *scene.FieldError {
	if end := run.End(); c.seek && !(c.t <= end) {
		err := &scene.FieldError{Key: scene.KeyT, Value: raw(c.t), Want: fmt.Sprintf("a time in [0, %s] s (this run's length)", raw(end))}
		a.errs, a.dirty = []*scene.FieldError{err}, true
		return err
	}
	if run != a.run {
		a.install(run)
	}
	a.st = c.next
	a.player.Speed, a.player.Loop = c.speed, c.loop
	if c.seek {
		a.player.T = c.t
	}
	a.errs, a.notices, a.dirty = nil, c.notices, true
	a.sync()
	return nil
}

// Finish applies j's outcome if j is still the build in flight (a
// canceled or replaced build changes nothing): its run with its change,
// or its error as the page's message with the run shown kept. It returns
// the errors and tells j's waiters.
func (a *app) Finish(j *job) []*scene.FieldError {
	if j != a.job {
		j.tell(nil, true)
		return nil
	}
	a.job, a.buildSeconds, a.dirty = nil, j.seconds, true
	var errs []*scene.FieldError
	switch {
	case j.err != nil:
		errs = append(slices.Clone(j.keep), fieldError(j.err))
		a.errs = errs
		a.rebuild(j)
	case j.initial:
		a.install(j.run)
		a.st = j.c.next
		a.player.Speed, a.player.Loop = j.c.speed, j.c.loop
		a.errs = j.keep
		a.opening(j.query)
		a.sync()
	default:
		if err := a.apply(j.c, j.run); err != nil {
			errs = []*scene.FieldError{err}
		}
	}
	j.tell(errs, false)
	return errs
}

// Cancel stops the build in flight (the page's cancel button): the run
// shown stays, and the controls go back to its values. It says whether
// there was a build to stop.
func (a *app) Cancel() bool {
	if a.job == nil {
		return false
	}
	j := a.job
	a.cancelJob()
	a.notices = []scene.Notice{{Key: "run", Message: "Build canceled: the run shown is the last one built."}}
	a.dirty = true
	a.rebuild(j)
	return true
}

//go:noinline
func (a *app) cancelJob() {
	if a.job != nil {
		a.job.Cancel()
		a.job, a.dirty = nil, true
	}
}

func raw(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func equalValues(a, b scene.Values) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func fieldKeys(fields []scene.Field) []string {
	ks := make([]string, len(fields))
	for i, f := range fields {
		ks[i] = f.Key
	}
	return ks
}

// Seek moves the playhead; a time outside the run is an error and changes
// nothing.
func (a *app) Seek(t float64) []*scene.FieldError {
	if _, ok := a.run.(*released); ok {
		a.errs, a.dirty = []*scene.FieldError{{Key: scene.KeyT, Value: raw(t), Want: "a moment of a run on screen: the run shown was released to make room for the one being built"}}, true
		return a.errs
	}
	if err := a.player.Seek(t); err != nil {
		a.errs, a.dirty = []*scene.FieldError{fieldError(err)}, true
		return a.errs
	}
	a.errs, a.dirty = nil, true
	a.sync()
	return nil
}

// Do performs a playback action (the buttons and the keyboard).
func (a *app) Do(act action) {
	if _, ok := a.run.(*released); ok {
		return // a still frame until the new run is built
	}
	p := a.player
	switch act {
	case actToggle:
		p.Toggle()
	case actPlay:
		p.Play()
	case actPause:
		p.Pause()
	case actStepFwd:
		p.Step(+1)
	case actStepBack:
		p.Step(-1)
	case actFaster:
		p.Faster()
	case actSlower:
		p.Slower()
	case actRestart:
		p.Restart()
	default:
		return
	}
	a.dirty = true
	a.sync()
}

// SetVisible stops (false) or resumes (true) playing and painting. The
// playhead stays where it was while hidden, so the scene resumes there.
func (a *app) SetVisible(on bool) {
	if a.hidden == !on {
		return
	}
	a.hidden, a.dirty = !on, true
}

// Tick advances the playhead by dt real seconds (one Update); while hidden
// it does nothing.
func (a *app) Tick(dt float64) {
	if a.hidden {
		return
	}
	a.frames++
	was := a.player.Playing
	a.player.Tick(dt)
	if was != a.player.Playing {
		a.dirty = true // reached the end
	}
	a.sync()
}

// frameKey identifies what a frame shows: the same key, the same picture.
type frameKey struct {
	run   int
	t     float64
	w, h  float64
	theme string
}

// Key is the frame the current state asks for at canvas size w x h.
func (a *app) Key(w, h float64) frameKey {
	return frameKey{run: a.runID, t: a.player.T, w: w, h: h, theme: a.st.Theme}
}

// Frame lays out the current frame at canvas size w x h (CSS pixels).
func (a *app) Frame(w, h float64) render.List {
	th, ok := render.ThemeByName(a.st.Theme)
	if !ok {
		th = render.Light()
	}
	a.lastList = a.run.Frame(a.player.T, scene.View{W: w, H: h, Theme: th})
	return a.lastList
}

// stateJSON is window.commlab.state() before it becomes a JS object: only
// types js.ValueOf accepts (maps, slices of any, strings, numbers, bools).
func (a *app) State(w, h int) map[string]any {
	a.sync()
	params := make(map[string]any, len(a.st.Values))
	for k, v := range a.st.Values {
		params[k] = v
	}
	numbers := map[string]any{}
	for k, v := range a.run.Numbers() {
		numbers[k] = v
	}
	info := a.sc.Info()
	rep := scene.Report(a.run)
	results := make([]any, len(rep))
	for i, n := range rep {
		results[i] = map[string]any{"key": n.Key, "label": n.Label, "value": n.Value, "unit": n.Unit.String(), "text": n.Text(info)}
	}
	progress := 1.0
	var pending any // null unless building: the values being built
	if a.job != nil {
		progress = a.job.Progress()
		next := a.job.c.next
		pv := make(map[string]any, len(next.Values))
		for k, v := range next.Values {
			pv[k] = v
		}
		pending = map[string]any{"params": pv, "seed": float64(next.Seed), "seedText": strconv.FormatUint(next.Seed, 10)}
	}
	notices := make([]any, len(a.notices))
	for i, n := range a.notices {
		notices[i] = map[string]any{"key": n.Key, "message": n.Message}
	}
	errs := make([]any, len(a.errs))
	for i, e := range a.errs {
		errs[i] = map[string]any{"key": e.Key, "value": scene.Cut(e.Value), "want": e.Want, "message": message(e)}
	}
	return map[string]any{
		"scene":        a.st.Scene,
		"params":       params,
		"seed":         float64(a.st.Seed),
		"seedText":     strconv.FormatUint(a.st.Seed, 10),
		"t":            a.player.T,
		"end":          a.player.End,
		"steps":        floatsAny(a.player.Steps),
		"playing":      a.player.Playing,
		"speed":        a.player.Speed,
		"speeds":       floatsAny(scene.Speeds),
		"playSeconds":  scene.PlaySeconds,
		"theme":        a.st.Theme,
		"themes":       stringsAny(render.ThemeNames),
		"embed":        a.st.Embed,
		"scale":        a.st.Scale,
		"visible":      !a.hidden,
		"autoplay":     a.st.Autoplay,
		"loop":         a.player.Loop,
		"query":        a.query,
		"numbers":      numbers,
		"results":      results,
		"notices":      notices,
		"timeText":     scene.Time(info, a.player.T),
		"endText":      scene.Time(info, a.player.End),
		"errors":       errs,
		"frames":       float64(a.frames),
		"draws":        float64(a.draws),
		"baseDraws":    float64(a.baseDraws),
		"firstFrameMs": a.firstFrameMs,
		"layoutMs":     a.layoutMs.Value(),
		"paintMs":      a.paintMs.Value(),
		"width":        w,
		"height":       h,
		"run":          float64(a.runID),
		"building":     a.job != nil,
		"progress":     progress,
		"pending":      pending,
		"buildMs":      a.buildSeconds * 1000,
		"paper":        a.paperNumbers(),
	}
}

// paperNumbers is state().paper: the paper's numbers beside the run
// shown's, [] off the paper's points. Each is {what, by, paper,
// paperText, source, ours, oursSE, oursText, unit, note}; by is who
// published it ("paper", "slides", "LogGOPSim"), the texts are written
// with the paper's decimals and oursSE is 0 for an exact number.
func (a *app) paperNumbers() []any {
	if a.paperRun != a.runID {
		a.paper, a.paperRun = scene.PaperPoint(a.sc, a.st.Values, a.run.Numbers()), a.runID
	}
	info := a.sc.Info()
	out := make([]any, len(a.paper))
	for i, n := range a.paper {
		out[i] = map[string]any{
			"what": n.What, "by": n.ByText(), "paper": n.Paper, "paperText": n.PaperText(info), "source": n.Source,
			"ours": n.Ours, "oursSE": n.OursSE, "oursText": n.OursText(info), "unit": n.Unit.String(), "note": n.Note,
		}
	}
	return out
}

func floatsAny(xs []float64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func stringsAny(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// Scenes is window.commlab.scenes().
func (a *app) Scenes() []any {
	out := make([]any, len(a.reg))
	for i, sc := range a.reg {
		in := sc.Info()
		places := []any{} // an empty array, never null, for a scene with none
		for _, p := range catalog.Places(in.Name) {
			places = append(places, map[string]any{"page": p.Page, "anchor": p.Anchor, "label": p.Label, "href": p.Href()})
		}
		out[i] = map[string]any{"name": in.Name, "title": in.Title, "paper": in.Paper, "summary": in.Summary, "time_unit": in.TimeUnit, "seed": float64(in.Seed),
			"places": places}
	}
	return out
}

// Fields is window.commlab.fields(): the current scene's fields with the
// current value beside the default.
func (a *app) Fields() []any {
	fs := a.sc.Fields()
	out := make([]any, len(fs))
	for i, f := range fs {
		m := map[string]any{
			"key": f.Key, "label": f.Label, "unit": f.Unit, "help": f.Help, "type": f.Type,
			"min": f.Min, "max": f.Max, "open_min": f.OpenMin, "pow2": f.Pow2, "log": f.Log,
			"choices": stringsAny(f.Choices), "default": f.Default, "want": f.Want(),
			"depends_on": stringsAny(f.DependsOn),
		}
		// Where the default and the range follow other fields, the page
		// shows them for the current values (T's default is K = log2 P).
		if f.DefaultFor != nil {
			m["default"] = f.DefaultFor(a.st.Values)
		}
		if f.RangeFor != nil {
			r := f.Current(a.st.Values)
			m["range_min"], m["range_max"], m["range_why"] = r.Lo, r.Hi, r.Why
		}
		out[i] = m
	}
	return out
}

// urlThrottle is the least time between address-bar updates while the
// playhead moves: browsers rate-limit history.replaceState.
const urlThrottle = 1.0 // s

// eventThrottle is the least time between "commlab-state" events while
// only the playhead moves: enough for a smooth scrub bar.
const eventThrottle = 0.1 // s

// publisher decides when the page hears of a change: a discrete change at
// once, a moving playhead at most every urlThrottle (address bar) or
// eventThrottle (event) seconds.
type publisher struct {
	lastURL, lastEvent float64 // seconds, on the page's clock
}

// Due says, at time now (s), whether to write query to the address bar,
// which shows shown, and whether to send the state event. force is a
// discrete change; otherwise only a moving playhead changes the query.
func (p *publisher) Due(now float64, force bool, query, shown string) (url, event bool) {
	if force {
		p.lastURL, p.lastEvent = now, now
		return query != shown, true
	}
	if query == shown {
		return false, false
	}
	if now-p.lastURL >= urlThrottle {
		p.lastURL, url = now, true
	}
	if now-p.lastEvent >= eventThrottle {
		p.lastEvent, event = now, true
	}
	return url, event
}

// mean is a running mean over the last about 30 samples (an exponential
// moving average), for per-frame costs.
type mean struct {
	v float64
	n int
}

func (m *mean) add(x float64) {
	m.n++
	w := max(1/float64(m.n), 1.0/30)
	m.v += w * (x - m.v)
}

// Value is the mean so far (0 before any sample).
func (m *mean) Value() float64 { return m.v }
