package main

import (
	"errors"
	"strings"
	"testing"

	"commlab/engine/trace"
	"commlab/render"
	"commlab/scene"
	"commlab/scene/catalog"
)

// testScene has one field of each kind and a constraint between two fields
// that only Build checks, as the allreduce scenes' duration < period.
type testScene struct{ name string }

func (s testScene) Info() scene.Info { return scene.Info{Name: s.name, Title: "Test " + s.name} }
func (testScene) Fields() []scene.Field {
	return []scene.Field{
		{Key: "P", Label: "P", Kind: scene.Int, Type: "int", Min: 2, Max: 64, Pow2: true, Default: "8"},
		{Key: "period", Label: "period", Unit: "s", Kind: scene.Float, Type: "float", Min: 0, Max: 1, OpenMin: true, Log: true, Default: "0.001"},
		{Key: "duration", Label: "duration", Unit: "s", Kind: scene.Float, Type: "float", Min: 0, Max: 1, OpenMin: true, Log: true, Default: "1e-05"},
		{Key: "co", Label: "co", Kind: scene.Bool, Type: "bool", Default: "0"},
	}
}

func (testScene) Build(v scene.Values, seed uint64) (scene.Run, error) {
	if v.Float("duration") >= v.Float("period") {
		return nil, &scene.FieldError{Key: "duration", Value: v["duration"], Want: "less than period"}
	}
	// The run's length depends on P and the seed, so a rebuild shows.
	return testRun{end: float64(v.Int("P")) + float64(seed)}, nil
}

type testRun struct{ end float64 }

func (r testRun) End() float64     { return r.end }
func (r testRun) Steps() []float64 { return []float64{1, 2, 3} }
func (r testRun) Frame(t float64, v scene.View) render.List {
	return render.List{W: v.W, H: v.H, Background: v.Theme.Background}
}
func (testRun) Trace() *trace.Trace { return &trace.Trace{} }
func (r testRun) Numbers() map[string]float64 {
	return map[string]float64{"conventional": r.end}
}

var testReg = scene.Registry{testScene{"one"}, testScene{"two"}}

func keysOf(errs []*scene.FieldError) []string {
	var ks []string
	for _, e := range errs {
		ks = append(ks, e.Key)
	}
	return ks
}

func TestNewAppCanonicalQuery(t *testing.T) {
	a, err := newApp(testReg, "?scene=two&P=16&seed=3&t=2")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.errs) != 0 {
		t.Fatalf("errors %v", a.errs)
	}
	want := "scene=two&P=16&period=0.001&duration=1e-05&co=0&seed=3&t=2&speed=1&theme=light"
	if q := a.Query(); q != want {
		t.Errorf("query %q\nwant  %q", q, want)
	}
	if a.player.End != 19 || a.player.T != 2 {
		t.Errorf("end %v, t %v; want 19, 2", a.player.End, a.player.T)
	}
}

func TestNewAppBadURLKeepsGoodValues(t *testing.T) {
	a, err := newApp(testReg, "scene=nope&P=3&co=1&seed=x&t=1000")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(keysOf(a.errs), ",")
	// scene, P and seed from the query; t from the player (past the end).
	if got != "scene,P,seed,t" {
		t.Errorf("errors for %s, want scene,P,seed,t", got)
	}
	if a.st.Scene != "one" || a.st.Values["P"] != "8" || a.st.Values["co"] != "1" || a.player.T != 0 {
		t.Errorf("state %+v, t %v: want scene one, P default, co=1 kept, t=0", a.st, a.player.T)
	}
	for _, e := range a.State(1, 1)["errors"].([]any) {
		m := e.(map[string]any)
		if m["message"] == "" || m["key"] == "" {
			t.Errorf("error without key or message: %v", m)
		}
	}
}

func TestNewAppBuildErrorFallsBackToDefaults(t *testing.T) {
	a, err := newApp(testReg, "P=32&duration=0.5&period=0.1")
	if err != nil {
		t.Fatal(err)
	}
	if k := keysOf(a.errs); len(k) != 1 || k[0] != "duration" {
		t.Fatalf("errors %v, want one for duration", a.errs)
	}
	if a.st.Values["P"] != "8" || a.st.Values["duration"] != "1e-05" {
		t.Errorf("values %v, want the defaults", a.st.Values)
	}
}

