//go:build !(js && wasm)

package e2e

import (
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"commlab/scene"
	"commlab/scene/catalog"
)

// chromeIDs are the page's controls and panels (the page contract): the
// scene page has every one, embed mode shows none.
var chromeIDs = []string{"controls", "play", "step-back", "step-fwd", "slower", "faster", "speed",
	"scrub", "seed", "theme", "export-png", "export-webm", "export-trace", "embed-code", "copy-embed", "numbers"}

// scenes returns the catalog, failing when it is empty: the page has
// nothing to show then.
func scenes(t *testing.T) scene.Registry {
	t.Helper()
	reg := catalog.All()
	if len(reg) == 0 {
		t.Fatal("scene/catalog.All() lists no scenes: the page has nothing to load")
	}
	return reg
}

// TestScenes loads every scene of the catalog from a bare URL and checks
// what it reports against the same scene built natively, and that its
// canvas shows a picture.
func TestScenes(t *testing.T) {
	reg := scenes(t)
	s := newSession(t, serveScenes(t))
	for i, sc := range reg {
		name := sc.Info().Name
		t.Run(name, func(t *testing.T) {
			s.t = t
			st := s.openScene("scene=" + url.QueryEscape(name))

			if i == 0 {
				if v := eval[string](s, `window.commlab.version()`); v == "" {
					t.Error("commlab.version() is empty")
				} else {
					t.Logf("commlab.version() = %q", v)
				}
				var want []scene.Info
				for _, sc := range reg {
					want = append(want, sc.Info())
				}
				if got := eval[[]scene.Info](s, `window.commlab.scenes()`); !reflect.DeepEqual(got, want) {
					t.Errorf("commlab.scenes() =\n%+v\nwant the catalog's\n%+v", got, want)
				}
			}
			checkFields(t, eval[[]scene.Field](s, `window.commlab.fields()`), sc.Fields())

			// A bare URL is the scene's default state, and the address bar
			// then holds it in full, as State.Query writes it natively.
			def := scene.Default(sc)
			// ... shown at its most telling moment (scene.Moment), or its
			// end: a bare link shows the point of the run at once.
			run, err := sc.Build(def.Values, def.Seed)
			if err != nil {
				t.Fatal(err)
			}
			def.T = scene.InitialT("scene="+name, def, run)
			if st.Scene != name {
				t.Errorf("state().scene = %q, want %q", st.Scene, name)
			}
			if !reflect.DeepEqual(st.Params, map[string]string(def.Values)) {
				t.Errorf("state().params = %v, want the defaults %v", st.Params, def.Values)
			}
			if st.Seed != float64(def.Seed) || st.T != def.T || st.End != run.End() || st.Speed != 1 || st.Theme != def.Theme || st.Playing || st.Embed {
				t.Errorf("state() seed %v, t %v (end %v), speed %v, theme %q, playing %v, embed %v; want seed %d, t %v (scene.InitialT), speed 1, theme %q, paused, not embedded",
					st.Seed, st.T, st.End, st.Speed, st.Theme, st.Playing, st.Embed, def.Seed, def.T, def.Theme)
			}
			if want := def.Query(sc); st.Query != want {
				t.Errorf("state().query = %q, want %q (scene.State.Query)", st.Query, want)
			}
			s.settled("the bare URL")
			if len(st.Errors) > 0 {
				t.Errorf("state().errors = %+v for a bare URL", st.Errors)
			}
			if !(st.End > 0) || len(st.Numbers) == 0 {
				t.Errorf("state() end %v, numbers %v: want a run", st.End, st.Numbers)
			}

			// The page: the loading note gone, no error shown, every control
			// present, and one canvas (Ebiten's) the size state() says.
			if eval[bool](s, shown(`document.getElementById('status')`)) {
				t.Errorf("#status still shows %q after the first frame", eval[string](s, `document.getElementById('status').textContent`))
			}
			if eval[bool](s, shown(`document.getElementById('errors')`)) {
				t.Errorf("#errors shows %q for a bare URL", eval[string](s, `document.getElementById('errors').textContent`))
			}
			for _, id := range chromeIDs {
				if !eval[bool](s, shown(`document.getElementById('`+id+`')`)) {
					t.Errorf("#%s is missing or not shown", id)
				}
			}
			for _, f := range sc.Fields() {
				if !eval[bool](s, controlJS(f.Key)+` !== null`) {
					t.Errorf("no control [data-key=%s] in #controls", f.Key)
				}
				if !eval[bool](s, `document.querySelector('#controls .field-error[data-key="`+f.Key+`"]') !== null`) {
					t.Errorf("no .field-error[data-key=%s] in #controls", f.Key)
				}
			}
			if txt := eval[string](s, `document.getElementById('numbers') ? document.getElementById('numbers').textContent.trim() : ''`); txt == "" {
				t.Error("#numbers is empty")
			}
			if n := eval[int](s, `document.querySelectorAll('canvas').length`); n != 1 {
				t.Fatalf("%d canvases, want Ebiten's one", n)
			}
			box := s.rectOf(`document.querySelector('canvas')`)
			if box.W != st.Width || box.H != st.Height {
				t.Errorf("canvas is %vx%v CSS px, state() says %vx%v", box.W, box.H, st.Width, st.Height)
			}
			checkPicture(t, "the "+name+" canvas", s.shot("scene-"+name+".png", box))
		})
	}
	s.t = t
}

