//go:build !(js && wasm)

package main

import (
	"bytes"
	"image"
	"image/png"
	"math/rand/v2"
	"testing"
)

// TestStraightRGBAIsPNGContent checks that the pixels the page hands the
// canvas to encode are those image/png writes for the same image (what
// raster.EncodePNG gives natively): opaque pictures as they are, translucent
// pixels un-premultiplied, sub-images from their own origin.
func TestStraightRGBAIsPNGContent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		name   string
		rect   image.Rectangle
		opaque bool
	}{
		{"opaque", image.Rect(0, 0, 17, 5), true},
		{"translucent", image.Rect(0, 0, 9, 7), false},
		{"offset", image.Rect(3, 2, 11, 9), false},
	} {
		img := image.NewRGBA(tc.rect)
		for i := 0; i < len(img.Pix); i += 4 {
			a := uint8(255)
			if !tc.opaque {
				a = uint8(r.IntN(256))
			}
			// Premultiplied: no channel above alpha.
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(r.IntN(int(a)+1)), uint8(r.IntN(int(a)+1)), uint8(r.IntN(int(a)+1)), a
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		dec, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		var want []byte
		switch d := dec.(type) {
		case *image.RGBA: // png.Encode wrote RGB: the picture is opaque
			want = d.Pix
		case *image.NRGBA:
			want = d.Pix
		default:
			t.Fatalf("%s: png decoded to %T", tc.name, dec)
		}
		if got := straightRGBA(img); !bytes.Equal(got, want) {
			t.Errorf("%s: straightRGBA differs from the PNG's pixels:\n got % x\nwant % x", tc.name, got[:min(32, len(got))], want[:min(32, len(want))])
		}
	}
}
