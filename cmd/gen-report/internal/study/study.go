package study

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"commlab/cmd/gen-report/internal/report"
)

// Config is what every study's sweep takes from gen-report's flags.
type Config struct {
	Full   bool   `json:"full"`   // the paper's grids; false: the quick report's smaller ones
	Trials int    `json:"trials"` // Monte Carlo trials per point where a study runs a fixed count
	Seed   uint64 `json:"seed"`   // the sweep's seed: every trial's seed derives from it
}

// A Study is one paper's part of gen-report: its eval command and, for a
// study with a report page, its sweep and page.
type Study interface {
	// Name is the model's name: `gen-report eval NAME`, the page NAME.html
	// and the findings file findings-NAME.json.
	Name() string
	// Eval runs `gen-report eval NAME args...`: one model point as JSON.
	Eval(stdout, stderr io.Writer, args []string) error
}

// A Reporter is a study with a page in the report.
type Reporter interface {
	Study
	// Sweep lays out the study's work under cfg. It is deterministic and
	// cheap beside the work itself: every shard and the merge lay it out
	// again and must agree on the points and their costs.
	Sweep(cfg Config) (Sweep, error)
}

// A Sweep is a study's work as independent points, each run to a result
// that JSON carries, so that a shard can run some of the points on one
// machine and a merge can put every point's result together on another.
// The page is built from the results alone: the single-machine report
// runs every point and builds the page the same way, from the results'
// JSON, so that a merged report is byte for byte the single-machine one.
type Sweep interface {
	// Fingerprint names the grid and everything its results depend on
	// (the study's version of its points, the flags); parts of sweeps
	// with different fingerprints never merge.
	Fingerprint() string
	// Costs estimates each point's run time, in seconds of one core: the
	// shards split the points so that their sums are about equal.
	Costs() []float64
	// Run runs the points with owned[point] set (every point when owned
	// is nil) over the cores and returns their results, indexed by point
	// (nil for the points it did not run). progress, if set, is called
	// with the work done and the total, in the units of Costs.
	Run(ctx context.Context, owned []bool, progress func(done, total float64)) ([]json.RawMessage, error)
	// Page builds the study's page from every point's result. A result
	// it cannot take (read from a shard file: wrong shape, a negative
	// time, more trials than the flags allow) is a *PointError.
	Page(results []json.RawMessage) (report.Page, error)
}

// PointError is a point's result that a study's Page refused: the merge
// names the file it came from.
type PointError struct {
	Point int
	Err   error
}

func (e *PointError) Error() string { return fmt.Sprintf("point %d: %v", e.Point, e.Err) }
func (e *PointError) Unwrap() error { return e.Err }

// A TrialCounter is a Sweep that says how many Monte Carlo trials each
// point's result holds: gen-report status adds them up over the parts a
// sharded run has written so far. It reads the result, not the layout,
// so that a sweep whose trials adapt to the data counts the trials that
// ran. gen-report status says "not reported" for a Sweep that is not one.
type TrialCounter interface {
	// PointTrials is the number of Monte Carlo trials behind point's result
	// (as Run returned it): 0 for a deterministic point. A result it
	// cannot read is an error.
	PointTrials(point int, result json.RawMessage) (int, error)
}

// CountArray is the number of elements of the JSON array raw, read
// without decoding them: the trials of a result written as one element
// per trial.
func CountArray(raw json.RawMessage) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return 0, fmt.Errorf("%s is not a JSON array", cutJSON(raw))
	}
	n := 0
	for dec.More() {
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return 0, fmt.Errorf("element %d: %w", n, err)
		}
		n++
	}
	if _, err := dec.Token(); err != nil {
		return 0, fmt.Errorf("after element %d: %w", n, err)
	}
	if dec.More() {
		return 0, fmt.Errorf("data after the array")
	}
	return n, nil
}