// checkFields compares commlab.fields() with the scene's Fields (Kind is
// not in the JSON; Type says it).
func checkFields(t *testing.T, got, want []scene.Field) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("commlab.fields() has %d fields, the scene %d", len(got), len(want))
		return
	}
	for i := range want {
		w, g := want[i], got[i]
		w.Kind, g.Kind = 0, 0
		// Functions are not in the JSON; depends_on is.
		w.DefaultFor, w.RangeFor = nil, nil
		if len(g.DependsOn) == 0 {
			g.DependsOn = nil
		}
		if len(g.Choices) == 0 {
			g.Choices = nil
		}
		if len(w.Choices) == 0 {
			w.Choices = nil
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("commlab.fields()[%d] =\n%+v\nwant\n%+v", i, g, w)
		}
	}
}

// TestControlsAndURL changes the view through the controls and through the
// API, checks that state() and the address bar follow, and that reloading
// the address reproduces the view exactly.
func TestControlsAndURL(t *testing.T) {
	s := newSession(t, serveScenes(t))
	before := s.openScene("scene=butterfly")

	// The controls in the DOM, as a person uses them. (P = 128 keeps the
	// default T = 6 within K = log2 P.)
	s.setControl("P", "128")
	s.waitFor("P=128 from its control", `window.commlab.state().params.P === "128"`, 10*time.Second)
	st := s.settled("after the P control")
	if !strings.Contains("&"+st.Query+"&", "&P=128&") {
		t.Errorf("state().query %q does not carry P=128", st.Query)
	}
	if reflect.DeepEqual(st.Numbers, before.Numbers) {
		t.Errorf("numbers %v did not change from P=64's: the run was not rebuilt", st.Numbers)
	}
	s.setControl("co_scheduled", "1")
	s.waitFor("co_scheduled=1 from its checkbox", `window.commlab.state().params.co_scheduled === "1"`, 10*time.Second)
	s.settled("after the co_scheduled control")

	// The API, with every kind of key it takes.
	if r := s.setParams(map[string]any{"T": 3, "alpha": 2e-6, "seed": 42, "speed": 2, "theme": "dark"}); !r.OK || len(r.Errors) > 0 {
		t.Fatalf("setParams of good values = %+v", r)
	}
	st = s.settled("after setParams")
	if st.Params["T"] != "3" || st.Params["alpha"] != "2e-06" || st.Seed != 42 || st.Speed != 2 || st.Theme != "dark" {
		t.Errorf("after setParams({T:3, alpha:2e-6, seed:42, speed:2, theme:'dark'}) state() has T %q, alpha %q, seed %v, speed %v, theme %q",
			st.Params["T"], st.Params["alpha"], st.Seed, st.Speed, st.Theme)
	}
	// The controls follow the API (the commlab-state event).
	s.waitFor("the T control to show 3", controlJS("T")+`.value === "3"`, 5*time.Second)
	s.waitFor("#seed to show 42", `document.getElementById('seed').value === "42"`, 5*time.Second)

	// The playhead, from seek and from the scrub bar.
	target := st.End / 3
	if r := s.call(fmt.Sprintf(`window.commlab.seek(%v)`, target)); !r.OK {
		t.Fatalf("seek(%v) = %+v", target, r)
	}
	st = s.settled("after seek")
	if st.T != target {
		t.Errorf("after seek(%v) state().t = %v", target, st.T)
	}

	// The query is canonical: the native parser reads it without error and
	// writes it back unchanged.
	reg := scenes(t)
	nat, errs := scene.ParseQuery(st.Query, reg)
	if len(errs) > 0 {
		t.Errorf("scene.ParseQuery(%q): %v", st.Query, errs)
	}
	sc, _ := reg.Lookup(nat.Scene)
	if sc != nil && nat.Query(sc) != st.Query {
		t.Errorf("the page's query is not canonical:\n page   %s\n native %s", st.Query, nat.Query(sc))
	}

	// Reload the address bar: the same view, the same run.
	href := eval[string](s, `location.href`)
	bitsBefore := s.numberBits()
	s.open(strings.TrimPrefix(href, s.base+"/"))
	s.waitFor("the reloaded page to draw", ready, bootTimeout)
	again := s.state()
	if err := sameState(st, again); err != nil {
		t.Errorf("reloading %s changed the view: %v", href, err)
	}
	if got := s.numberBits(); !reflect.DeepEqual(got, bitsBefore) {
		t.Errorf("reloading changed the numbers: %v, before %v", again.Numbers, st.Numbers)
	}
	if again.Playing {
		t.Error("the reloaded page plays without autoplay")
	}
}

