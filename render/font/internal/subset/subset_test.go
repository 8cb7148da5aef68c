package subset

import (
	"bytes"
	"slices"
	"testing"

	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
)

// TestComposites: the Go fonts draw no glyph from components, so this
// builds one: two components (word arguments; byte arguments with a scale
// and instructions after them). Their ids are renumbered and the
// instructions dropped; everything else stays.
func TestComposites(t *testing.T) {
	g := []byte{
		0xFF, 0xFF, 0, 0, 0, 0, 0, 100, 0, 100, // header: -1 contours, bounds
		0, argsAreWords | moreComponents, 0, 7, 0, 10, 0, 20, // glyph 7 at (10, 20)
		haveInstruction >> 8, haveScale, 0, 9, 5, 6, 0x40, 0, // glyph 9 at (5, 6), scale 1
		0, 2, 0xAA, 0xBB, // instructions
	}
	comps, err := components(g)
	if err != nil || len(comps) != 2 || comps[0] != 7 || comps[1] != 9 {
		t.Fatalf("components = %v, %v; want [7 9]", comps, err)
	}
	out, err := rewriteGlyph(g, map[int]int{7: 1, 9: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(g[:len(g)-4])
	want[13], want[21], want[18] = 1, 2, 0
	if !bytes.Equal(out, want) {
		t.Errorf("rewritten % x\nwant      % x", out, want)
	}
	if _, err := components(g[:20]); err == nil {
		t.Error("a truncated composite: no error")
	}
}

// TestBadInput: truncated or foreign data is an error, never a panic.
func TestBadInput(t *testing.T) {
	keep := []rune("abc")
	for _, n := range []int{0, 4, 12, 100, 1000, len(goregular.TTF) / 2} {
		if _, err := Font(goregular.TTF[:n], keep); err == nil {
			t.Errorf("font cut at %d bytes: no error", n)
		}
	}
	if _, err := Font([]byte("OTTO\x00\x00\x00\x00\x00\x00\x00\x00"), keep); err == nil {
		t.Error("a CFF font: no error")
	}
}

// TestNoCharacters: an empty set leaves the notdef glyph alone.
func TestNoCharacters(t *testing.T) {
	sub, err := Font(goregular.TTF, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := sfnt.Parse(sub)
	if err != nil {
		t.Fatal(err)
	}
	if f.NumGlyphs() != 1 {
		t.Errorf("%d glyphs, want notdef alone", f.NumGlyphs())
	}
}
