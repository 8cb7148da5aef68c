package sweep

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzMerge: shard outputs read from JSON (as gen-report merge reads its
// files) merge or fail with a message, never a panic or an allocation the
// files do not pay for; a merged grid has every point.
func FuzzMerge(f *testing.F) {
	f.Add(`[{"fingerprint":"g","shard":{"index":1,"count":2},"points":3,"results":{"0":[1,2],"2":[3]}},{"fingerprint":"g","shard":{"index":2,"count":2},"points":3,"results":{"1":[4]}}]`)
	f.Add(`[{"fingerprint":"g","points":-1,"results":{}}]`)
	f.Add(`[{"fingerprint":"g","points":1000000000000000,"results":{"0":[1]}}]`)
	f.Add(`[{"fingerprint":"g","points":2,"results":{"0":[1],"5":[2]}}]`)
	f.Fuzz(func(t *testing.T, in string) {
		var parts []Partial[float64]
		if json.NewDecoder(strings.NewReader(in)).Decode(&parts) != nil {
			return
		}
		out, err := Merge(parts)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("message over lines: %q", err)
			}
			return
		}
		held := 0
		for _, p := range parts {
			held += len(p.Results)
		}
		if len(out) != parts[0].Points || len(out) > held {
			t.Fatalf("%d points merged, the files say %d and hold %d", len(out), parts[0].Points, held)
		}
		for pt, r := range out {
			if r == nil {
				t.Fatalf("point %d missing from a merged grid", pt)
			}
		}
	})
}

// TestMergeRefusesBadSizes: a grid size the files cannot back is an
// error, not a panic or a huge allocation.
func TestMergeRefusesBadSizes(t *testing.T) {
	for _, c := range []struct {
		points int
		want   string
	}{
		{-1, "has -1 points, want at least 1"},
		{0, "has 0 points"},
		{1 << 50, "1125899906842623 of 1125899906842624 points missing: the shard outputs hold 1"},
	} {
		_, err := Merge([]Partial[float64]{{Fingerprint: "g", Points: c.points, Results: map[int][]float64{0: {1}}}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("points %d: got %v, want %q", c.points, err, c.want)
		}
	}
}
