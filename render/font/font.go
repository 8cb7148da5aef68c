package font

import (
	_ "embed"
	"sync"

	"commlab/internal/errf"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

//go:generate go test . -run ^TestSubsetFiles$ -update

// The faces are Go Regular and Go Bold cut down to Repertoire
// (internal/subset; TestSubsetFiles rebuilds them from
// golang.org/x/image/font/gofont and fails when these copies are stale).
// The whole fonts cost the browser's wasm about 140 KB gzip; the subsets
// about a fifth of that, and draw every glyph they keep pixel for pixel
// as the whole fonts do (TestSubsetDrawsAsFull).
var (
	//go:embed goregular.subset.ttf
	regularTTF []byte
	//go:embed gobold.subset.ttf
	boldTTF []byte
)

// parsed holds the two embedded faces, parsed once on first use.
var parsed = sync.OnceValues(func() ([2]*opentype.Font, error) {
	var fs [2]*opentype.Font
	for i, ttf := range [][]byte{regularTTF, boldTTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return fs, errf.Errorf("font: embedded Go font %d: %w", i, err)
		}
		fs[i] = f
	}
	return fs, nil
})

func face(bold bool) *opentype.Font {
	fs, err := parsed()
	if err != nil {
		// The fonts are compiled in; failing to parse them is a broken
		// build, not a user error.
		panic(err)
	}
	if bold {
		return fs[1]
	}
	return fs[0]
}

// NewFace returns a face of the given pixel size (at 72 DPI, so size is in
// pixels) with full hinting off, which keeps glyph shapes and advances the
// same at every scale; callers own it (faces are not safe for concurrent
// use) and should cache it per size.
func NewFace(size float64, bold bool) (font.Face, error) {
	return opentype.NewFace(face(bold), &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
}

// measure guards the shared sfnt buffer Width uses.
var measure struct {
	sync.Mutex
	buf sfnt.Buffer
}

// Width is the advance width in pixels of s set at size px, with kerning,
// as a backend will draw it.
func Width(s string, size float64, bold bool) float64 {
	f := face(bold)
	measure.Lock()
	defer measure.Unlock()
	ppem := fixed.Int26_6(size*64 + 0.5)
	var w fixed.Int26_6
	prev, hasPrev := sfnt.GlyphIndex(0), false
	for _, r := range s {
		g, err := f.GlyphIndex(&measure.buf, r)
		if err != nil {
			continue
		}
		if hasPrev {
			if k, err := f.Kern(&measure.buf, prev, g, ppem, font.HintingNone); err == nil {
				w += k
			}
		}
		if a, err := f.GlyphAdvance(&measure.buf, g, ppem, font.HintingNone); err == nil {
			w += a
		}
		prev, hasPrev = g, true
	}
	return float64(w) / 64
}

// Ascent and Descent are the font's extent above and below the baseline at
// size px (both positive), for placing text inside boxes.
//
//go:noinline
func Ascent(size float64) float64 { return metrics(size).Ascent }

// Descent: see Ascent.
//
//go:noinline
func Descent(size float64) float64 { return metrics(size).Descent }

type vmetrics struct{ Ascent, Descent float64 }

func metrics(size float64) vmetrics {
	f := face(false)
	measure.Lock()
	defer measure.Unlock()
	m, err := f.Metrics(&measure.buf, fixed.Int26_6(size*64+0.5), font.HintingNone)
	if err != nil {
		return vmetrics{0.8 * size, 0.2 * size}
	}
	return vmetrics{float64(m.Ascent) / 64, float64(m.Descent) / 64}
}
