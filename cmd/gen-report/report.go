package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"commlab/cmd/gen-report/internal/cli"
	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study"
	"commlab/engine/sweep"
)

// Default trial counts: the paper's 30 per point; fewer in quick mode.
const ()

func runReport(stdout, stderr io.Writer, args []string) error {
	fs := cli.NewFlagSet("gen-report", stderr, "gen-report [-quick] [-out DIR] [-shard i/n] [-trials N] [-seed S] [-site-base URL]\n       gen-report merge -out DIR [-site-base URL] PART.json...\n       gen-report eval MODEL [flags]\n       gen-report topology infer|measure [flags]")
	out := fs.String("out", filepath.Join("site", "reports"), "directory the reports are written to (replaced as a whole); with -shard, the directory the part is written into")
	shardFlag := fs.String("shard", "", "run one slice i/n of every study's sweep and write it as DIR/part-i-of-n.json into -out (see merge)")
	config := reportFlags(fs)
	base := siteBaseFlag(fs)
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	if err := checkSiteBase(*base); err != nil {
		return err
	}
	cfg, err := config()
	if err != nil {
		return err
	}
	if *shardFlag != "" {
		if fs.IsSet("site-base") {
			return fmt.Errorf("gen-report: -site-base has no effect with -shard (a part holds no page): give it to merge")
		}
		sh, err := sweep.ParseShard(*shardFlag)
		if err != nil {
			return fmt.Errorf("gen-report: -shard: %w", err)
		}
		return writeShard(stdout, stderr, cfg, sh, *out)
	}
	if err := checkOutDir(*out); err != nil {
		return err
	}
	sweeps, err := layOut(cfg)
	if err != nil {
		return err
	}
	results := make([][]json.RawMessage, len(sweeps))
	begin := time.Now()
	_, cpuBegin := usage()
	for i, ls := range sweeps {
		start := time.Now()
		_, cpuStart := usage()
		if results[i], err = ls.Run(context.Background(), nil, cli.Progress(stderr, ls.name+" sweeps")); err != nil {
			return fmt.Errorf("gen-report: %s: %w", ls.name, err)
		}
		_, cpuEnd := usage()
		fmt.Fprintf(stderr, "%s: %d points%s in %s (%s of CPU)\n", ls.name, len(results[i]), trialsSpent(ls, results[i]),
			time.Since(start).Round(100*time.Millisecond), time.Duration((cpuEnd-cpuStart)*1e9).Round(100*time.Millisecond))
	}
	_, cpuEnd := usage()
	fmt.Fprintf(stderr, "sweeps: %s in all (%s of CPU)\n", time.Since(begin).Round(100*time.Millisecond), time.Duration((cpuEnd-cpuBegin)*1e9).Round(100*time.Millisecond))
	return writeReports(stdout, stderr, cfg, sweeps, results, *out, *base)
}

// siteBaseFlag adds -site-base, which report and merge share.
func siteBaseFlag(fs *cli.Flags) *string {
	return fs.String("site-base", report.DefaultSiteBase, `where the report's links find the site's scenes: a relative path ending in "/" (the default, `+report.DefaultSiteBase+`, for reports in site/reports/) or an absolute http(s) URL ending in "/" (a hosted site, for a report opened from file:// elsewhere)`)
}

// checkSiteBase checks -site-base before minutes of sweeping.
func checkSiteBase(base string) error {
	if err := report.CheckSiteBase(base); err != nil {
		return fmt.Errorf("gen-report: -site-base: %w", err)
	}
	return nil
}

// reportFlags defines on fs the flags that choose a report's sweeps
// (-quick, -seed); the function it returns reads them once fs is parsed.
// The report, status and plan take them alike. There is no -trials: each
// study decides its own trials, the allreduce cells adaptively to their
// intervals, the others by layouts their pages state (issue 22), so a
// report-wide count would be a flag that changes nothing.
func reportFlags(fs *cli.Flags) func() (study.Config, error) {
	quick := fs.Bool("quick", false, "reduced grids and trial budgets, for tests and CI")
	seed := fs.Uint64("seed", 1, "sweep seed")
	return func() (study.Config, error) {
		return study.Config{Full: !*quick, Seed: *seed}, nil
	}
}

// laidOut is one study's sweep under the report's Config.
type laidOut struct {
	name string
	study.Sweep
}

