package main

import (
	"encoding/json"
	"strings"
	"testing"

	"commlab/internal/shown"
)

// TestEvalNamesTheUsersFlags: a range that follows another flag, broken by
// a default the user did not give, says that the value is the default and
// names the flags the user gave, in every eval.
func TestEvalNamesTheUsersFlags(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"eval allreduce -period 1e-6", "eval allreduce: -duration = 1e-05 (not given, so its default; you gave -period 1e-06) is out of range: want a number in (0, period=1e-06)"},
		{"eval allreduce -P 4 -T 3", "eval allreduce: -T = 3 is out of range"},
		{"eval overlay -procs 2 -nodes 1", "eval overlay: -switches = 6 (not given, so its default; you gave -nodes 1 -procs 2)"},
		{"eval mmdl -mhz 2400,2400", "eval mmdl: -tasks = 8 entries (not given, so its default; you gave -mhz 2400,2400)"},
		{"eval nbc -cores 2 -sockets 3", "eval nbc: -sockets = 3 is out of range: want an integer in [1, 2]"},
		{"eval goal -f " + goalExamples + "ex_dissemination_16.goal -os-period 10", "eval goal: -os-duration = 0 (not given, so its default; you gave -f "},
	} {
		t.Run(tc.args, func(t *testing.T) { checkBadInput(t, tc.args, tc.want) })
	}
}

// TestEvalLogpAtTheLimit: μ and σ at their largest no longer make the
// search for the optimal L_s step past 1e9 and blame Ls, which the user did
// not give; the output says when the search was cut there.
func TestEvalLogpAtTheLimit(t *testing.T) {
	for _, c := range []struct {
		args string
		cut  bool // L + 5σ + 3σ_g > 1e9
	}{
		{"eval logp -L 1e9 -sigma 1e9 -trials 50", true},
		{"eval logp -P 2 -L 1e9 -trials 50", true}, // σ = 2 by default
		{"eval logp -L 1e9 -gap_sigma 1e9 -trials 50", true},
		{"eval logp -P 1024 -n 1 -L 1e9 -o 1e9 -g 1e9 -sigma 1e9 -gap_sigma 1e9 -trials 1", true},
		{"eval logp -L 1e9 -sigma 0 -trials 50", false}, // no fluctuation: L_s* = μ, no search
		{"eval logp -L 999999999 -sigma 0.1 -trials 50", false},
		{"eval logp -L 999999999 -sigma 0.3 -trials 50", true},
	} {
		args := c.args
		out, _, err := runCmd(t, strings.Fields(args)...)
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		var ev struct {
			OptimalLs float64  `json:"optimal_Ls"`
			Closed    *float64 `json:"optimal_Ls_closed_form"`
			Cut       bool     `json:"optimal_Ls_search_cut"`
		}
		if err := json.Unmarshal([]byte(out), &ev); err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		if !(ev.OptimalLs >= 0 && ev.OptimalLs <= 1e9) || ev.Closed != nil && *ev.Closed > 1e9 {
			t.Errorf("%s: optimum %g (closed form %v) outside [0, 1e9]", args, ev.OptimalLs, ev.Closed)
		}
		if ev.Cut != c.cut {
			t.Errorf("%s: optimal_Ls_search_cut = %v, want %v", args, ev.Cut, c.cut)
		}
	}
	out, _, err := runCmd(t, "eval", "logp", "-trials", "50")
	if err != nil || strings.Contains(out, "search_cut") {
		t.Errorf("default logp: %v, search_cut in %s", err, out)
	}
}

// TestLongArgumentsAreCut: a megabyte-long bad value is repeated in the
// message as its first 40 characters and its length.
func TestLongArgumentsAreCut(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	for _, args := range [][]string{
		{"eval", "nbc", "-msg", long},
		{"eval", "logp", "-P", long},
		{"eval", "allreduce", long},
		{"eval", "overlay", "-" + long},
	} {
		_, _, err := runCmd(t, args...)
		if err == nil {
			t.Fatalf("%.20s…: no error", args)
		}
		if len(err.Error()) > 300 || !strings.Contains(err.Error(), "… (1048") {
			t.Errorf("%.20s…: message of %d bytes: %.300s", args, len(err.Error()), err)
		}
	}
	if got := shown.Quoted(`a "short" b "` + strings.Repeat("é", 50) + `" c`); got != `a "short" b "`+strings.Repeat("é", 40)+`… (50 characters)" c` {
		t.Errorf("cutQuoted: %s", got)
	}
}
