package shown

import (
	"strings"
	"testing"
)

func TestCut(t *testing.T) {
	if got := Cut("short"); got != "short" {
		t.Errorf("Cut(short) = %q", got)
	}
	if got, want := Cut(strings.Repeat("é", 50)), strings.Repeat("é", Max)+"… (50 characters)"; got != want {
		t.Errorf("Cut(50 runes) = %q, want %q", got, want)
	}
}

func TestQuoted(t *testing.T) {
	long := strings.Repeat("x", 100)
	msg := `invalid value "` + long + `" for flag -P: "ok" stays`
	want := `invalid value "` + strings.Repeat("x", Max) + `… (100 characters)" for flag -P: "ok" stays`
	if got := Quoted(msg); got != want {
		t.Errorf("Quoted = %q, want %q", got, want)
	}
	if got := Quoted(`an "unterminated quote`); got != `an "unterminated quote` {
		t.Errorf("Quoted(unterminated) = %q", got)
	}
}