// TestBadURL opens URLs with bad values: the page names each bad field and
// what it accepts, exactly as the native parser does, and shows the scene
// with the defaults in their place. The harness fails the test on any
// console error: bad input is the page's to report, not the console's.
func TestBadURL(t *testing.T) {
	reg := scenes(t)
	s := newSession(t, serveScenes(t))
	for _, query := range []string{
		"scene=butterfly&P=3",
		"scene=butterfly&alpha=abc&speed=3&seed=-1",
		"scene=nope&theme=pink",
	} {
		t.Run(query, func(t *testing.T) {
			s.t = t
			want, errs := scene.ParseQuery(query, reg)
			sc, _ := reg.Lookup(want.Scene)
			run, err := sc.Build(want.Values, want.Seed)
			if err != nil {
				t.Fatal(err)
			}
			want.T = scene.InitialT(query, want, run)
			st := s.openScene(query)

			var got []string
			for _, e := range st.Errors {
				got = append(got, fmt.Sprintf("%s=%q: %s", e.Key, e.Value, e.Want))
				if e.Message == "" || !strings.Contains(e.Message, e.Key) {
					t.Errorf("state().errors message %q does not name the field %s", e.Message, e.Key)
				}
			}
			var exp []string
			for _, err := range errs {
				fe := err.(*scene.FieldError)
				exp = append(exp, fmt.Sprintf("%s=%q: %s", fe.Key, fe.Value, fe.Want))
			}
			slices.Sort(got)
			slices.Sort(exp)
			if !slices.Equal(got, exp) {
				t.Errorf("state().errors:\n %s\nwant (scene.ParseQuery):\n %s", strings.Join(got, "\n "), strings.Join(exp, "\n "))
			}

			if !eval[bool](s, shown(`document.getElementById('errors')`)) {
				t.Error("#errors is not shown")
			}
			text := eval[string](s, `document.getElementById('errors').textContent`)
			for _, err := range errs {
				fe := err.(*scene.FieldError)
				if !strings.Contains(text, fe.Key) || !strings.Contains(text, fe.Want) {
					t.Errorf("#errors %q does not say %s wants %s", text, fe.Key, fe.Want)
				}
			}
			if role := eval[string](s, `document.getElementById('errors').getAttribute('role') || ''`); role != "alert" {
				t.Errorf("#errors has role %q, want alert", role)
			}

			// Recovered: the good values kept, the defaults for the bad.
			if st.Scene != want.Scene || !reflect.DeepEqual(st.Params, map[string]string(want.Values)) || st.Seed != float64(want.Seed) || st.Speed != want.Speed || st.Theme != want.Theme {
				t.Errorf("state() scene %q, params %v, seed %v, speed %v, theme %q; want %q, %v, %d, %v, %q",
					st.Scene, st.Params, st.Seed, st.Speed, st.Theme, want.Scene, want.Values, want.Seed, want.Speed, want.Theme)
			}
			if q := want.Query(sc); st.Query != q {
				t.Errorf("state().query = %q, want %q", st.Query, q)
			}
			if eval[bool](s, shown(`document.getElementById('status')`)) {
				t.Errorf("#status shows %q: a bad parameter must not stop the page", eval[string](s, `document.getElementById('status').textContent`))
			}
			checkPicture(t, "the canvas after a bad URL", s.shot("bad-url.png", s.rectOf(`document.querySelector('canvas')`)))
		})
	}
	s.t = t
}

