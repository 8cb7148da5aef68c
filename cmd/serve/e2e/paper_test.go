//go:build !(js && wasm)

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	enbc "commlab/engine/nbc"
)

// paperNumber is one of state().paper.
type paperNumber struct {
	What      string  `json:"what"`
	By        string  `json:"by"`
	Paper     float64 `json:"paper"`
	PaperText string  `json:"paperText"`
	Source    string  `json:"source"`
	Ours      float64 `json:"ours"`
	OursSE    float64 `json:"oursSE"`
	OursText  string  `json:"oursText"`
	Unit      string  `json:"unit"`
	Note      string  `json:"note"`
}

// paperTCC is the TCC scene at the paper's Fig. 2 setup, by its URL keys.
const paperTCC = "scene=tcc&nodes=32&msg=500000&matrix=30000&collectives=1&cores=16&oversubscribe=0&test_every=1"

// paperBoxJS reads the panel's "Against the paper" box: whether it shows,
// its heading and its lines.
const paperBoxJS = `(() => ({
	shown: ((el) => !!el && !el.hidden && el.getClientRects().length > 0)(document.getElementById('paper-point')),
	heading: document.getElementById('h-paper-point').textContent,
	items: [...document.querySelectorAll('#paper-list li')].map((li) => li.textContent),
}))()`

type paperBox struct {
	Shown   bool     `json:"shown"`
	Heading string   `json:"heading"`
	Items   []string `json:"items"`
}

// TestPaperPoint: a scene whose URL is one of its paper's points shows the
// paper's number beside ours in its panel, and state().paper has both;
// ours is the run's own number and the engine's, bit for bit. A change off
// the point takes the box away, a change back brings it back; an embedded
// scene shows no box (its state still has the numbers).
func TestPaperPoint(t *testing.T) {
	base := serveScenes(t)
	s := newSession(t, base)

	st := s.openScene(paperTCC)
	pp := eval[[]paperNumber](s, `window.commlab.state().paper`)
	if len(pp) != 2 {
		t.Fatalf("tcc at Fig. 2's setup: state().paper has %d numbers, want 2: %+v", len(pp), pp)
	}
	for i, c := range []struct {
		m   enbc.Method
		key string
	}{{enbc.TCC, "speedup"}, {enbc.NBCFTest, "nbcf_speedup"}} {
		res, err := enbc.Run(enbc.Paper32Nodes(c.m), nil)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := enbc.PaperSpeedupOf(32, c.m)
		n := pp[i]
		if n.Paper != want.Speedup || n.Source != want.Source || n.By != "paper" || n.Ours != st.Numbers[c.key] || bits(n.Ours) != bits(res.Speedup) {
			t.Errorf("%s: %+v; want paper %v (%s), ours %v = the run's %s %v", c.m, n, want.Speedup, want.Source, res.Speedup, c.key, st.Numbers[c.key])
		}
	}
	box := eval[paperBox](s, paperBoxJS)
	if !box.Shown || box.Heading != "Against the paper" || len(box.Items) != 2 {
		t.Fatalf("tcc at Fig. 2's setup: the box %+v, want it shown with 2 lines", box)
	}
	for i, n := range pp {
		for _, want := range []string{n.What, "paper: " + n.PaperText + " (" + n.Source + ")", " · commlab: " + n.OursText} {
			if !strings.Contains(box.Items[i], want) {
				t.Errorf("line %d %q lacks %q", i, box.Items[i], want)
			}
		}
	}
	t.Logf("tcc: %s", strings.Join(box.Items, " | "))

	if r := s.setParams(map[string]any{"collectives": 2}); !r.OK {
		t.Fatalf("setParams: %+v", r.Errors)
	}
	s.waitFor("the box to go off the paper's point", `window.commlab.state().paper.length === 0 && document.getElementById('paper-point').hidden`, 5*time.Second)
	if r := s.setParams(map[string]any{"collectives": 1}); !r.OK {
		t.Fatalf("setParams: %+v", r.Errors)
	}
	s.waitFor("the box to come back", `window.commlab.state().paper.length === 2 && !document.getElementById('paper-point').hidden`, 5*time.Second)

	// The slides (logp) and LogGOPSim (schedule) name themselves.
	for _, c := range []struct{ query, heading, by string }{
		{"scene=logp&P=3&Ls=10.76&sigma=1.755&seed=3", "Against the slides", "slides"},
		{"scene=schedule", "Against LogGOPSim", "LogGOPSim"},
		{"scene=mmdl", "Against the paper", "paper"},
	} {
		s.openScene(c.query)
		pp := eval[[]paperNumber](s, `window.commlab.state().paper`)
		box := eval[paperBox](s, paperBoxJS)
		if len(pp) == 0 || !box.Shown || box.Heading != c.heading || len(box.Items) != len(pp) {
			t.Errorf("%s: %d numbers, box %+v; want some under %q", c.query, len(pp), box, c.heading)
			continue
		}
		for _, n := range pp {
			if n.By != c.by || n.PaperText == "" || n.OursText == "" {
				t.Errorf("%s: %+v", c.query, n)
			}
			if c.by == "LogGOPSim" && n.Paper != n.Ours {
				t.Errorf("%s: LogGOPSim %v, commlab %v", c.query, n.Paper, n.Ours)
			}
			if c.by == "slides" && !(n.OursSE > 0) {
				t.Errorf("%s: a Monte Carlo number without its standard error: %+v", c.query, n)
			}
		}
		t.Logf("%s: %s", c.query, strings.Join(box.Items, " | "))
	}

	// Off every point: the scenes' defaults for butterfly and tcc.
	for _, q := range []string{"scene=butterfly", "scene=tcc"} {
		s.openScene(q)
		if n := eval[int](s, `window.commlab.state().paper.length`); n != 0 {
			t.Errorf("%s: %d paper numbers, want none", q, n)
		}
		if box := eval[paperBox](s, paperBoxJS); box.Shown {
			t.Errorf("%s: the box shows: %+v", q, box)
		}
	}

	s.openScene("scene=mmdl&embed=1")
	if n := eval[int](s, `window.commlab.state().paper.length`); n != 2 {
		t.Errorf("embedded mmdl: state().paper has %d numbers, want 2", n)
	}
	if box := eval[paperBox](s, paperBoxJS); box.Shown || len(box.Items) != 0 {
		t.Errorf("embedded mmdl: the box %+v, want none", box)
	}
}

