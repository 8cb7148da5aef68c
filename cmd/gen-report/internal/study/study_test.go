package study

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCountArray: the trials a result holds, one element each, counted
// without decoding them; anything but one JSON array is an error.
func TestCountArray(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		n    int
		want string // an error containing this; "" for none
	}{
		{`[]`, 0, ""},
		{`[[1,2],[3,4],[5,6]]`, 3, ""},
		{` [ {"a":[1,2]} , "x" , null ] `, 3, ""},
		{`{"trials":[[1]]}`, 0, "is not a JSON array"},
		{`3`, 0, "is not a JSON array"},
		{``, 0, "is not a JSON array"},
		{`[[1],[2]`, 0, "after element 2"},
		{`[[1],]`, 0, "element 1"},
		{`[[1]] [[2]]`, 0, "data after the array"},
	} {
		n, err := CountArray(json.RawMessage(tc.raw))
		switch {
		case tc.want == "" && (err != nil || n != tc.n):
			t.Errorf("CountArray(%s) = %d, %v; want %d", tc.raw, n, err, tc.n)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("CountArray(%s) = %d, %v; want an error saying %q", tc.raw, n, err, tc.want)
		}
	}
}
