// Package subset writes a TrueType font that keeps only the glyphs of a
// given set of characters, so that the browser's WebAssembly carries the
// few hundred glyphs the scenes draw instead of the Go fonts' whole
// repertoire. It is used at build time (go generate in render/font), never
// linked into the visualizer.
//
// Outlines are copied byte for byte, so a rasteriser draws every kept
// glyph exactly as from the full font; what is dropped is what
// golang.org/x/image/font/sfnt never reads with hinting off: the TrueType
// hinting programs (fpgm, prep, cvt, gasp, per-glyph instructions) and the
// PostScript glyph names. The name table stays: it carries the fonts'
// copyright and licence notice, which their BSD licence requires binary
// copies to reproduce.
package subset
