//go:build !(js && wasm)

package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestOverlayMembership loads the overlay scene with a join and a leave
// from the URL: the page takes both fields, reports the join's and the
// leave's numbers (one RTT per switch, connections closed and opened),
// and its last frame differs from the same run's without them.
func TestOverlayMembership(t *testing.T) {
	base := serveScenes(t)
	s := newSession(t, base)
	st := s.openScene("scene=overlay&embed=1&join=1&leave=3")
	if len(st.Errors) > 0 || st.Params["join"] != "1" || st.Params["leave"] != "3" {
		t.Fatalf("?join=1&leave=3: params %v, errors %+v", st.Params, st.Errors)
	}
	if st.Numbers["join_rtts"] != 4 || st.Numbers["join_switch"] < 0 || !(st.Numbers["leave_closed"] > 0) || !(st.Numbers["leave_opened"] > 0) {
		t.Errorf("membership numbers %v: want 4 RTTs (one per switch), a placed join, connections closed and opened", st.Numbers)
	}
	if !(st.End > st.Numbers["time"]) {
		t.Errorf("the run ends at %v, the sort at %v: the membership must come after it", st.End, st.Numbers["time"])
	}
	end := func(s *session) {
		if r := s.call(fmt.Sprintf(`window.commlab.seek(%v)`, s.state().End)); !r.OK {
			t.Fatalf("seek(end) = %+v", r)
		}
		s.stillFrame()
	}
	end(s)
	with := s.shot("overlay-membership-end.png", s.rectOf(`document.querySelector('canvas')`))

	plain := newSession(t, base)
	plain.openScene("scene=overlay&embed=1")
	end(plain)
	without := plain.shot("overlay-plain-end.png", plain.rectOf(`document.querySelector('canvas')`))
	if n, _ := pixelDiff(with, without); n < 1000 {
		t.Errorf("the last frame with a join and a leave differs from the plain run's in %d pixels; want the joiner, its connections and the crossed leaver", n)
	}
	// A join under the "all" policy is refused on its own field.
	if r := s.setParams(map[string]any{"policy": "all"}); r.OK || len(r.Errors) == 0 || r.Errors[0].Key != "join" && r.Errors[0].Key != "leave" {
		t.Errorf("setParams(policy=all) with a join: %+v, want an error on join or leave", r)
	}
}

// TestOverlayFPS measures the overlay scene's frames per second while
// playing at 960x540, at its defaults and with a join and a leave, as
// TestPageNumbers does for every scene, and prints them with the load
// average. A measurement, not an assertion: it runs only under
// COMMLAB_BENCH=1, alone:
//
//	COMMLAB_BENCH=1 go test -count=1 -run TestOverlayFPS -v ./cmd/serve/e2e/
func TestOverlayFPS(t *testing.T) {
	if os.Getenv("COMMLAB_BENCH") != "1" {
		t.Skip("page measurements run under COMMLAB_BENCH=1")
	}
	chromium(t)
	base := serveScenes(t)
	for _, c := range []struct {
		name, query string
	}{
		{"defaults", ""},
		{"join=1, leave=3", "&join=1&leave=3"},
	} {
		var fps float64
		var size string
		var cost frameCost
		t.Run(c.name, func(t *testing.T) {
			fps, size, cost = framesPerSecond(t, base, "scene=overlay"+c.query)
		})
		load, _ := os.ReadFile("/proc/loadavg")
		f := strings.Fields(string(load))
		fmt.Printf("overlay (%s) at %s: %.1f frames/s (target ≥ %d; %s), load average %s\n", c.name, size, fps, minFPS, cost, strings.Join(f[:min(3, len(f))], " "))
	}
}
