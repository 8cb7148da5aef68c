// Package scenetest holds the checks the scenes' tests share: that a
// frame's text lies on the canvas, is large enough at 960x540 and never
// overlaps (TextOnCanvas, NoOverlappingText, with the boxes TextBox and
// RectBox measure), that a golden frame is not blank (NotBlank), the frame
// benchmarks' timing (LoopMs), and building a scene from its defaults with
// a few values changed (Values, Build, CheckInfo).
//
// It is test support, like render/raster/rastertest, which compares the
// frames with their golden PNGs; it imports neither os nor the network.
package scenetest
