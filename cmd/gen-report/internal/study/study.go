package study

import (
	"context"
	"io"

	"commlab/cmd/gen-report/internal/report"
)

// Config is what every study's sweep takes from gen-report's flags.
type Config struct {
	Full   bool   // the paper's grids; false: the quick report's smaller ones
	Trials int    // Monte Carlo trials per point where a study runs a fixed count
	Seed   uint64 // the sweep's seed: every trial's seed derives from it
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
	// Report runs the study's sweeps under cfg and builds its page;
	// progress lines go to stderr.
	Report(ctx context.Context, cfg Config, stderr io.Writer) (report.Page, error)
}