func TestNewAppNoScenes(t *testing.T) {
	if _, err := newApp(nil, ""); err == nil {
		t.Fatal("no error for an empty registry")
	}
}

func TestSetParamsAllOrNothing(t *testing.T) {
	a, _ := newApp(testReg, "")
	before := a.Query()
	errs := a.SetParams(map[string]string{"P": "16", "co": "maybe", "seed": "-1"})
	if got := strings.Join(keysOf(errs), ","); got != "co,seed" {
		t.Fatalf("errors for %s, want co,seed", got)
	}
	if a.Query() != before {
		t.Errorf("a failed change changed the state: %s", a.Query())
	}
	if len(a.errs) != 2 {
		t.Errorf("page messages %v, want the two errors", a.errs)
	}
	// A constraint only Build knows: also nothing changes.
	errs = a.SetParams(map[string]string{"duration": "0.01"})
	if len(errs) != 1 || errs[0].Key != "duration" || a.Query() != before {
		t.Fatalf("Build error: %v, query %s", errs, a.Query())
	}
	id := a.runID
	if errs := a.SetParams(map[string]string{"P": "16.0", "seed": "2", "theme": "dark", "speed": "2", "loop": "true"}); errs != nil {
		t.Fatal(errs)
	}
	if a.runID == id || a.player.End != 18 {
		t.Errorf("no rebuild: run %d, end %v", a.runID, a.player.End)
	}
	// The bare URL opened at the end of the run, and the view stays at the
	// end of the new one.
	want := "scene=one&P=16&period=0.001&duration=1e-05&co=0&seed=2&t=18&speed=2&theme=dark&loop=1"
	if q := a.Query(); q != want {
		t.Errorf("query %q\nwant  %q", q, want)
	}
	if len(a.errs) != 0 {
		t.Errorf("messages %v after a good change", a.errs)
	}
	// The view settings alone do not rebuild.
	id = a.runID
	a.SetParams(map[string]string{"theme": "light"})
	if a.runID != id {
		t.Error("a theme change rebuilt the run")
	}
}

func TestSetParamsRejectsUnknownAndFixedKeys(t *testing.T) {
	a, _ := newApp(testReg, "")
	errs := a.SetParams(map[string]string{"bogus": "1", "scene": "two", "t": "1e9"})
	if got := strings.Join(keysOf(errs), ","); got != "bogus,scene" {
		t.Errorf("errors for %s, want bogus,scene", got)
	}
	if errs := a.SetParams(map[string]string{"t": "1e9"}); len(errs) != 1 || errs[0].Key != "t" || !strings.Contains(errs[0].Want, "[0, 9]") {
		t.Errorf("seek past the end: %v", errs)
	}
	if errs := a.SetParams(map[string]string{"t": "4.5"}); errs != nil || a.player.T != 4.5 {
		t.Errorf("t=4.5: %v, T = %v", errs, a.player.T)
	}
}

func TestSeekAndActions(t *testing.T) {
	a, _ := newApp(testReg, "t=0") // end 9, steps 1, 2, 3
	if errs := a.Seek(-1); len(errs) != 1 {
		t.Errorf("Seek(-1) errors %v", errs)
	}
	a.Do(actStepFwd)
	a.Do(actStepFwd)
	if a.player.T != 2 {
		t.Errorf("two steps: T = %v, want 2", a.player.T)
	}
	a.Do(actToggle)
	if !a.player.Playing {
		t.Error("toggle did not play")
	}
	a.Tick(scene.PlaySeconds / 9) // one ninth of a run of 9
	if a.player.T != 3 {
		t.Errorf("after a ninth of the play time: T = %v, want 3", a.player.T)
	}
	a.Do(actFaster)
	a.Do(actRestart)
	if a.player.Speed != 2 || a.player.T != 0 || !a.player.Playing {
		t.Errorf("faster+restart: speed %v, T %v, playing %v", a.player.Speed, a.player.T, a.player.Playing)
	}
	if !strings.Contains(a.Query(), "speed=2") {
		t.Errorf("query %s does not carry the speed", a.Query())
	}
}

