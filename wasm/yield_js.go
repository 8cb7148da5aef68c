//go:build js && wasm

package main

import (
	"syscall/js"
	"time"
)

// browserBuilder pauses a build for one turn of the browser's event loop:
// it posts a message to itself on a MessageChannel and waits for it. Go's
// js/wasm runtime hands the thread back to JavaScript while the build
// waits, the browser draws a frame if one is due and handles input, then
// the message wakes the build. A message, unlike a timer (which
// time.Sleep would use), is neither clamped to 4 ms nor throttled to once
// a second in a background tab, so a build in a hidden tab or frame goes
// on at full speed.
func browserBuilder() *builder {
	mc := js.Global().Get("MessageChannel").New()
	in, out := mc.Get("port1"), mc.Get("port2")
	wake := make(chan struct{}, 1)
	// Released never: the builder lives as long as the page.
	on := js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case wake <- struct{}{}:
		default:
		}
		return nil
	})
	in.Set("onmessage", on)
	return &builder{slice: buildSlice, now: time.Now, pause: func() {
		out.Call("postMessage", nil)
		<-wake
	}}
}
