package schedule

import (
	"flag"
	"fmt"
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"commlab/render"
	"commlab/render/raster"
	"commlab/render/raster/rastertest"
	"commlab/scene"
	"commlab/scene/scenetest"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// goldenCases: the defaults (recursive doubling under set A and set B)
// mid-run in both themes and finished; the binomial broadcast against the
// linear alltoall with OS and network noise; a 1024-rank dissemination as
// heat-strips.
var goldenCases = []struct {
	set  map[string]string
	th   render.Theme
	frac float64
	name string
}{
	{nil, render.Light(), 0.5, "recdoub-light.png"},
	{nil, render.Dark(), 0.5, "recdoub-dark.png"},
	{nil, render.Light(), 1, "recdoub-light-end.png"},
	{map[string]string{"file": "dissemination_16", "compare": "file", "file2": "linear_alltoall_8", "noise": "os+net"}, render.Light(), 0.7, "noise-light.png"},
	{map[string]string{"file": bigKey, "compare": "none"}, render.Light(), 0.6, "strips-light.png"},
}

// bigKey is a 1024-rank dissemination barrier added as a page would.
var bigKey = func() string {
	key, err := AddFile(KindURL, "dissemination_1024.goal", []byte(dissemination(1024)))
	if err != nil {
		panic(err)
	}
	return key
}()

// dissemination writes the dissemination barrier on n ranks in GOAL, as
// Schedgen does (see examples/ex_dissemination_16.goal).
func dissemination(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "num_ranks %d\n", n)
	for r := range n {
		fmt.Fprintf(&b, "\nrank %d {\n", r)
		l := 0
		for d := 1; d < n; d *= 2 {
			l++
			fmt.Fprintf(&b, "l%d: send 8b to %d tag 0\n", 2*l-1, (r+d)%n)
			fmt.Fprintf(&b, "l%d: recv 8b from %d tag 0\n", 2*l, (r-d+n)%n)
			if l > 1 {
				fmt.Fprintf(&b, "l%d requires l%d\n", 2*l-1, 2*l-2)
			}
		}
		b.WriteString("}\n")
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			r := scenetest.Build(t, New(), c.set, 1)
			got := raster.Image(r.Frame(r.End()*c.frac, scene.View{W: 960, H: 540, Theme: c.th}), 1)
			rastertest.Golden(t, filepath.Join("testdata", c.name), got, *update, "go test ./scene/schedule -run Golden -update")
		})
	}
}

// TestGoldenNotBlank guards the goldens: the mid-run frame paints many
// pixels in the send, receive and critical-path colours.
func TestGoldenNotBlank(t *testing.T) {
	r := scenetest.Build(t, New(), nil, 1)
	for _, th := range []render.Theme{render.Light(), render.Dark()} {
		img := raster.Image(r.Frame(r.End()*0.5, scene.View{W: 960, H: 540, Theme: th}), 1)
		scenetest.NotBlank(t, img, map[string]color.Color{
			"send": th.Send, "receive": th.Receive, "critical": th.Critical,
		}, 0, 50, th.Name)
	}
}
