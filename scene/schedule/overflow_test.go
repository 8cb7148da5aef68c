package schedule

import (
	"errors"
	"strings"
	"testing"

	"commlab/scene"
)

// TestPageRefusesOverflow: a schedule whose times pass 2^63 ns is refused
// on the file field, not drawn (it was drawn as "1 ns": the wrapped end);
// parameters under which a 0-byte message would cost a negative time are
// refused on that side's parameter.
func TestPageRefusesOverflow(t *testing.T) {
	key, err := AddFile(KindUpload, "wrap.goal", []byte("num_ranks 1\nrank 0 {\na: calc 9223372036854775807\nb: calc 9223372036854775807\nb requires a\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	v := pageValues(key)
	_, err = Scene{}.Build(v, 1)
	var fe *scene.FieldError
	if !errors.As(err, &fe) || fe.Key != KeyFile || !strings.Contains(err.Error(), "would be at 1.8e19 ns") {
		t.Errorf("two calcs of 2^63-1: %v, want a refusal on %s naming the time", err, KeyFile)
	}
	zero, err := AddFile(KindUpload, "zero.goal", []byte("num_ranks 2\nrank 0 {\na: send 0b to 1 tag 0\n}\nrank 1 {\nr: recv 0b from 0 tag 0\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	v = pageValues(zero)
	v[KeyCompare] = CompareParams
	v["g2"], v["G2"] = "5", "6"
	_, err = Scene{}.Build(v, 1)
	if !errors.As(err, &fe) || fe.Key != "G2" {
		t.Errorf("a 0-byte message with G2 > g2: %v, want a refusal on G2", err)
	}
}
