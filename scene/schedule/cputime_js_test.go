//go:build js && wasm

package schedule

import "syscall/js"

// cpuSeconds is node's process CPU time (process.cpuUsage: user +
// system), which a wasm test binary under go_js_wasm_exec can read; 0
// where there is no process (a browser).
func cpuSeconds() float64 {
	p := js.Global().Get("process")
	if p.IsUndefined() {
		return 0
	}
	u := p.Call("cpuUsage")
	return (u.Get("user").Float() + u.Get("system").Float()) / 1e6
}
