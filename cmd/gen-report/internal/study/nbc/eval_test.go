package nbc

import (
	"commlab/cmd/gen-report/internal/clitest"
	"encoding/json"
	"strings"
	"testing"
)

// TestEvalNbc pins `eval nbc` for the example, the paper's 2-node
// LibNBC case and an oversubscribed TCC with several collectives.
func TestEvalNbc(t *testing.T) {
	for _, tc := range []struct{ name, args string }{
		{"eval_nbc_tcc32.stdout", "eval nbc -nodes 32 -msg 500KB -matrix 30000 -method tcc"},
		{"eval_nbc_nbcf2.stdout", "eval nbc -nodes 2 -msg 5MB -matrix 4000 -method nbcf-test"},
		{"eval_nbc_oversub.stdout", "eval nbc -nodes 8 -msg 64KiB -matrix 8000 -method tcc -oversubscribe -collectives 4 -queue 2 -time_slice 1e-4"},
		{"eval_nbc_calibrated32.stdout", "eval nbc -nodes 32 -msg 500KB -matrix 30000 -method nbct -progress_call 4.06e-7 -thread_create 3.71e-4 -poll_interference 0.111"},
		// docs/nbc.md's re-measure command: the plausible calibration with memory sharing.
		{"eval_nbc_memory32.stdout", "eval nbc -nodes 32 -msg 500KB -matrix 30000 -method nbct -memory_share -dma_traffic 0.693 -progress_call 1e-7 -thread_create 1.109e-4 -mutex_handoff 2e-6 -poll_interference 0.05"},
	} {
		t.Run(tc.name, func(t *testing.T) { clitest.EvalGolden(t, cmd, tc.name, tc.args) })
	}
}

// TestEvalNbcSizes: the -msg units.
func TestEvalNbcSizes(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		want float64
	}{{"500KB", 500e3}, {"5MB", 5e6}, {"64KiB", 65536}, {"1MiB", 1 << 20}, {"500000", 500e3}, {"5e6", 5e6}, {"1.5kb", 1500}, {"2GB", 2e9}, {"300B", 300}} {
		out, _, err := clitest.Run(t, cmd, "eval", "nbc", "-nodes", "2", "-matrix", "100", "-msg", tc.arg)
		if tc.want > 1<<30 {
			if err == nil || !strings.Contains(err.Error(), "-msg = 2e+09 is out of range") {
				t.Errorf("-msg %s: got %v, want out of range", tc.arg, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("-msg %s: %v", tc.arg, err)
		}
		var ev struct {
			Params struct {
				Msg float64 `json:"msg"`
			} `json:"params"`
			Speedup float64 `json:"speedup"`
		}
		if err := json.Unmarshal([]byte(out), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Params.Msg != tc.want {
			t.Errorf("-msg %s: %g bytes, want %g", tc.arg, ev.Params.Msg, tc.want)
		}
	}
}

func TestEvalNbcBadInput(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"eval nbc -nodes 1", "eval nbc: -nodes = 1 is out of range: want an integer in [2, 128]"},
		{"eval nbc -nodes 129", "-nodes = 129 is out of range"},
		{"eval nbc -msg 0", "eval nbc: -msg = 0 is out of range: want a size in bytes in [1, 1073741824]"},
		{"eval nbc -msg 5x", `invalid value "5x" for flag -msg: not a size`},
		{"eval nbc -msg KB", `invalid value "KB" for flag -msg`},
		{"eval nbc -matrix 0", "-matrix = 0 is out of range: want an integer in [1, 200000]"},
		{"eval nbc -method foo", `invalid value "foo" for flag -method: unknown method "foo" (want one of nbcf-noovlp, nbcf-test, nbcf-notest, nbct, mpi, tcc)`},
		{"eval nbc -collectives 17", "-collectives = 17 is out of range: want an integer in [1, 16]"},
		{"eval nbc -cores 1", "-cores = 1 is out of range"},
		{"eval nbc -queue 0", "-queue = 0 is out of range: want an integer in [1, 64]"},
		{"eval nbc -test_every 0", "-test_every = 0 is out of range"},
		{"eval nbc -alltoall ring", `-alltoall = "ring" is out of range: want pairwise or all-at-once`},
		{"eval nbc -nbc_alltoall x", `-nbc_alltoall = "x" is out of range`},
		{"eval nbc -latency -1", "-latency = -1 is out of range: want a time in seconds in [0, 1]"},
		{"eval nbc -bandwidth 0.5", "-bandwidth = 0.5 is out of range: want a bandwidth in B/s in [1, 1e+15]"},
		{"eval nbc -msg 1GiB -bandwidth 1e-300", "eval nbc: -bandwidth = 1e-300 is out of range: want a bandwidth in B/s in [1, 1e+15]"},
		{"eval nbc -core_bandwidth 1e-300", "-core_bandwidth = 1e-300 is out of range"},
		{"eval nbc -sockets 4 -cores 2", "eval nbc: -sockets = 4 is out of range: want an integer in [1, 2]"},
		{"eval nbc -eager_limit -1", "-eager_limit = -1 is out of range"},
		{"eval nbc -mutex_handoff NaN", "-mutex_handoff = NaN is out of range"},
		{"eval nbc -time_slice 0", "eval nbc: -time_slice = 0 is out of range: want a time in seconds in [0.0001, 1] (Linux's CFS refuses a granularity under 100 µs)"},
		{"eval nbc -dma_traffic 1.5", "eval nbc: -dma_traffic = 1.5 is out of range: want a ratio in [0, 1]"},
		{"eval nbc -memory_share=sometimes", `invalid boolean value "sometimes" for -memory_share`},
		{"eval nbc -sockets 0", "-sockets = 0 is out of range"},
		{"eval nbc -test_threads every", `eval nbc: -test_threads = "every" is out of range: want all or master`},
		{"eval nbc -poll_interference -0.1", "eval nbc: -poll_interference = -0.1 is out of range: want a ratio in [0, 10]"},
		{"eval nbc -poll_interference 11", "-poll_interference = 11 is out of range"},
		{"eval nbc -oversubscribe=maybe", `invalid boolean value "maybe" for -oversubscribe`},
		{"eval nbc -bogus", "flag provided but not defined: -bogus"},
		{"eval nbc extra", `unexpected argument "extra"`},
	} {
		t.Run(tc.args, func(t *testing.T) { clitest.BadInput(t, cmd, tc.args, tc.want) })
	}
}

// cmd is eval nbc as gen-report's main runs it.
var cmd = clitest.Eval(Study{})
