// Package errf is fmt.Errorf, not inlined. Go 1.26 inlines fmt.Errorf
// (a call to its formatter and errors.New's allocation) at each of its
// call sites; the packages the page's wasm links call it at about 250
// places, and those copies cost 9 kB of the wasm's gzip -9 budget
// (docs/visualizer.md, "The wasm's size"). Code that the browser runs
// calls errf.Errorf instead; the native commands may use fmt.Errorf.
package errf