// TestPaperPointWidths: the box fits at 1280 and at 390 CSS pixels
// (nothing scrolls sideways, no line wider than the panel); with
// COMMLAB_E2E_SHOTS it keeps the page and the panel's head of every scene
// that shows a paper's number, for a person to look at.
func TestPaperPointWidths(t *testing.T) {
	base := serveScenes(t)
	queries := []string{paperTCC, "scene=mmdl", "scene=logp&P=3&Ls=10.76&sigma=1.755&seed=3", "scene=schedule"}
	for _, w := range []int{1280, 390} {
		h := 800
		if w == 390 {
			h = 844
		}
		s := newSession(t, base)
		if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(int64(w), int64(h))); err != nil {
			t.Fatal(err)
		}
		for _, q := range queries {
			s.openScene(q)
			name := strings.SplitN(strings.TrimPrefix(q, "scene="), "&", 2)[0]
			what := fmt.Sprintf("%s at %d px", name, w)
			if sw := eval[float64](s, `document.documentElement.scrollWidth`); sw > float64(w) {
				t.Errorf("%s: the page is %v px wide: it scrolls sideways", what, sw)
			}
			panel := s.rectOf(`document.getElementById('panel')`)
			over := eval[int](s, `[...document.querySelectorAll('#paper-list li')].filter((li) => li.scrollWidth > li.clientWidth + 1).length`)
			box := s.rectOf(`document.getElementById('paper-point')`)
			if over > 0 || box.W < 1 || box.X < panel.X-0.5 || box.X+box.W > panel.X+panel.W+0.5 {
				t.Errorf("%s: the box %+v in the panel %+v, %d lines wider than it", what, box, panel, over)
			}
			// The bar's time ("44.2 additions / 44.2 additions" for logp)
			// fits beside the buttons: the bar clips what overflows it.
			tm := s.rectOf(`document.getElementById('time')`)
			bar := s.rectOf(`document.querySelector('.transport')`)
			clipped := eval[bool](s, `((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)(document.getElementById('time'))`)
			if tm.W < 1 || clipped || tm.X+tm.W > float64(w)+0.5 || tm.Y < bar.Y-0.5 || tm.Y+tm.H > bar.Y+bar.H+0.5 {
				t.Errorf("%s: the bar's time %+v does not fit in the bar %+v (its text clipped: %v)", what, tm, bar, clipped)
			}
			s.snap(fmt.Sprintf("paper-%s-%d.png", name, w))
			eval[any](s, `document.getElementById('paper-point').scrollIntoView({block: 'center'})`)
			s.snap(fmt.Sprintf("paper-%s-%d-box.png", name, w))
		}
	}
}
