// Package chart holds the layout helpers the scenes' Gantt-style charts
// share: text sizes that scale with the canvas, nice axis ticks and their
// labels, fitting a label to its room, the wrapping legend, the hatching of
// stalled time and a contrast colour for text on a fill. It is pure Go and
// draws only into a render.List, measuring text with render/font.
package chart