// layOut lays out every reporting study's sweep, in the registry's order.
func layOut(cfg study.Config) ([]laidOut, error) {
	var out []laidOut
	for _, s := range studies {
		r, ok := s.(study.Reporter)
		if !ok {
			continue
		}
		sw, err := r.Sweep(cfg)
		if err != nil {
			return nil, fmt.Errorf("gen-report: %s: %w", s.Name(), err)
		}
		out = append(out, laidOut{s.Name(), sw})
	}
	return out, nil
}

// checkOutDir fails early, before minutes of sweeping, when the report
// directory cannot be written: -out must be a report directory written
// before, an empty directory or a new name, and its parent writable (the
// report is written beside it and swapped in).
func checkOutDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("gen-report: -out %s: it exists and is not a directory; give a directory for the report", dir)
	case err == nil:
		if _, err := os.Stat(filepath.Join(dir, report.Marker)); err != nil {
			entries, err := os.ReadDir(dir)
			if err != nil {
				return fmt.Errorf("gen-report: -out %s: %w", dir, err)
			}
			if len(entries) > 0 {
				return fmt.Errorf("gen-report: -out %s: the directory is not empty and holds no report (no %s file), so gen-report will not replace it; give a new or empty directory", dir, report.Marker)
			}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("gen-report: -out %s: %w", dir, err)
	}
	return probeDir(filepath.Dir(filepath.Clean(dir)), dir)
}

// probeDir creates dir if needed and checks that a file can be written in
// it; errors name the -out value the user gave.
func probeDir(dir, out string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gen-report: -out %s: %w", out, err)
	}
	f, err := os.CreateTemp(dir, ".gen-report-probe-*")
	if err != nil {
		return fmt.Errorf("gen-report: -out %s: cannot write there: %w", out, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// writeReports builds every study's page from its points' results (run
// here, or merged from shards) and writes the report, its links under
// siteBase. (The MMDL page's calibration loop runs live on the machine
// that writes the report: its section is Live, on a page of its own.)
func writeReports(stdout, stderr io.Writer, cfg study.Config, sweeps []laidOut, results [][]json.RawMessage, out, siteBase string) error {
	var pages []report.Page
	points := 0
	for i, ls := range sweeps {
		page, err := ls.Page(results[i])
		if err != nil {
			return &studyError{i, fmt.Errorf("gen-report: %s: %w", ls.name, err)}
		}
		pages = append(pages, page)
		points += len(results[i])
	}
	idx := report.Index{
		Title:    "commlab reports",
		Intro:    "The papers' parameter sweeps, regenerated by commlab's simulation engine (go run ./cmd/gen-report). Every chart links to the data behind it.",
		Edition:  "full",
		Note:     "This is the full report: the papers' grids, each point with the trials its page states.",
		SiteBase: siteBase,
	}
	if !cfg.Full {
		idx.Edition = "quick"
		idx.Note = "This is the quick report: smaller grids and trial budgets, written in a minute for a first look and for the tests. The full report (the papers' grids) takes minutes: make report writes it, and make serve builds it in the background."
	}
	if err := report.Write(out, idx, pages...); err != nil {
		return err
	}
	// The README's paper-vs-commlab tables are made from these (readme.go).
	if err := writeFindings(out, cfg.Full, cfg.Seed, pages); err != nil {
		return err
	}
	_, err := fmt.Fprintf(stdout, "wrote %s (%d points of %d studies)\n", filepath.Join(out, "index.html"), points, len(sweeps))
	return err
}

// studyError is an error of the study sweeps[study] while building its
// page, so that merge can name the part file a refused result came from.
type studyError struct {
	study int
	err   error
}

func (e *studyError) Error() string { return e.err.Error() }
func (e *studyError) Unwrap() error { return e.err }

// trialsSpent says how many Monte Carlo trials a study's results hold
// (", 1,234 trials"), for a study that counts them (study.TrialCounter);
// "" for one that does not or a result it cannot read (the report then
// fails later, naming the point).
func trialsSpent(ls laidOut, results []json.RawMessage) string {
	tc, ok := ls.Sweep.(study.TrialCounter)
	if !ok {
		return ""
	}
	n := 0
	for pt, r := range results {
		k, err := tc.PointTrials(pt, r)
		if err != nil {
			return ""
		}
		n += k
	}
	if n == 0 {
		return ", deterministic"
	}
	return ", " + commas(n) + " trials"
}
