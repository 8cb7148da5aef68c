package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"commlab/cmd/gen-report/internal/cli"
	"commlab/cmd/gen-report/internal/study"
	"commlab/engine/sweep"
	"commlab/internal/boundedio"
	"commlab/internal/shown"
)

// partFormat names the format of the files -shard writes and merge reads.
const partFormat = "commlab gen-report part v1"

// partFile is what `gen-report -shard i/n` writes: the results of the
// points shard i of n owns, of every study, and everything a merge checks
// them against.
type partFile struct {
	Format string       `json:"format"`
	Build  string       `json:"build"` // the gen-report that wrote it (buildID)
	Config study.Config `json:"config"`
	Shard  sweep.Shard  `json:"shard"`
	// Studies holds every reporting study, in the registry's order, even
	// one with no point in this shard.
	Studies []partStudy `json:"studies"`
	// MaxRSS is the most memory the shard's process held (bytes), CPU its
	// CPU time (s), both 0 where not measured, and Workers the goroutines
	// its sweeps ran on: gen-report status shows them, to size a rerun.
	MaxRSS  int64   `json:"max_rss_bytes"`
	CPU     float64 `json:"cpu_seconds"`
	Workers int     `json:"workers"`
}

type partStudy struct {
	Name        string                  `json:"name"`
	Fingerprint string                  `json:"fingerprint"`
	Points      int                     `json:"points"`
	Results     map[int]json.RawMessage `json:"results"` // point → its result, for the points the shard owns
	// Seconds is how long the shard took over its points of the study
	// (wall time), beside Costs' estimate of them: gen-report status
	// reads both to say how long the missing shards will take.
	Seconds  float64 `json:"seconds"`
	Estimate float64 `json:"estimate_seconds"`
}

// partName is the file shard sh writes into its directory.
func partName(sh sweep.Shard) string { return fmt.Sprintf("part-%d-of-%d.json", sh.Index, sh.Count) }

// owners splits every study's points over count shards by their
// estimated time, all studies' points together, so that the shards take
// about equal time: owners[study][point] is the shard index, 1..count.
// It depends on the sweeps' costs alone, so every shard and the merge
// compute the same split.
func owners(sweeps []laidOut, count int) ([][]int, error) {
	var all []float64
	for _, ls := range sweeps {
		all = append(all, ls.Costs()...)
	}
	flat, err := sweep.Assign(all, count)
	if err != nil {
		return nil, err
	}
	out := make([][]int, len(sweeps))
	for i, ls := range sweeps {
		n := len(ls.Costs())
		out[i], flat = flat[:n], flat[n:]
	}
	return out, nil
}

