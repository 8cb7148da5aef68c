package catalog

import (
	"bytes"

	"image"
	"testing"

	"commlab/render"
	"commlab/render/raster"
	"commlab/scene"
)

// TestRepaintWhilePlaying plays every scene with its defaults at 30 frames
// a second of the page's clock and checks, frame by frame, that repainting
// only what render.Damage finds changed gives the picture a fresh paint
// gives: the page paints its canvas this way, so a scene item whose bounds
// Damage underestimates would leave trails on the page. It also reports
// how much of the canvas a frame repaints on average.
func TestRepaintWhilePlaying(t *testing.T) {
	const fps = 15
	frames := int(scene.PlaySeconds * fps)
	if testing.Short() {
		frames /= 4
	}
	for _, sc := range All() {
		for _, th := range []string{"light"} {
			name := sc.Info().Name
			t.Run(name+"/"+th, func(t *testing.T) {
				t.Parallel()
				theme, _ := render.ThemeByName(th)
				st := scene.Default(sc)
				run, err := sc.Build(st.Values, st.Seed)
				if err != nil {
					t.Fatal(err)
				}
				view := scene.View{W: 960, H: 540, Theme: theme}
				var d render.Damage
				var p raster.Painter
				img := image.NewRGBA(image.Rect(0, 0, 960, 540))
				var area, partial float64
				for i := 0; i <= frames; i++ {
					at := run.End() * float64(i) / float64(frames)
					l := run.Frame(at, view)
					regions, full := p.Repaint(img, l, 1, &d)
					switch {
					case full:
						area += 1
					default:
						partial++
						for _, r := range regions {
							area += float64(r.Dx()*r.Dy()) / (960 * 540)
						}
					}
					if want := raster.Image(l, 1); !bytes.Equal(img.Pix, want.Pix) {
						t.Fatalf("frame %d (t = %v): repainting %v (full %v) differs from a fresh paint", i, at, regions, full)
					}
				}
				t.Logf("%s: %.0f%% of frames repainted in part; %.1f%% of the canvas repainted a frame on average",
					name, 100*partial/float64(frames+1), 100*area/float64(frames+1))
				if partial == 0 {
					t.Errorf("no frame was repainted in part")
				}
			})
		}
	}
}
