//go:build js && wasm

package main

import "syscall/js"

// jsBigInt is the type name jsType gives a BigInt: syscall/js has no Type
// for it, and Value.Type panics on one ("bad type flag"), which the
// callbacks' recover would report as an internal error with a stack.
const jsBigInt = "bigint"

// jsType is v's type name as JavaScript's typeof writes it ("number",
// "object", "bigint"...), without panicking on a BigInt. ok is false for a
// type syscall/js cannot represent, whose name is then jsBigInt (the only
// such type wasm_exec.js passes today).
func jsType(v js.Value) (t js.Type, name string, ok bool) {
	defer func() {
		if recover() != nil {
			t, name, ok = js.TypeUndefined, jsBigInt, false
		}
	}()
	t = v.Type()
	return t, t.String(), true
}

// isNumber reports whether v is a JavaScript number (not a BigInt).
//
//go:noinline
func isNumber(v js.Value) bool {
	t, _, ok := jsType(v)
	return ok && t == js.TypeNumber
}
