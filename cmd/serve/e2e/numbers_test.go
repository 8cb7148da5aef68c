//go:build !(js && wasm)

package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"commlab/engine/allreduce"
	"commlab/engine/trace"
	"commlab/scene"
	"commlab/scene/butterfly"
)

// numbersCase is one query for the numbers test: field values (as
// setParams takes them) and a seed.
type numbersCase struct {
	params map[string]any
	seed   uint64
}

// allreduceCases cover both drawings (P ≤ 64 in full, the heat-strip
// above), both noise sources on and off, and seeds beyond 2^32.
var allreduceCases = []numbersCase{
	{map[string]any{"P": 128, "T": 4}, 12345},
	{map[string]any{"P": 8, "T": 3, "co_scheduled": true}, 7},
	{map[string]any{"P": 1024, "T": 10, "os_jitter": false}, 99},
	{map[string]any{"P": 4096, "T": 12, "net_noise": "0", "alpha": "1e-5"}, 1 << 40},
}

// TestNumbersMatchNative sets parameters and a seed on every scene and
// compares the numbers the page reports, bit for bit, with the same scene
// built natively, and for the allreduce scenes with a plain
// allreduce.Simulator run of trial 0: the page runs the engine, not an
// approximation of it.
func TestNumbersMatchNative(t *testing.T) {
	reg := scenes(t)
	s := newSession(t, serveScenes(t))
	allreduceKeys := fieldKeys(butterfly.Fields())
	for _, sc := range reg {
		name := sc.Info().Name
		t.Run(name, func(t *testing.T) {
			s.t = t
			// An allreduce scene has every allreduce field (the jitter
			// scene adds its own).
			isAllreduce := !slices.ContainsFunc(allreduceKeys, func(k string) bool {
				return !slices.Contains(fieldKeys(sc.Fields()), k)
			})
			cases := []numbersCase{{nil, 3}}
			if isAllreduce {
				cases = allreduceCases
			}
			for i, c := range cases {
				values := scene.Defaults(sc.Fields())
				for k, v := range c.params {
					f := sc.Fields()[slices.Index(fieldKeys(sc.Fields()), k)]
					canon, err := f.Parse(fmt.Sprint(v))
					if err != nil {
						t.Fatalf("case %d: %v", i, err)
					}
					values[k] = canon
				}
				if i == 0 {
					// The first case comes from the URL, the others from setParams.
					q := url.Values{"scene": {name}, "seed": {fmt.Sprint(c.seed)}}
					for k, v := range values {
						q.Set(k, v)
					}
					s.openScene(q.Encode())
				} else {
					// Every field, so none keeps the previous case's value;
					// the case's own as given (numbers, bools, strings).
					obj := map[string]any{"seed": c.seed}
					for k, v := range values {
						obj[k] = v
					}
					for k, v := range c.params {
						obj[k] = v
					}
					if r := s.setParams(obj); !r.OK {
						t.Fatalf("setParams(%v) = %+v", obj, r)
					}
				}
				s.waitFor(fmt.Sprintf("case %d's parameters", i), paramsAre(values, c.seed), 20*time.Second)

				run, err := sc.Build(values, c.seed)
				if err != nil {
					t.Fatalf("case %d: native Build(%v, %d): %v", i, values, c.seed, err)
				}
				want := map[string]string{}
				for k, x := range run.Numbers() {
					want[k] = bits(x)
				}
				got := s.numberBits()
				if !reflect.DeepEqual(got, want) {
					t.Errorf("case %d (%v seed %d): page numbers %v\nnative Build's %v", i, values, c.seed, s.state().Numbers, run.Numbers())
				}
				if !isAllreduce {
					continue
				}
				p, err := butterfly.Params(values)
				if err != nil {
					t.Fatal(err)
				}
				var sim allreduce.Simulator
				res, err := sim.Run(p, scene.RNG(c.seed, 0), nil)
				if err != nil {
					t.Fatal(err)
				}
				for key, x := range map[string]float64{"conventional": res.ByT[0], "redundant": res.ByT[p.T]} {
					if got[key] != bits(x) {
						t.Errorf("case %d (%v seed %d): state().numbers.%s = %v (bits %s), the engine's is %v (bits %s)",
							i, values, c.seed, key, s.state().Numbers[key], got[key], x, bits(x))
					}
				}
				t.Logf("case %d: P=%s T=%s seed %d: conventional %s, redundant %s, as natively",
					i, values["P"], values["T"], c.seed, scene.Seconds(res.ByT[0]), scene.Seconds(res.ByT[p.T]))
			}
		})
	}
	s.t = t
}

