// Package detmath holds the few elementary functions the engine's random
// draws need with the same bits natively and in WebAssembly.
//
// A seed must give the same numbers on every platform the engine runs on:
// the reports are made natively, the browser replays the same trials under
// js/wasm, and the pinned tests hold both to the same digits. math.Log and
// math.Exp have amd64 assembly that differs from their pure-Go code in the
// last bit, so a sampler that calls them draws other numbers in the
// browser. The functions here use only operations IEEE 754 rounds exactly
// everywhere (+ − × ÷, math.Sqrt, math.Frexp's bit manipulation), and
// every product that feeds a sum is converted with float64(...): the Go
// spec lets a compiler fuse x*y + z into one FMA (arm64 does) unless the
// product is converted explicitly, which would change the last bit.
package detmath
