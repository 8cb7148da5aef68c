// Package scene is the framework every animated view plugs into, in pure Go
// so that all of it is tested natively.
//
// A Scene describes its parameters as Fields (the browser controls, the URL
// and the native exporter are all generated from them) and Builds a Run
// from validated Values and a seed: Build runs the engine once, recording a
// trace, and the Run then lays out a render.List for any playhead time. The
// Player paces a Run in real time (play, pause, step, speed, loop) without
// the model ever knowing about wall clocks, and State is the whole view
// (scene, parameters, seed, playhead, speed, theme, embed options) as a URL
// query, so that any view can be shared and reloaded exactly.
//
// Bad input never panics and is never clamped: parsing a URL keeps every
// valid value, falls back to the default for each bad one, and returns one
// *FieldError per bad value naming the field and what it accepts.
//
// Every scene builds the same way, through a Checked: the values are
// checked against the fields, turned into the model's parameters and only
// then run; Estimate prices the same parameters for the budget (Within),
// and EngineError turns an engine package's range error into the
// *FieldError on the field to change, wherever in the build it arose. A
// scene's other errors carry no prefix naming the scene: whoever shows
// them names it once.
package scene
