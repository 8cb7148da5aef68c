package main

import (
	"image"
	"image/color"
)

// straightRGBA returns img's pixels row after row, 4 bytes each, with
// straight (not premultiplied) alpha, as a canvas ImageData holds them: an
// opaque pixel as it is, any other converted by color.NRGBAModel, as
// image/png converts it to write it.
func straightRGBA(img *image.RGBA) []byte {
	b := img.Rect
	w := b.Dx()
	out := make([]byte, 0, 4*w*b.Dy())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		i := img.PixOffset(b.Min.X, y)
		row := img.Pix[i : i+4*w]
		for x := 0; x < len(row); x += 4 {
			p := row[x : x+4 : x+4]
			if p[3] == 0xff {
				out = append(out, p...)
				continue
			}
			n := color.NRGBAModel.Convert(color.RGBA{p[0], p[1], p[2], p[3]}).(color.NRGBA)
			out = append(out, n.R, n.G, n.B, n.A)
		}
	}
	return out
}