// writeShard runs the points shard sh owns and writes them as
// DIR/part-i-of-n.json.
func writeShard(stdout, stderr io.Writer, cfg study.Config, sh sweep.Shard, dir string) error {
	if err := probeDir(dir, dir); err != nil {
		return err
	}
	sweeps, err := layOut(cfg)
	if err != nil {
		return err
	}
	own, err := owners(sweeps, sh.Count)
	if err != nil {
		return fmt.Errorf("gen-report: -shard %v: %w", sh, err)
	}
	pf := partFile{Format: partFormat, Build: buildID(), Config: cfg, Shard: sh}
	for i, ls := range sweeps {
		mine := make([]bool, len(own[i]))
		for pt, o := range own[i] {
			mine[pt] = o == sh.Index
		}
		start := time.Now()
		res, err := ls.Run(context.Background(), mine, cli.Progress(stderr, ls.name+" shard "+sh.String()))
		if err != nil {
			return fmt.Errorf("gen-report: %s: %w", ls.name, err)
		}
		ps := partStudy{Name: ls.name, Fingerprint: ls.Fingerprint(), Points: len(res), Results: map[int]json.RawMessage{},
			Seconds: time.Since(start).Seconds()}
		costs := ls.Costs()
		for pt, r := range res {
			if mine[pt] {
				ps.Results[pt] = r
				ps.Estimate += costs[pt]
			}
		}
		pf.Studies = append(pf.Studies, ps)
	}
	pf.MaxRSS, pf.CPU = usage()
	pf.Workers = runtime.GOMAXPROCS(0)
	b, err := json.Marshal(pf)
	if err != nil {
		return err
	}
	name := filepath.Join(dir, partName(sh))
	if err := cli.WriteFileAtomic(name, append(b, '\n')); err != nil {
		return fmt.Errorf("gen-report: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "wrote %s\n", name)
	return err
}

// maxPartBytes bounds what merge reads of one part file: a full report's
// parts hold a few megabytes (the allreduce's trials, 13 times each); a
// file far beyond that is not a part.
const maxPartBytes = 256 << 20

func runMerge(stdout, stderr io.Writer, args []string) error {
	fs := cli.NewFlagSet("merge", stderr, "gen-report merge -out DIR [-site-base URL] PART.json...")
	out := fs.String("out", filepath.Join("site", "reports"), "directory the reports are written to")
	base := siteBaseFlag(fs)
	if err := fs.ParseArgs(args, true); err != nil {
		return err
	}
	if err := checkSiteBase(*base); err != nil {
		return err
	}
	files := fs.Args()
	if len(files) == 0 {
		return fmt.Errorf("merge: name the shard files (gen-report -shard i/n -out DIR writes them)")
	}
	if err := checkOutDir(*out); err != nil {
		return err
	}
	parts, err := readParts(files)
	if err != nil {
		return err
	}
	cfg := parts[0].Config
	sweeps, err := layOut(cfg)
	if err != nil {
		return err
	}
	results, from, err := mergeParts(files, parts, sweeps)
	if err != nil {
		return err
	}
	err = writeReports(stdout, stderr, cfg, sweeps, results, *out, *base)
	// A result the study refused names the file it came from.
	var se *studyError
	var pe *study.PointError
	if errors.As(err, &se) && errors.As(err, &pe) {
		return fmt.Errorf("merge: %s: %s point %d: %v", files[from[se.study][pe.Point]], sweeps[se.study].name, pe.Point, pe.Err)
	}
	return err
}

// readParts reads and decodes every part file, strictly, and checks that
// they come from one gen-report build, one set of flags and one shard
// count, each shard once.
func readParts(files []string) ([]partFile, error) {
	parts := make([]partFile, len(files))
	for i, name := range files {
		p, err := readPart(name)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		if p.Build != buildID() {
			return nil, fmt.Errorf("merge: %s", otherBuild(name, p))
		}
		parts[i] = p
		if i == 0 {
			continue
		}
		if p.Config != parts[0].Config {
			return nil, fmt.Errorf("merge: %s was run with %s, %s with %s: parts of one report share their flags",
				name, configFlags(p.Config), files[0], configFlags(parts[0].Config))
		}
		if p.Shard.Count != parts[0].Shard.Count {
			return nil, fmt.Errorf("merge: %s is shard %v, %s shard %v: parts of one report split it into the same number of shards", name, p.Shard, files[0], parts[0].Shard)
		}
	}
	n := parts[0].Shard.Count
	seen := make([]int, n+1) // shard index → 1 + its file's index
	for i, p := range parts {
		if j := seen[p.Shard.Index]; j > 0 {
			return nil, fmt.Errorf("merge: %s and %s are both shard %v", files[j-1], files[i], p.Shard)
		}
		seen[p.Shard.Index] = i + 1
	}
	var missing []int
	for k := 1; k <= n; k++ {
		if seen[k] == 0 {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("merge: %d of %d shards missing: %s; run gen-report -shard i/%d for each", len(missing), n, shardList(missing, n), n)
	}
	return parts, nil
}

// readPart reads one part file, bounded and strictly, and checks its
// header: the format, a shard i/n in range, trials in range. The build is
// the caller's to judge (otherBuild). Errors name the file.
func readPart(name string) (partFile, error) {
	var p partFile
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		return p, fmt.Errorf("%s is a directory, not a part file", name)
	}
	b, err := boundedio.ReadFile(name, cli.ReadLimit(false, maxPartBytes))
	if err != nil {
		return p, err
	}
	if err := cli.DecodeStrict(b, &p); err != nil {
		return p, fmt.Errorf("%s: not a part file written by gen-report -shard: %s", name, shown.Cut(err.Error()))
	}
	switch {
	case p.Format != partFormat:
		return p, fmt.Errorf("%s: format %q, want %q: not a part file of this gen-report", name, shown.Cut(p.Format), partFormat)
	case p.Shard.Count < 1 || p.Shard.Count > sweep.MaxShards || p.Shard.Index < 1 || p.Shard.Index > p.Shard.Count:
		return p, fmt.Errorf("%s: shard %d/%d: want i/n with n in [1, %d] and i in [1, n]", name, p.Shard.Index, p.Shard.Count, sweep.MaxShards)
	case p.Config.Trials < 1 || p.Config.Trials > cli.MaxTrials:
		return p, fmt.Errorf("%s: config.trials = %d: want an integer in [1, %d]", name, p.Config.Trials, cli.MaxTrials)
	}
	return p, nil
}

// otherBuild says that part p, read from name, was written by another
// gen-report build than this one.
func otherBuild(name string, p partFile) string {
	return fmt.Sprintf("%s was written by gen-report build %s, this is build %s: merge with the binary that ran the shards", name, shown.Cut(p.Build), buildID())
}

// configFlags writes cfg as the flags that give it: "-quick -trials 8 -seed 1".
func configFlags(cfg study.Config) string {
	s := fmt.Sprintf("-trials %d -seed %d", cfg.Trials, cfg.Seed)
	if !cfg.Full {
		s = "-quick " + s
	}
	return s
}

// shardList names shards k/n, the first ten.
func shardList(ks []int, n int) string {
	var s []string
	for _, k := range ks[:min(len(ks), 10)] {
		s = append(s, fmt.Sprintf("%d/%d", k, n))
	}
	if len(ks) > 10 {
		s = append(s, fmt.Sprintf("and %d more", len(ks)-10))
	}
	return strings.Join(s, ", ")
}

// mergeParts puts the parts' results together per study, checking each
// against the sweeps laid out here (checkPart). from[study][point] is the
// index of the file that gave the point's result.
func mergeParts(files []string, parts []partFile, sweeps []laidOut) ([][]json.RawMessage, [][]int, error) {
	own, err := owners(sweeps, parts[0].Shard.Count)
	if err != nil {
		return nil, nil, fmt.Errorf("merge: %w", err)
	}
	results := make([][]json.RawMessage, len(sweeps))
	from := make([][]int, len(sweeps))
	for i := range sweeps {
		results[i] = make([]json.RawMessage, len(own[i]))
		from[i] = make([]int, len(own[i]))
	}
	for f, p := range parts {
		if err := checkPart(files[f], p, sweeps, own); err != nil {
			return nil, nil, fmt.Errorf("merge: %w", err)
		}
		for i, ps := range p.Studies {
			for pt, r := range ps.Results {
				results[i][pt], from[i][pt] = r, f
			}
		}
	}
	return results, from, nil
}

// checkPart checks part p, read from name, against the sweeps laid out
// here and their split own (owners): the same studies and fingerprints,
// and in each exactly the points the split gives its shard. Errors name
// the file.
func checkPart(name string, p partFile, sweeps []laidOut, own [][]int) error {
	if len(p.Studies) != len(sweeps) {
		return fmt.Errorf("%s holds %d studies, this gen-report has %d", name, len(p.Studies), len(sweeps))
	}
	for i, ps := range p.Studies {
		ls := sweeps[i]
		switch {
		case ps.Name != ls.name:
			return fmt.Errorf("%s: study %d is %q, want %q", name, i, shown.Cut(ps.Name), ls.name)
		case ps.Fingerprint != ls.Fingerprint():
			return fmt.Errorf("%s: %s's grid is %q, this gen-report lays out %q under the same flags", name, ls.name, shown.Cut(ps.Fingerprint), ls.Fingerprint())
		case ps.Points != len(own[i]):
			return fmt.Errorf("%s: %s has %d points, want %d", name, ls.name, ps.Points, len(own[i]))
		}
		for _, pt := range slices.Sorted(maps.Keys(ps.Results)) {
			switch {
			case pt < 0 || pt >= len(own[i]):
				return fmt.Errorf("%s: %s point %d is outside [0, %d)", name, ls.name, pt, len(own[i]))
			case own[i][pt] != p.Shard.Index:
				return fmt.Errorf("%s: %s point %d belongs to shard %d/%d, not to this file's %v", name, ls.name, pt, own[i][pt], p.Shard.Count, p.Shard)
			}
		}
		for pt, o := range own[i] {
			if _, ok := ps.Results[pt]; o == p.Shard.Index && !ok {
				return fmt.Errorf("%s: %s point %d is missing: the split gives it to this file's shard %v", name, ls.name, pt, p.Shard)
			}
		}
	}
	return nil
}

// buildID names the gen-report binary that runs: the first 16 hex digits
// of its SHA-256. Parts from different builds never merge: a study's
// results are only as comparable as the code that computed them.
var buildID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(exe)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
})
