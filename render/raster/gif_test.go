//go:build !(js && wasm)

package raster

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"slices"
	"strings"
	"testing"
	"time"

	"commlab/render"
	"commlab/render/raster/rastertest"
)

// movingFrames is a short animation: the sampler with a playhead line
// moving across it, plus one frame repeated.
func movingFrames(th render.Theme) []render.List {
	var frames []render.List
	for i, x := range []float64{20, 60, 60, 100, 140} {
		l := sampler(th)
		l.Add(render.Line{From: pt(x, 0), To: pt(x, 160), Style: render.Style{Stroke: th.Playhead, Width: 2}},
			render.Text{At: pt(4, 12), S: strings.Repeat("|", i+1), Size: 10, Color: th.Ink})
		if i == 2 {
			l = frames[1] // the same picture again
		}
		frames = append(frames, l)
	}
	return frames
}

// composite plays a decoded GIF: each frame drawn over the last, as a
// viewer does with disposal "none".
func composite(g *gif.GIF) []*image.RGBA {
	canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	var out []*image.RGBA
	for _, f := range g.Image {
		draw.Draw(canvas, f.Bounds(), f, f.Bounds().Min, draw.Over)
		c := image.NewRGBA(canvas.Bounds())
		copy(c.Pix, canvas.Pix)
		out = append(out, c)
	}
	return out
}

func TestGIFRoundTrip(t *testing.T) {
	for _, th := range []render.Theme{render.Light(), render.Dark()} {
		t.Run(th.Name, func(t *testing.T) {
			frames := movingFrames(th)
			var buf bytes.Buffer
			if err := EncodeGIF(&buf, frames, 100*time.Millisecond, 2); err != nil {
				t.Fatal(err)
			}
			g, err := gif.DecodeAll(&buf)
			if err != nil {
				t.Fatal(err)
			}
			// Five lists, two of them the same picture: four frames, the
			// repeated one shown twice as long.
			if len(g.Image) != 4 {
				t.Fatalf("%d frames, want 4", len(g.Image))
			}
			if want := []int{10, 20, 10, 10}; !slices.Equal(g.Delay, want) {
				t.Errorf("delays %v cs, want %v", g.Delay, want)
			}
			if g.LoopCount != 0 {
				t.Errorf("loop count %d, want 0 (forever)", g.LoopCount)
			}
			if g.Config.Width != 480 || g.Config.Height != 320 {
				t.Errorf("size %dx%d, want 480x320", g.Config.Width, g.Config.Height)
			}
			if len(g.Image[0].Palette) > 256 {
				t.Errorf("%d colours", len(g.Image[0].Palette))
			}
			// Later frames store only what changed.
			if g.Image[1].Bounds() == g.Image[0].Bounds() {
				t.Errorf("frame 1 stored whole (%v); want only the changed part", g.Image[1].Bounds())
			}
			for i, got := range composite(g) {
				want := Image(frames[[]int{0, 1, 3, 4}[i]], 2)
				// Flat areas come out exactly; edges within the palette's
				// reach of their true blend.
				if bad, at := rastertest.Compare(got, want, 24); bad > 0 {
					t.Errorf("frame %d: %d pixels off by more than 24 levels (first at %v)", i, bad, at)
				}
				if bad, _ := rastertest.Compare(got, want, 4); bad > len(got.Pix)/4/100 {
					t.Errorf("frame %d: %d pixels off by more than 4 levels, want under 1%%", i, bad)
				}
				for _, c := range []color.RGBA{th.Background, th.Panel, th.Compute, th.Adopted} {
					if !hasColour(got, c) {
						t.Errorf("frame %d: theme colour %v is not in the picture exactly", i, c)
					}
				}
				if i == 0 && got.RGBAAt(0, 0) != th.Background {
					t.Errorf("background %v, want %v", got.RGBAAt(0, 0), th.Background)
				}
			}
		})
	}
}

func hasColour(img *image.RGBA, c color.RGBA) bool {
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] == c.R && img.Pix[i+1] == c.G && img.Pix[i+2] == c.B && img.Pix[i+3] == c.A {
			return true
		}
	}
	return false
}

