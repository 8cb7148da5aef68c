// Package render turns what a scene shows into a display list: a flat,
// ordered slice of primitive shapes (rectangles, lines, polylines, arrows,
// circles and text) with their colours, stroke widths and dash patterns.
//
// The list is plain data. Nothing here imports Ebiten, syscall/js or a
// rasteriser, so a scene's layout can be built and tested natively, and each
// backend only has to paint the primitives: the Ebiten game in wasm/ paints
// them on the browser canvas, and a software rasteriser (PNG/GIF export,
// golden images) can paint the same list without cgo. Geometry that every
// backend would otherwise repeat, such as cutting a dashed line into its
// visible pieces or placing an arrow head, lives here so all backends draw
// the same picture.
//
// Damage compares successive lists and returns the regions whose pixels
// change, with conservative bounds for every item (ItemBounds), so that a
// backend animating on a surface that keeps its pixels repaints only those:
// the page's painter does, and the rasteriser's Repaint, which the tests
// hold to the very pixels of a fresh paint.
//
// Coordinates are in CSS pixels of the scene, origin at the top left, y down,
// as on a canvas.
package render
