package param

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a parameter outside its allowed range. Field is the parameter's
// JSON name (also its CLI flag and URL key; an element is named as
// mhz[3]), Value its value as the engine writes it, and Want what the
// parameter allows: a range, the choices, and where the range follows
// from another parameter, why.
type Error struct {
	Field string
	Value string
	Want  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s = %s is out of range: want %s", e.Field, e.Value, e.Want)
}

// Choices are a named parameter's names, in order: its CLI, URL and JSON
// spellings. A parameter's value is its name's index (an iota constant:
// allreduce.OSPhase) or the name itself (a string constant:
// overlay.Policy). Choices is not generic on purpose: one copy of its
// methods serves every parameter. A generic Choices[T] with the same
// methods linked wrappers per type into the wasm: 4,857 bytes more gzip -9
// (2026-11-27; GOOS=js GOARCH=wasm go build ./wasm/ and gzip -9c | wc -c).
type Choices struct{ names []string }

// Names are the choices named.
func Names(names ...string) Choices { return Choices{names} }

// Of are the choices named by the string values vs.
func Of[T ~string](vs []T) Choices {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = string(v)
	}
	return Choices{names}
}

// Index is the index of the name s, or -1 when s names no choice.
func (c Choices) Index(s string) int {
	for i, n := range c.names {
		if n == s {
			return i
		}
	}
	return -1
}

// Name is choice i's name; false when i is no choice's index.
func (c Choices) Name(i int) (string, bool) {
	if i < 0 || i >= len(c.names) {
		return "", false
	}
	return c.names[i], true
}

// Names are the names, in order (a copy).
func (c Choices) Names() []string { return append([]string(nil), c.names...) }

// List is the names, as "a, b, c".
func (c Choices) List() string { return strings.Join(c.names, ", ") }

// Error is the parameter field's error for the name s, which is none of
// the choices.
func (c Choices) Error(field, s string) *Error {
	return &Error{field, strconv.Quote(s), "one of " + c.List()}
}