// TestInvalidInput types bad values into the controls and the API: the
// error shows beside the control, nothing changes, the last valid run stays.
func TestInvalidInput(t *testing.T) {
	sc, _ := scenes(t).Lookup("butterfly")
	if sc == nil {
		t.Fatal("no butterfly scene in the catalog")
	}
	want := map[string]string{}
	for _, f := range sc.Fields() {
		want[f.Key] = f.Want()
	}
	s := newSession(t, serveScenes(t))
	before := s.openScene("scene=butterfly")
	bitsBefore := s.numberBits()
	unchanged := func(what string) {
		t.Helper()
		st := s.state()
		if !reflect.DeepEqual(st.Params, before.Params) || st.Seed != before.Seed || st.Query != before.Query {
			t.Errorf("%s changed the state: params %v seed %v, before %v seed %v", what, st.Params, st.Seed, before.Params, before.Seed)
		}
		if got := s.numberBits(); !reflect.DeepEqual(got, bitsBefore) {
			t.Errorf("%s changed the run: numbers %v, before %v", what, st.Numbers, before.Numbers)
		}
		if search := eval[string](s, `location.search`); search != "?"+before.Query {
			t.Errorf("%s changed the address bar to %s", what, search)
		}
	}
	fieldError := func(key string) string {
		return `document.querySelector('#controls .field-error[data-key="` + key + `"]')`
	}

	// A control: N = -5 is below N's range.
	s.setControl("N", "-5")
	s.waitFor("the N field error", shown(fieldError("N")), 5*time.Second)
	if txt := eval[string](s, fieldError("N")+`.textContent`); !strings.Contains(txt, want["N"]) {
		t.Errorf(".field-error[data-key=N] says %q, want it to say %q", txt, want["N"])
	}
	unchanged("N = -5 in its control")
	checkPicture(t, "the canvas after a bad control value", s.shot("bad-control.png", s.rectOf(`document.querySelector('canvas')`)))

	// A good value clears the error and is taken.
	s.setControl("N", "1000")
	s.waitFor("N=1000 from its control", `window.commlab.state().params.N === "1000"`, 10*time.Second)
	if eval[bool](s, shown(fieldError("N"))) && eval[string](s, fieldError("N")+`.textContent.trim()`) != "" {
		t.Errorf("the N field error still says %q after a good value", eval[string](s, fieldError("N")+`.textContent`))
	}
	before = s.settled("after N=1000")
	bitsBefore = s.numberBits()

	// The API is all or nothing: a bad P stops the good T too.
	r := s.setParams(map[string]any{"T": 2, "P": 3})
	if r.OK || len(r.Errors) != 1 || r.Errors[0].Key != "P" || r.Errors[0].Want != want["P"] || r.Errors[0].Value != "3" {
		t.Errorf("setParams({T: 2, P: 3}) = %+v, want not ok with one error: P \"3\" wants %s", r, want["P"])
	}
	s.waitFor("the P field error", shown(fieldError("P")), 5*time.Second)
	unchanged("setParams({T: 2, P: 3})")

	// A constraint between fields: the run cannot be built, so it is not.
	r = s.setParams(map[string]any{"period": 1e-3, "duration": 2e-3})
	if r.OK || len(r.Errors) == 0 {
		t.Errorf("setParams({period: 1e-3, duration: 2e-3}) = %+v, want an error (duration must be less than period)", r)
	} else if k := r.Errors[0].Key; k != "duration" && k != "period" {
		t.Errorf("setParams({period: 1e-3, duration: 2e-3}) blames %q, want duration or period", k)
	}
	unchanged("duration > period")

	// Bad values for the view's own keys.
	for _, obj := range []map[string]any{{"speed": 3}, {"theme": "pink"}, {"seed": -1}} {
		if r := s.setParams(obj); r.OK || len(r.Errors) != 1 {
			t.Errorf("setParams(%v) = %+v, want one error", obj, r)
		}
	}
	if r := s.call(`window.commlab.seek(-1)`); r.OK || len(r.Errors) == 0 {
		t.Errorf("seek(-1) = %+v, want an error", r)
	}
	unchanged("bad speed, theme, seed and seek")
}
