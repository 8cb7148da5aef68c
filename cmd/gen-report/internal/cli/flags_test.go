package cli

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestWriteJSONNonFinite: a result JSON cannot hold is named with its path
// and the flags the user gave, not encoding/json's "unsupported value".
func TestWriteJSONNonFinite(t *testing.T) {
	fs := NewFlagSet("eval x", &bytes.Buffer{}, "")
	bw := fs.Float64("bandwidth", 1, "")
	msg := fs.String("msg", "", "")
	if err := fs.ParseArgs([]string{"-bandwidth", "1e-300", "-msg", "1GiB"}, false); err != nil {
		t.Fatal(err)
	}
	_, _ = bw, msg
	type inner struct {
		Ratio float64 `json:"ratio"`
	}
	type result struct {
		Total float64 `json:"total_s"`
		Parts []inner `json:"parts"`
	}
	var out bytes.Buffer
	for _, c := range []struct {
		v    any
		want string
	}{
		{result{Total: math.Inf(1)}, "eval x: the result total_s is +Inf, not a number JSON can hold: the inputs (-bandwidth 1e-300 -msg 1GiB) take it beyond float64"},
		{&result{Parts: []inner{{1}, {math.NaN()}}}, "the result parts[1].ratio is NaN"},
	} {
		err := fs.WriteJSON(&out, c.v)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "unsupported") {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	if out.Len() != 0 {
		t.Errorf("printed %q", out.String())
	}
	if err := fs.WriteJSON(&out, result{Total: 1}); err != nil || !strings.Contains(out.String(), `"total_s": 1`) {
		t.Errorf("finite result: %v %q", err, out.String())
	}
}