// paramsAre is JS that is true when state() shows values and seed.
func paramsAre(values scene.Values, seed uint64) string {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var pairs [][2]string
	for _, k := range keys {
		pairs = append(pairs, [2]string{k, values[k]})
	}
	js, _ := json.Marshal(pairs)
	return fmt.Sprintf(`(() => { const st = window.commlab.state();
		return String(st.seed) === %q && JSON.stringify(Object.entries(st.params).sort()) === %q; })()`,
		fmt.Sprint(seed), string(js))
}

func fieldKeys(fields []scene.Field) []string {
	ks := make([]string, len(fields))
	for i, f := range fields {
		ks[i] = f.Key
	}
	return ks
}

// TestExports checks the export API: pngDataURL is a PNG of the canvas
// size with a picture in it, and traceJSON is the run's Chrome trace, the
// same events as trace.WriteChrome writes natively.
func TestExports(t *testing.T) {
	reg := scenes(t)
	s := newSession(t, serveScenes(t))
	const query = "scene=butterfly&P=16&T=2&seed=5"
	st := s.openScene(query)

	dataURL := eval[string](s, `window.commlab.pngDataURL()`)
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(dataURL, prefix) {
		t.Fatalf("pngDataURL() starts %.40q, want %s", dataURL, prefix)
	}
	raw, err := base64.StdEncoding.DecodeString(dataURL[len(prefix):])
	if err != nil {
		t.Fatalf("pngDataURL(): %v", err)
	}
	s.keep("export.png", raw)
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("pngDataURL() is not a PNG: %v", err)
	}
	if b := img.Bounds(); float64(b.Dx()) != st.Width || float64(b.Dy()) != st.Height {
		t.Errorf("pngDataURL() is %dx%d, the canvas %vx%v", b.Dx(), b.Dy(), st.Width, st.Height)
	}
	checkPicture(t, "the exported PNG", img)
	// The browser encodes the rasteriser's pixels (wasm/png.go): exact
	// for opaque pixels, which a frame over its theme's background has.
	if x, y, ok := translucentPixel(img); ok {
		t.Errorf("pngDataURL() has a translucent pixel at (%d, %d): the canvas may round it", x, y)
	}

	var got struct {
		TraceEvents []any `json:"traceEvents"`
	}
	if err := json.Unmarshal([]byte(eval[string](s, `window.commlab.traceJSON()`)), &got); err != nil {
		t.Fatalf("traceJSON() is not JSON: %v", err)
	}
	if len(got.TraceEvents) == 0 {
		t.Fatal("traceJSON() has no traceEvents")
	}
	nat, _ := scene.ParseQuery(query, reg)
	sc, _ := reg.Lookup("butterfly")
	run, err := sc.Build(nat.Values, nat.Seed)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := trace.WriteChrome(&buf, run.Trace()); err != nil {
		t.Fatal(err)
	}
	var want struct {
		TraceEvents []any `json:"traceEvents"`
	}
	if err := json.Unmarshal(buf.Bytes(), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.TraceEvents, want.TraceEvents) {
		t.Errorf("traceJSON() has %d events, not the %d trace.WriteChrome writes for the same run", len(got.TraceEvents), len(want.TraceEvents))
	}

	// WebM for slides: a second of the canvas through MediaRecorder. The
	// recording is a WebM (EBML) file with frames in it, not an empty
	// container.
	webm := eval[struct {
		Size int    `json:"size"`
		Type string `json:"type"`
		Head []int  `json:"head"`
	}](s, `window.commlab.recordWebM(1).then(async (b) => ({size: b.size, type: b.type, head: Array.from(new Uint8Array(await b.slice(0, 4).arrayBuffer()))}))`)
	t.Logf("recordWebM(1): %d bytes of %s", webm.Size, webm.Type)
	if webm.Type != "video/webm" || webm.Size < 2000 || !reflect.DeepEqual(webm.Head, []int{0x1a, 0x45, 0xdf, 0xa3}) {
		t.Errorf("recordWebM(1): %d bytes of %q starting % x; want a WebM (EBML magic 1a 45 df a3) of a few KB at least", webm.Size, webm.Type, webm.Head)
	}
}

// translucentPixel finds a pixel of img that is not opaque.
func translucentPixel(img image.Image) (x, y int, ok bool) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0xffff {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}
