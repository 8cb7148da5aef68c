package param

import (
	"errors"
	"fmt"
	"testing"
)

type color string

func (c color) String() string { return string(c) }

var colors = Choices[color]{"red", "green", "blue"}

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
	if c, ok := colors.Parse("green"); !ok || c != "green" {
		t.Errorf(`Parse("green") = %q, %v`, c, ok)
	}
	if c, ok := colors.Parse("Green"); ok || c != "" {
		t.Errorf(`Parse("Green") = %q, %v: want the zero value, false`, c, ok)
	}
	if !colors.Valid("blue") || colors.Valid("") {
		t.Error("Valid: blue must be a choice and the empty name none")
	}
	if got, want := colors.Error("color", `x"y`).Error(), `color = "x\"y" is out of range: want one of red, green, blue`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
