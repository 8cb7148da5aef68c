package param

import (
	"errors"
	"fmt"
	"testing"
)

type color string

var colors = Of([]color{"red", "green", "blue"})

// TestErrorText: every engine package's message, which the goldens of
// gen-report's eval commands and the pages' tests hold byte for byte.
func TestErrorText(t *testing.T) {
	var err error = fmt.Errorf("run: %w", &Error{"mhz[3]", "0.5", "a clock rate in [1, 1e6] MHz"})
	if got, want := err.Error(), "run: mhz[3] = 0.5 is out of range: want a clock rate in [1, 1e6] MHz"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	var pe *Error
	if !errors.As(err, &pe) || pe.Field != "mhz[3]" {
		t.Errorf("errors.As found %+v in a wrapped Error", pe)
	}
}

func TestChoices(t *testing.T) {
	if i := colors.Index("green"); i != 1 {
		t.Errorf(`Index("green") = %d, want 1`, i)
	}
	if i := colors.Index("Green"); i != -1 {
		t.Errorf(`Index("Green") = %d, want -1`, i)
	}
	if n, ok := colors.Name(2); !ok || n != "blue" {
		t.Errorf("Name(2) = %q, %v", n, ok)
	}
	if n, ok := colors.Name(3); ok || n != "" {
		t.Errorf("Name(3) = %q, %v: want none", n, ok)
	}
	names := colors.Names()
	names[0] = "changed"
	if got := Names("a", "b").List(); got != "a, b" {
		t.Errorf("List() = %q", got)
	}
	if got, want := colors.Error("color", `x"y`).Error(), `color = "x\"y" is out of range: want one of red, green, blue`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if n, _ := colors.Name(0); n != "red" {
		t.Errorf("Names() returned the list itself: Name(0) is %q after changing the copy", n)
	}
}
