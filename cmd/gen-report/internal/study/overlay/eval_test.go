package overlay

import (
	"commlab/cmd/gen-report/internal/clitest"
	"encoding/json"
	"testing"
)

// TestEvalOverlay pins `eval overlay` for the example and a small
// run of each other policy.
func TestEvalOverlay(t *testing.T) {
	for _, tc := range []struct{ name, args string }{
		{"eval_overlay_topology_c8.stdout", "eval overlay -nodes 64 -procs 128 -switches 6 -policy topology -cache 8"},
		{"eval_overlay_all_small.stdout", "eval overlay -nodes 8 -procs 16 -switches 3 -policy all -keys 65536 -iterations 2"},
		{"eval_overlay_random_small.stdout", "eval overlay -nodes 8 -procs 16 -switches 3 -policy random -random_degree 6 -cache 2 -keys 65536 -iterations 2 -seed 3"},
	} {
		t.Run(tc.name, func(t *testing.T) { clitest.EvalGolden(t, cmd, tc.name, tc.args) })
	}
}

// Every cost constant is a flag and reaches the engine: a higher polling
// cost per connection slows "all" (127 connections) down.
func TestEvalOverlayCostFlags(t *testing.T) {
	sortTime := func(args ...string) float64 {
		t.Helper()
		out, _, err := clitest.Run(t, cmd, append([]string{"eval", "overlay", "-nodes", "8", "-procs", "16", "-switches", "2", "-policy", "all", "-keys", "16384", "-iterations", "1"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var ev struct {
			Time    float64 `json:"time_s"`
			Relayed int     `json:"relayed"`
		}
		if err := json.Unmarshal([]byte(out), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Relayed != 0 {
			t.Errorf("all relayed %d messages", ev.Relayed)
		}
		return ev.Time
	}
	if base, slow := sortTime(), sortTime("-poll_per_conn", "1e-5"); !(slow > base) {
		t.Errorf("poll_per_conn 1e-5: %g s, default %g s; want slower", slow, base)
	}
}

func TestEvalOverlayBadInput(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{"eval overlay -policy mesh", `invalid value "mesh" for flag -policy: unknown policy "mesh" (want one of topology, all, random)`},
		{"eval overlay -nodes 0", "eval overlay: -nodes = 0 is out of range: want an integer in [1, 1024]"},
		{"eval overlay -procs 32", "eval overlay: -procs = 32 is out of range: want an integer in [64, 1024] (at least nodes)"},
		{"eval overlay -switches 7 -nodes 6 -procs 6", "eval overlay: -switches = 7 is out of range: want an integer in [1, 6]"},
		{"eval overlay -cache 128", "eval overlay: -cache = 128 is out of range: want an integer in [0, 127]"},
		{"eval overlay -cache -1", "-cache = -1 is out of range"},
		{"eval overlay -policy random -random_degree 63", "-random_degree = 63 is out of range: want an even integer in [2, 127]"},
		{"eval overlay -keys 10", "-keys = 10 is out of range: want an integer in [128, 134217728]"},
		{"eval overlay -iterations 0", "-iterations = 0 is out of range"},
		{"eval overlay -bandwidth 0.5", "-bandwidth = 0.5 is out of range: want a rate in [1, 1e+15] B/s"},
		{"eval overlay -relay_bandwidth 1e-300", "-relay_bandwidth = 1e-300 is out of range: want a rate in [1, 1e+15] B/s"},
		{"eval overlay -nodes 2", "eval overlay: -switches = 6 (not given, so its default; you gave -nodes 2) is out of range: want an integer in [1, 2]"},
		{"eval overlay -procs 8 -nodes 8 -switches 1", "eval overlay: -cache = 8 (not given, so its default; you gave -nodes 8 -procs 8 -switches 1) is out of range: want an integer in [0, 7]"},
		{"eval overlay -latency -1", "-latency = -1 is out of range: want a time in [0, 1] s"},
		{"eval overlay -hop_latency 2", "-hop_latency = 2 is out of range"},
		{"eval overlay -relay_cpu -1", "-relay_cpu = -1 is out of range"},
		{"eval overlay -handshake_cpu -1", "-handshake_cpu = -1 is out of range"},
		{"eval overlay -teardown_cpu -1", "-teardown_cpu = -1 is out of range"},
		{"eval overlay -poll_per_conn -1", "-poll_per_conn = -1 is out of range"},
		{"eval overlay -msg_cpu -1", "-msg_cpu = -1 is out of range"},
		{"eval overlay -relay_bandwidth 0", "-relay_bandwidth = 0 is out of range"},
		{"eval overlay -key_bytes 0", "-key_bytes = 0 is out of range"},
		{"eval overlay -cache x", `invalid value "x" for flag -cache`},
		{"eval overlay extra", `unexpected argument "extra"`},
	} {
		clitest.BadInput(t, cmd, c.args, c.want)
	}
}

// cmd is eval overlay as gen-report's main runs it.
var cmd = clitest.Eval(Study{})
