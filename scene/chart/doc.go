// Package chart is the painter the scenes share. Frame is one frame being
// laid out (its display list, theme, playhead and text sizes, which scale
// with the canvas) with what every scene draws alike: the title row, the
// wrapping legend and its swatches, panel headers, axis labels, bar fills
// and the hatching of stalled time. Gantt adds a Gantt chart's time axis:
// panels stacked on one axis beside or above a side plot, the axis' ticks,
// labels and caption, lane labels and the playhead. A scene's painter
// embeds one of them and keeps only what is its own: its spans, messages,
// marks and side plots.
//
// Around them: nice axis ticks and their labels, fitting a label to its
// room, and a contrast colour for text on a fill. The package is pure Go
// and draws only into a render.List, measuring text with render/font; its
// goldens (testdata/*.golden, rewritten with -update) pin a sample Gantt
// frame at two sizes.
package chart
