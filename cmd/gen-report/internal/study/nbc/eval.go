package nbc

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"commlab/cmd/gen-report/internal/cli"
	engine "commlab/engine/nbc"
)

// nbcEval is the JSON that `eval nbc` prints. Times are in seconds.
type nbcEval struct {
	Model          string        `json:"model"`
	Params         engine.Params `json:"params"`
	ComputeThreads int           `json:"compute_threads"`
	Total          float64       `json:"total_s"`
	// The parts: Total = Compute + Comm − Overlap + Overhead (see
	// engine/nbc.Result).
	Compute  float64 `json:"compute_s"`
	Comm     float64 `json:"comm_s"`
	Overlap  float64 `json:"overlap_s"`
	Overhead float64 `json:"overhead_s"`
	// The speedup is against the method's non-overlapped baseline, as the
	// paper measures it.
	BaselineMethod engine.Method `json:"baseline_method"`
	Baseline       float64       `json:"baseline_s"`
	Speedup        float64       `json:"speedup"`
}

func evalNbc(stdout, stderr io.Writer, args []string) error {
	p := engine.Default()
	fs := cli.NewFlagSet("eval nbc", stderr, "gen-report eval nbc [flags]")
	cli.BindParams(fs.FlagSet, &p, cli.Custom{Name: "msg", Value: (*sizeFlag)(&p.Msg)})
	force := cli.AddForce(fs.FlagSet)
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return fs.ParamError(err)
	}
	if err := cli.CheckCost("eval nbc", engine.Estimate(p), *force); err != nil {
		return err
	}
	r, err := engine.Run(p, nil)
	if err != nil {
		return fmt.Errorf("eval nbc: %w", err)
	}
	return fs.WriteJSON(stdout, nbcEval{
		Model: "nbc", Params: p, ComputeThreads: p.ComputeThreads(),
		Total: r.Total, Compute: r.Compute, Comm: r.Comm, Overlap: r.Overlap, Overhead: r.Overhead,
		BaselineMethod: p.Method.Baseline(), Baseline: r.Baseline, Speedup: r.Speedup,
	})
}

// sizeFlag is a size in bytes: plain (500000, 5e6) or with a unit, KB/MB/GB
// (powers of 1000, as the paper's "500KB" and "5MB") or KiB/MiB/GiB.
type sizeFlag float64

var sizeUnits = []struct {
	suffix string
	mult   float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"b", 1},
}

func (f *sizeFlag) String() string {
	if f == nil {
		return ""
	}
	return strconv.FormatFloat(float64(*f), 'g', -1, 64)
}

func (f *sizeFlag) Set(s string) error {
	num, mult := strings.TrimSpace(s), 1.0
	low := strings.ToLower(num)
	for _, u := range sizeUnits {
		if strings.HasSuffix(low, u.suffix) {
			num, mult = strings.TrimSpace(num[:len(num)-len(u.suffix)]), u.mult
			break
		}
	}
	x, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return fmt.Errorf("not a size: want bytes, e.g. 500000, 500KB, 5MB, 64KiB")
	}
	*f = sizeFlag(x * mult)
	return nil
}