func TestFrameKeyChangesOnlyWithThePicture(t *testing.T) {
	a, _ := newApp(testReg, "")
	k := a.Key(960, 540)
	a.Tick(0.1) // paused: nothing moves
	if a.Key(960, 540) != k {
		t.Error("the key changed while paused")
	}
	a.SetParams(map[string]string{"theme": "dark"})
	if a.Key(960, 540) == k {
		t.Error("the key did not change with the theme")
	}
	k = a.Key(960, 540)
	if a.Key(640, 360) == k {
		t.Error("the key did not change with the size")
	}
	a.SetParams(map[string]string{"seed": "5"})
	if a.Key(960, 540) == k {
		t.Error("the key did not change with the run")
	}
}

func TestStateHasTheContract(t *testing.T) {
	a, _ := newApp(testReg, "embed=1&autoplay=1")
	st := a.State(960, 540)
	for _, k := range []string{"scene", "params", "seed", "t", "end", "playing", "speed", "theme", "embed", "autoplay", "loop", "query", "numbers", "errors", "frames", "draws", "firstFrameMs", "width", "height"} {
		if _, ok := st[k]; !ok {
			t.Errorf("state() has no %q", k)
		}
	}
	if st["embed"] != true || st["playing"] != true || st["autoplay"] != true {
		t.Errorf("embed %v, playing %v, autoplay %v; want all true", st["embed"], st["playing"], st["autoplay"])
	}
	if n := st["numbers"].(map[string]any)["conventional"]; n != 9.0 {
		t.Errorf("numbers.conventional = %v, want 9", n)
	}
}

func TestFieldErrorOfPlainError(t *testing.T) {
	fe := fieldError(errors.New("engine says no"))
	if fe.Key != "run" || message(fe) != "engine says no" {
		t.Errorf("fieldError = %+v, message %q", fe, message(fe))
	}
}

func TestPublisher(t *testing.T) {
	var p publisher
	if url, ev := p.Due(0, true, "a", ""); !url || !ev {
		t.Error("a forced change must go out at once")
	}
	if url, ev := p.Due(0.05, false, "a", "a"); url || ev {
		t.Error("nothing changed, yet something went out")
	}
	if url, ev := p.Due(0.15, false, "b", "a"); url || !ev {
		t.Errorf("playhead moved after 0.15 s: url %v event %v; want the event only", url, ev)
	}
	if url, _ := p.Due(1.01, false, "c", "a"); !url {
		t.Error("no address-bar update after a second of playing")
	}
}

func TestBareURLShowsTheOutcome(t *testing.T) {
	a, _ := newApp(testReg, "scene=one")
	if a.player.T != a.player.End || a.player.Playing {
		t.Errorf("bare URL: T = %v (end %v), playing %v; want paused at the end", a.player.T, a.player.End, a.player.Playing)
	}
	if !strings.Contains(a.Query(), "&t=9&") {
		t.Errorf("query %q does not hold the playhead at the end (9)", a.Query())
	}
	a, _ = newApp(testReg, "scene=one&autoplay=1")
	if a.player.T != 0 || !a.player.Playing {
		t.Errorf("autoplay: T = %v, playing %v; want playing from 0", a.player.T, a.player.Playing)
	}
}

// TestScenesNamePlaces: scenes() hands the page each scene's places in the
// reports as the catalog lists them (the page links them), and an empty
// list, not null, for a scene with none.
func TestScenesNamePlaces(t *testing.T) {
	a, err := newApp(scene.Registry{catalog.Unchecked()[0], testScene{"one"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	ss := a.Scenes()
	first := ss[0].(map[string]any)
	want := catalog.Places(first["name"].(string))
	got, _ := first["places"].([]any)
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("%s: places %v; want the catalog's %v", first["name"], got, want)
	}
	for i, p := range want {
		m := got[i].(map[string]any)
		if m["page"] != p.Page || m["anchor"] != p.Anchor || m["label"] != p.Label || m["href"] != p.Href() {
			t.Errorf("place %d = %v; want %+v at %s", i, m, p, p.Href())
		}
	}
	if none, ok := ss[1].(map[string]any)["places"].([]any); !ok || none == nil || len(none) != 0 {
		t.Errorf("a scene with no places: %#v; want an empty list", ss[1].(map[string]any)["places"])
	}
}
