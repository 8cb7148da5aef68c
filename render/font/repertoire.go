package font

// Repertoire is every character the embedded faces keep: printable ASCII,
// the Greek letters and mathematical signs of the papers' vocabulary, the
// typographic punctuation the scenes' labels use, and U+FFFD, which the
// browser's glyph atlas draws for characters outside the font. Any other
// character draws as the font's notdef box (as characters outside the Go
// fonts always did). TestRepertoireCoversSources fails when a scene,
// render or wasm source draws a character the Go fonts have but this list
// lacks; add it here and run `go generate ./render/font`.
const Repertoire = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~" +
	"αβγδεζηθικλμνξοπρςστυφχψω" + "ΓΔΘΛΞΠΣΦΨΩ" +
	"−×÷·±≤≥≈≠√∞∑∫∂∆∈" + "²³¹⁰⁴⁵⁶⁷⁸⁹⁻₀₁₂₃₄₅₆₇₈₉" +
	"←↑→↓↔⇒" + "–—…‘’“”•°§µñé" + "\u00a0\ufffd"
