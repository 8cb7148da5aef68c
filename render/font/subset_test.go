package font

import (
	"bytes"
	"flag"
	"fmt"
	"go/scanner"
	"go/token"
	"image"
	"image/draw"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"commlab/render/font/internal/subset"
)

var update = flag.Bool("update", false, "rewrite the embedded subset fonts from the Go fonts")

var fullFonts = []struct {
	file string
	ttf  []byte
	bold bool
}{
	{"goregular.subset.ttf", goregular.TTF, false},
	{"gobold.subset.ttf", gobold.TTF, true},
}

// TestSubsetFiles rebuilds the embedded subsets and fails when the
// committed files differ (go generate ./render/font rewrites them).
func TestSubsetFiles(t *testing.T) {
	for _, ff := range fullFonts {
		want, err := subset.Font(ff.ttf, []rune(Repertoire))
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(ff.file, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(ff.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./render/font", ff.file)
		}
	}
}

// TestSubsetDrawsAsFull holds every kept glyph to the whole font's: same
// advance, same bounds, same coverage mask at several sizes and sub-pixel
// positions, and the same face metrics.
func TestSubsetDrawsAsFull(t *testing.T) {
	sizes := []float64{9, 11.5, 14, 16, 20, 32, 48}
	dots := []fixed.Point26_6{{}, {X: 17, Y: 5}, {X: 40, Y: 63}}
	for _, ff := range fullFonts {
		full, err := opentype.Parse(ff.ttf)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range sizes {
			opts := &opentype.FaceOptions{Size: size, DPI: 72, Hinting: xfont.HintingNone}
			fa, err := opentype.NewFace(full, opts)
			if err != nil {
				t.Fatal(err)
			}
			fb, err := NewFace(size, ff.bold)
			if err != nil {
				t.Fatal(err)
			}
			if ma, mb := fa.Metrics(), fb.Metrics(); ma != mb {
				t.Errorf("%s %v px: metrics %+v, full font %+v", ff.file, size, mb, ma)
			}
			for _, r := range Repertoire {
				for _, dot := range dots {
					if msg := sameGlyph(fa, fb, dot, r); msg != "" {
						t.Errorf("%s %v px %U at %v: %s", ff.file, size, r, dot, msg)
					}
				}
			}
			fa.Close()
			fb.Close()
		}
	}
}

func sameGlyph(fa, fb xfont.Face, dot fixed.Point26_6, r rune) string {
	dra, ma, mpa, adva, oka := fa.Glyph(dot, r)
	var a *image.Alpha
	if oka {
		a = image.NewAlpha(dra)
		draw.Draw(a, dra, ma, mpa, draw.Src)
	}
	drb, mb, mpb, advb, okb := fb.Glyph(dot, r)
	switch {
	case oka != okb:
		return fmt.Sprintf("drawn %v, full font %v", okb, oka)
	case !oka:
		return ""
	case adva != advb || dra != drb:
		return fmt.Sprintf("advance %v bounds %v, full font %v %v", advb, drb, adva, dra)
	}
	b := image.NewAlpha(drb)
	draw.Draw(b, drb, mb, mpb, draw.Src)
	if !bytes.Equal(a.Pix, b.Pix) {
		return "coverage differs from the full font's"
	}
	return ""
}

// TestSubsetDropsTheRest: a character outside Repertoire is not in the
// subset (it draws the notdef box), so the subset really is one.
func TestSubsetDropsTheRest(t *testing.T) {
	f := face(false)
	var b sfnt.Buffer
	for _, r := range "ÄŽЖ€" {
		if g, err := f.GlyphIndex(&b, r); err != nil || g != 0 {
			t.Errorf("%U: glyph %d, %v; want notdef", r, g, err)
		}
	}
	if n := f.NumGlyphs(); n > 2*len([]rune(Repertoire)) {
		t.Errorf("subset has %d glyphs for %d characters", n, len([]rune(Repertoire)))
	}
}

// TestRepertoireCoversSources scans the string and character literals of
// every package that draws (scene/..., render/..., wasm/) and fails on a
// character the whole Go font has but Repertoire lacks: drawing it would
// show a box where the full font showed the glyph.
func TestRepertoireCoversSources(t *testing.T) {
	full, err := sfnt.Parse(goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	var buf sfnt.Buffer
	missing := map[rune]string{}
	files := 0
	for _, dir := range []string{"../../scene", "../../render", "../../wasm"} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			fset := token.NewFileSet()
			var s scanner.Scanner
			s.Init(fset.AddFile(path, -1, len(src)), src, nil, 0)
			for {
				pos, tok, lit := s.Scan()
				if tok == token.EOF {
					return nil
				}
				if tok != token.STRING && tok != token.CHAR {
					continue
				}
				v := lit
				if tok == token.STRING {
					if v, err = strconv.Unquote(lit); err != nil {
						continue
					}
				}
				for _, r := range v {
					if strings.ContainsRune(Repertoire, r) || r < ' ' {
						continue
					}
					if g, err := full.GlyphIndex(&buf, r); err == nil && g != 0 {
						missing[r] = fset.Position(pos).String()
					}
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 20 {
		t.Fatalf("scanned %d source files: the walk missed the scenes", files)
	}
	for r, at := range missing {
		t.Errorf("%q (%U) at %s is in the Go fonts but not in Repertoire", r, r, at)
	}
}
