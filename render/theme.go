package render

import (
	"image/color"
	"math"

	"commlab/engine/trace"
)

// Theme is a palette for one background. Slides come in light and dark, so
// every scene draws only with a Theme's colours, never literal ones.
//
// The hues are the Okabe–Ito palette (Okabe and Ito, "Color Universal
// Design", 2008), chosen to stay apart under the common colour-vision
// deficiencies; where two roles could meet on screen they also differ in
// lightness or line style, so the picture survives greyscale projection too.
// The heat ramp is cividis (Nuñez et al., PLOS ONE 2018), which is
// perceptually uniform and reads the same to deuteranopes.
type Theme struct {
	Name string

	Background color.RGBA // the canvas
	Panel      color.RGBA // plot areas, boxes
	Ink        color.RGBA // text and axes
	Muted      color.RGBA // secondary text, ticks, pending things
	Rule       color.RGBA // grid lines, lane separators

	// Span kinds of a trace (see trace.Kind).
	Compute, Send, Receive, Stall, Idle color.RGBA

	Butterfly color.RGBA // conventional butterfly messages
	Redundant color.RGBA // redundant exchanges after stage K
	Adopted   color.RGBA // the copy a process adopts; highlights
	Noise     color.RGBA // network-noise delay on a message
	Critical  color.RGBA // the process that set the completion time
	Playhead  color.RGBA

	// Heat is the sequential ramp from low to high, sampled evenly.
	Heat []color.RGBA
}

// Okabe–Ito hues.
var (
	oiOrange    = color.RGBA{0xe6, 0x9f, 0x00, 0xff}
	oiSky       = color.RGBA{0x56, 0xb4, 0xe9, 0xff}
	oiGreen     = color.RGBA{0x00, 0x9e, 0x73, 0xff}
	oiYellow    = color.RGBA{0xf0, 0xe4, 0x42, 0xff}
	oiBlue      = color.RGBA{0x00, 0x72, 0xb2, 0xff}
	oiVermilion = color.RGBA{0xd5, 0x5e, 0x00, 0xff}
	oiPurple    = color.RGBA{0xcc, 0x79, 0xa7, 0xff}
)

// cividis sampled at nine even steps.
var cividis = []color.RGBA{
	{0x00, 0x22, 0x4e, 0xff}, {0x12, 0x35, 0x70, 0xff}, {0x3b, 0x49, 0x6c, 0xff},
	{0x57, 0x5d, 0x6d, 0xff}, {0x70, 0x71, 0x73, 0xff}, {0x8a, 0x87, 0x79, 0xff},
	{0xa5, 0x9c, 0x74, 0xff}, {0xc3, 0xb3, 0x69, 0xff}, {0xfe, 0xe8, 0x38, 0xff},
}

// Light is the palette for white slides and the page.
func Light() Theme {
	return Theme{
		Name:       "light",
		Background: color.RGBA{0xfb, 0xfa, 0xf7, 0xff},
		Panel:      color.RGBA{0xff, 0xff, 0xff, 0xff},
		Ink:        color.RGBA{0x1d, 0x1f, 0x23, 0xff},
		Muted:      color.RGBA{0x6b, 0x70, 0x78, 0xff},
		Rule:       color.RGBA{0xd9, 0xd9, 0xd4, 0xff},
		Compute:    oiBlue,
		Send:       oiSky,
		Receive:    oiGreen,
		Stall:      oiVermilion,
		Idle:       color.RGBA{0xe4, 0xe4, 0xe0, 0xff},
		Butterfly:  oiBlue,
		Redundant:  oiPurple,
		Adopted:    oiOrange,
		Noise:      oiVermilion,
		Critical:   color.RGBA{0x00, 0x00, 0x00, 0xff},
		Playhead:   color.RGBA{0x7b, 0x2c, 0xbf, 0xff}, // violet: no legend uses it (TestPlayheadStandsOut)
		Heat:       cividis,
	}
}

// Dark is the palette for dark slides: the same hues, lighter where they sit
// on the dark background, so that roles keep their colours across themes.
func Dark() Theme {
	return Theme{
		Name:       "dark",
		Background: color.RGBA{0x14, 0x17, 0x1c, 0xff},
		Panel:      color.RGBA{0x1e, 0x22, 0x29, 0xff},
		Ink:        color.RGBA{0xee, 0xee, 0xea, 0xff},
		Muted:      color.RGBA{0x9a, 0xa0, 0xa8, 0xff},
		Rule:       color.RGBA{0x38, 0x3e, 0x47, 0xff},
		Compute:    color.RGBA{0x3d, 0x9b, 0xe0, 0xff},
		Send:       oiSky,
		Receive:    oiGreen,
		Stall:      color.RGBA{0xf0, 0x78, 0x1e, 0xff},
		Idle:       color.RGBA{0x2c, 0x31, 0x39, 0xff},
		Butterfly:  color.RGBA{0x3d, 0x9b, 0xe0, 0xff},
		Redundant:  oiPurple,
		Adopted:    oiYellow,
		Noise:      color.RGBA{0xf0, 0x78, 0x1e, 0xff},
		Critical:   color.RGBA{0xff, 0xff, 0xff, 0xff},
		Playhead:   color.RGBA{0xb1, 0x8c, 0xff, 0xff}, // lavender, as light's violet
		Heat:       cividis,
	}
}

// ThemeNames lists the themes ThemeByName knows, default first.
var ThemeNames = []string{"light", "dark"}

// ThemeByName returns the named theme.
func ThemeByName(name string) (Theme, bool) {
	switch name {
	case "light":
		return Light(), true
	case "dark":
		return Dark(), true
	}
	return Theme{}, false
}

// Kind is the colour of a span kind.
func (th Theme) Kind(k trace.Kind) color.RGBA {
	switch k {
	case trace.Compute:
		return th.Compute
	case trace.Send:
		return th.Send
	case trace.Receive:
		return th.Receive
	case trace.Stall:
		return th.Stall
	default:
		return th.Idle
	}
}

// HeatAt samples the heat ramp at x in [0, 1] (clamped; NaN gives the low
// end), interpolating linearly between the ramp's stops.
func (th Theme) HeatAt(x float64) color.RGBA {
	h := th.Heat
	if len(h) == 0 {
		return th.Ink
	}
	if !(x > 0) {
		return h[0]
	}
	if x >= 1 {
		return h[len(h)-1]
	}
	f := x * float64(len(h)-1)
	i := int(f)
	return Mix(h[i], h[i+1], f-float64(i))
}

// Mix blends a toward b by t in [0, 1].
func Mix(a, b color.RGBA, t float64) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*t)) }
	return color.RGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), m(a.A, b.A)}
}

// Fade returns c at alpha a in [0, 1], premultiplied as color.RGBA requires.
func Fade(c color.RGBA, a float64) color.RGBA {
	m := func(x uint8) uint8 { return uint8(math.Round(float64(x) * a)) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), m(c.A)}
}
