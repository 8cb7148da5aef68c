package rastertest

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// Tolerance is the largest per-channel difference (in 8-bit levels) from a
// golden image that still passes: float rounding (fused multiply-add on
// some architectures) moves an anti-aliased edge pixel's coverage by a
// level or two, never by more; any change of layout or colour moves far
// more.
const Tolerance = 4

// Golden compares got with the PNG at path (testdata/NAME.png), or with
// update rewrites that file from got. On a mismatch it keeps got in a
// temporary file to look at beside the golden, and says where the first
// differing pixel is; rerun says how to regenerate the goldens.
func Golden(t testing.TB, path string, got *image.RGBA, update bool, rerun string) {
	t.Helper()
	if update {
		var buf bytes.Buffer
		if err := png.Encode(&buf, got); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (%s to create it)", err, rerun)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if bad, at := Compare(got, want, Tolerance); bad > 0 {
		// Keep the picture to look at beside the golden; say so only if
		// it was written.
		out := filepath.Join(os.TempDir(), "got-"+filepath.Base(path))
		var buf bytes.Buffer
		err := png.Encode(&buf, got)
		if err == nil {
			err = os.WriteFile(out, buf.Bytes(), 0o644)
		}
		if err != nil {
			out = "(not kept: " + err.Error() + ")"
		}
		t.Errorf("%d pixels differ from %s by more than %d (first at %v); got %s; if the change is intended, %s",
			bad, path, Tolerance, at, out, rerun)
	}
}

// Compare counts the pixels of got and want whose channels differ by more
// than tol (all of them when the sizes differ), and says where the first is.
func Compare(got *image.RGBA, want image.Image, tol int) (bad int, first image.Point) {
	if got.Bounds() != want.Bounds() {
		return got.Bounds().Dx() * got.Bounds().Dy(), got.Bounds().Max
	}
	b := got.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r0, g0, b0, a0 := got.At(x, y).RGBA()
			r1, g1, b1, a1 := want.At(x, y).RGBA()
			for _, d := range [4][2]uint32{{r0, r1}, {g0, g1}, {b0, b1}, {a0, a1}} {
				if diff := int(d[0]>>8) - int(d[1]>>8); diff > tol || diff < -tol {
					if bad == 0 {
						first = image.Pt(x, y)
					}
					bad++
					break
				}
			}
		}
	}
	return bad, first
}