func TestGIFDelaysAddUp(t *testing.T) {
	// 1/30 s is 3.33 cs: frames alternate 3 and 4 so that every tenth of a
	// second of the animation lands on time.
	l := func(x float64) render.List {
		return render.List{W: 8, H: 2, Background: white, Items: []render.Item{render.Rect{Min: pt(x, 0), Max: pt(x+1, 2), Style: render.Style{Fill: red}}}}
	}
	var frames []render.List
	for i := range 6 {
		frames = append(frames, l(float64(i)))
	}
	var buf bytes.Buffer
	if err := EncodeGIF(&buf, frames, time.Second/30, 1); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, d := range g.Delay {
		sum += d
		if d != 3 && d != 4 {
			t.Errorf("delay %d cs, want 3 or 4", d)
		}
	}
	if sum != 20 {
		t.Errorf("delays %v add to %d cs, want 20", g.Delay, sum)
	}
	// Few colours: the palette is exact.
	got := composite(g)
	for i, img := range got {
		if bad, at := rastertest.Compare(img, Image(frames[i], 1), 0); bad > 0 {
			t.Errorf("frame %d differs at %v", i, at)
		}
	}
}

func TestGIFTransparentBackground(t *testing.T) {
	l := func(x float64) render.List {
		return render.List{W: 4, H: 1, Items: []render.Item{render.Rect{Min: pt(x, 0), Max: pt(x+1, 1), Style: render.Style{Fill: red}}}}
	}
	var buf bytes.Buffer
	if err := EncodeGIF(&buf, []render.List{l(0), l(2)}, 50*time.Millisecond, 1); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// Frames with transparency are whole and cleared after showing, so the
	// first frame's red cannot linger under the second's transparency.
	for i, f := range g.Image {
		if f.Bounds() != image.Rect(0, 0, 4, 1) || g.Disposal[i] != gif.DisposalBackground {
			t.Errorf("frame %d: bounds %v disposal %d; want whole, disposal background", i, f.Bounds(), g.Disposal[i])
		}
	}
	if _, _, _, a := g.Image[1].At(0, 0).RGBA(); a != 0 {
		t.Errorf("frame 1 pixel 0 alpha %d, want transparent", a)
	}
	if got := g.Image[1].At(2, 0); !sameColour(got, red) {
		t.Errorf("frame 1 pixel 2 = %v, want red", got)
	}
}

func sameColour(a, b color.Color) bool {
	r0, g0, b0, a0 := a.RGBA()
	r1, g1, b1, a1 := b.RGBA()
	return r0 == r1 && g0 == g1 && b0 == b1 && a0 == a1
}

func TestMedianCutKeepsFlatColoursExact(t *testing.T) {
	// Many distinct colours (a smooth ramp on a big flat field): the field
	// colour is kept exactly and every ramp colour maps near itself.
	l := render.List{W: 300, H: 300, Background: color.RGBA{0x14, 0x17, 0x1c, 0xff}}
	g := render.Grid{Min: pt(0, 0), Max: pt(300, 20), Cols: 300, Rows: 20}
	for i := range 300 * 20 {
		x, y := i%300, i/300
		g.Cells = append(g.Cells, color.RGBA{uint8(x * 255 / 299), uint8(y * 12), uint8(255 - x*255/299), 0xff})
	}
	l.Add(g)
	var buf bytes.Buffer
	if err := EncodeGIF(&buf, []render.List{l}, time.Second, 1); err != nil {
		t.Fatal(err)
	}
	dec, err := gif.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := color.RGBAModel.Convert(dec.At(150, 200)).(color.RGBA); got != l.Background {
		t.Errorf("flat field = %v, want exactly %v", got, l.Background)
	}
	src := Image(l, 1)
	dst := image.NewRGBA(src.Bounds())
	draw.Draw(dst, dst.Bounds(), dec, image.Point{}, draw.Src)
	if bad, at := rastertest.Compare(dst, src, 24); bad > 0 {
		t.Errorf("%d ramp pixels off by more than 24 levels (first at %v)", bad, at)
	}
}

func TestEncodeGIFRejects(t *testing.T) {
	ok := render.List{W: 10, H: 10}
	for _, tt := range []struct {
		name   string
		frames []render.List
		delay  time.Duration
		scale  float64
		want   string
	}{
		{"no frames", nil, time.Second, 1, "no frames"},
		{"short delay", []render.List{ok}, 10 * time.Millisecond, 1, "delay"},
		{"long delay", []render.List{ok}, time.Hour, 1, "delay"},
		{"bad scale", []render.List{ok}, time.Second, 0, "scale"},
		{"sizes differ", []render.List{ok, {W: 11, H: 10}}, time.Second, 1, "one size"},
	} {
		var buf bytes.Buffer
		err := EncodeGIF(&buf, tt.frames, tt.delay, tt.scale)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.want)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: wrote %d bytes before failing", tt.name, buf.Len())
		}
	}
}
