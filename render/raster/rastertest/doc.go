// Package rastertest checks pictures against golden PNGs, for the tests of
// the rasteriser and of every scene that is drawn with it. Golden compares
// an image with testdata/NAME.png within Tolerance levels a channel (float
// rounding moves an anti-aliased edge by a level or two, a layout change
// by far more), keeps the picture it got beside the golden on a mismatch,
// and rewrites the golden when the test runs with -update; Compare counts
// the pixels that differ.
//
// It is test support: only tests import it.
package rastertest
