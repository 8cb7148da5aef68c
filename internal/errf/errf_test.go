package errf

import (
	"errors"
	"io"
	"testing"
)

// TestErrorf: the message is fmt's and %w wraps, so callers can switch
// from fmt.Errorf without a change in what they report.
func TestErrorf(t *testing.T) {
	err := Errorf("read %s: %w", "x.goal", io.ErrUnexpectedEOF)
	if err.Error() != "read x.goal: unexpected EOF" || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("Errorf = %q (wraps io.ErrUnexpectedEOF: %v)", err, errors.Is(err, io.ErrUnexpectedEOF))
	}
	if err := Errorf("no verbs"); err.Error() != "no verbs" {
		t.Errorf("Errorf without arguments = %q", err)
	}
}
