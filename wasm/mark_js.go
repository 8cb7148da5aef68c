//go:build js && wasm

package main

import "syscall/js"

// mark puts a performance mark named commlab:name on the page's timeline,
// so that the bench (TestPageNumbers) and Chromium's tracing can tell
// where the start's time goes (docs/visualizer.md lists the marks).
func mark(name string) {
	js.Global().Get("performance").Call("mark", "commlab:"+name)
}
