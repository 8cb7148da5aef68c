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

// Choices lists a named parameter's values in their order. A value's name
// (its String) is its CLI, URL and JSON spelling.
type Choices[T interface {
	comparable
	String() string
}] []T

// Parse returns the value named s.
func (c Choices[T]) Parse(s string) (T, bool) {
	for _, x := range c {
		if x.String() == s {
			return x, true
		}
	}
	var zero T
	return zero, false
}

// Valid reports whether v is one of the choices.
func (c Choices[T]) Valid(v T) bool {
	for _, x := range c {
		if x == v {
			return true
		}
	}
	return false
}

// List is the names, as "a, b, c".
func (c Choices[T]) List() string {
	s := make([]string, len(c))
	for i, x := range c {
		s[i] = x.String()
	}
	return strings.Join(s, ", ")
}

// Error is the parameter field's error for the name s, which is none of
// the choices.
func (c Choices[T]) Error(field, s string) *Error {
	return &Error{field, strconv.Quote(s), "one of " + c.List()}
}
