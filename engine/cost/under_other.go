//go:build !(js && wasm)

package cost

// Under: natively an estimate bounds the allocation from above.
const Under = 1.0
