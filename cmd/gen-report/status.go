package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"commlab/cmd/gen-report/internal/cli"
	"commlab/cmd/gen-report/internal/study"
	"commlab/engine/sweep"
)

const statusUsage = "gen-report status [-shards N] [-quick] [-trials N] [-seed S] [-missing] DIR"

// partPattern is the name -shard gives its part (partName).
var partPattern = regexp.MustCompile(`^part-([1-9][0-9]*)-of-([1-9][0-9]*)\.json$`)

// runStatus is `gen-report status DIR`: how far a sharded run has come,
// read from the part files in DIR (written so far, by any number of
// machines). It tolerates what a run in progress or a failed one leaves
// behind (a truncated file, a part of another build or other flags, a
// directory where a part should be) and names each such file; those
// shards count as missing, since merge would refuse them.
func runStatus(stdout, stderr io.Writer, args []string) error {
	fs := cli.NewFlagSet("status", stderr, statusUsage)
	shards := fs.Int("shards", 0, fmt.Sprintf("the run's shard count, in [1, %d] (default: the count the part files' names give); parts of other counts are ignored", sweep.MaxShards))
	missingOnly := fs.Bool("missing", false, "print only the shards without a usable part, as a Slurm array list (2,5-7), and nothing when every shard is done; the problems go to stderr")
	config := reportFlags(fs)
	if err := fs.ParseArgs(args, true); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("status: name one parts directory (gen-report -shard i/n -out DIR writes the parts there); usage: %s", statusUsage)
	}
	dir := fs.Arg(0)
	if fs.IsSet("shards") && (*shards < 1 || *shards > sweep.MaxShards) {
		return fmt.Errorf("status: -shards = %d is out of range: want an integer in [1, %d]", *shards, sweep.MaxShards)
	}
	var want *study.Config
	if fs.IsSet("quick") || fs.IsSet("trials") || fs.IsSet("seed") {
		cfg, err := config()
		if err != nil {
			return err
		}
		want = &cfg
	}
	st, err := readStatus(dir, *shards, want)
	if err != nil {
		return err
	}
	if *missingOnly {
		for _, p := range st.problems {
			fmt.Fprintf(stderr, "status: %s\n", p)
		}
		if len(st.Missing) > 0 {
			_, err = fmt.Fprintln(stdout, arrayList(st.Missing))
		}
		return err
	}
	_, err = io.WriteString(stdout, st.String())
	return err
}

// runStatus' view of a parts directory.
type partsStatus struct {
	sweep.Status // shards, points, trials, time left
	dir          string
	cfg          *study.Config // the run's flags; nil when no part says them
	studies      []studyStatus
	problems     []string // files that count as missing, and why
	ignored      []string // part files of other shard counts
	maxRSS       int64    // the largest peak memory a part records
	maxRSSShard  int
	workers      int     // its sweeps' goroutines
	cpu          float64 // the parts' CPU seconds, summed
}

type studyStatus struct {
	name            string
	points, done    int
	trials          int
	counted, random bool // trials counted (a TrialCounter); some point holds trials
}

// readStatus reads the part files of dir: those of count shards (0: the
// one count their names give) and, when want is set, of those flags.
func readStatus(dir string, shards int, want *study.Config) (*partsStatus, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("status: %s: no such directory (gen-report -shard i/n -out DIR writes the parts there)", dir)
	case err != nil:
		return nil, fmt.Errorf("status: %w", err)
	case !fi.IsDir():
		return nil, fmt.Errorf("status: %s is not a directory: give the directory the shards wrote their parts into", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("status: %w", err)
	}
	st := &partsStatus{dir: dir, cfg: want}
	// The part files by shard count, then index.
	byCount := map[int]map[int]string{}
	for _, e := range entries {
		m := partPattern.FindStringSubmatch(e.Name())
		if m == nil {
			continue // the run's other files, a part being written (.part-…tmp)
		}
		i, err1 := strconv.Atoi(m[1])
		n, err2 := strconv.Atoi(m[2])
		if err1 != nil || err2 != nil || n < 1 || n > sweep.MaxShards || i < 1 || i > n {
			st.problems = append(st.problems, fmt.Sprintf("%s: no shard of gen-report has that name (want part-i-of-n.json, n in [1, %d], i in [1, n])", e.Name(), sweep.MaxShards))
			continue
		}
		if byCount[n] == nil {
			byCount[n] = map[int]string{}
		}
		byCount[n][i] = filepath.Join(dir, e.Name())
	}
	counts := slices.Sorted(maps.Keys(byCount))
	switch {
	case shards > 0:
	case len(counts) == 1:
		shards = counts[0]
	case len(counts) == 0:
		return nil, fmt.Errorf("status: %s holds no part file yet (gen-report -shard i/n -out DIR writes part-i-of-n.json); give -shards N to list the missing shards all the same", dir)
	default:
		var runs []string
		for _, n := range counts {
			runs = append(runs, fmt.Sprintf("%d of %d shards", len(byCount[n]), n))
		}
		return nil, fmt.Errorf("status: %s holds the parts of several runs (%s): give -shards N to read one", dir, strings.Join(runs, ", "))
	}
	for _, n := range counts {
		if n != shards {
			st.ignored = append(st.ignored, fmt.Sprintf("%s of %d shards", plural(len(byCount[n]), "part file"), n))
		}
	}
	st.Shards = shards

	// Read every part of this count; the run's flags are those given,
	// or else those most parts of this build were run with.
	files := byCount[shards]
	parts := map[int]partFile{}
	votes := map[study.Config]int{}
	for _, i := range slices.Sorted(maps.Keys(files)) {
		name := files[i]
		p, err := readPart(name)
		switch {
		case err != nil:
			st.problems = append(st.problems, err.Error())
			continue
		case p.Shard != sweep.Shard{Index: i, Count: shards}:
			st.problems = append(st.problems, fmt.Sprintf("%s holds shard %v, not the %d/%d its name says", name, p.Shard, i, shards))
			continue
		case p.Build != buildID():
			st.problems = append(st.problems, otherBuild(name, p)+" (or run it again)")
			continue
		}
		parts[i] = p
		votes[p.Config]++
	}
	if st.cfg == nil && len(votes) > 0 {
		var best study.Config
		for _, i := range slices.Sorted(maps.Keys(parts)) { // ties: the lowest shard's flags
			if c := parts[i].Config; votes[c] > votes[best] {
				best = c
			}
		}
		st.cfg = &best
	}
	if st.cfg == nil {
		st.Missing = seq(1, shards)
		return st, nil
	}
	sweeps, err := layOut(*st.cfg)
	if err != nil {
		return nil, err
	}
	own, err := owners(sweeps, shards)
	if err != nil {
		return nil, fmt.Errorf("status: %w", err)
	}
	loads := make([]float64, shards)
	for i, ls := range sweeps {
		ss := studyStatus{name: ls.name, points: len(own[i])}
		_, ss.counted = ls.Sweep.(study.TrialCounter)
		st.studies = append(st.studies, ss)
		for pt, c := range ls.Costs() {
			loads[own[i][pt]-1] += c
		}
	}
	var estimated float64 // the estimate of the timed parts' work
	for k := 1; k <= shards; k++ {
		p, ok := parts[k]
		if ok && p.Config != *st.cfg {
			st.problems = append(st.problems, fmt.Sprintf("%s was run with %s, the run with %s: merge refuses it (run it again)", files[k], configFlags(p.Config), configFlags(*st.cfg)))
			ok = false
		}
		if ok {
			if err := checkPart(files[k], p, sweeps, own); err != nil {
				st.problems = append(st.problems, err.Error()+" (run it again)")
				ok = false
			}
		}
		var trials []int
		if ok {
			if trials, err = countTrials(files[k], p, sweeps); err != nil {
				st.problems = append(st.problems, err.Error())
				ok = false
			}
		}
		if !ok {
			st.Missing = append(st.Missing, k)
			st.CostLeft += loads[k-1]
			continue
		}
		st.Done = append(st.Done, k)
		st.CostDone += loads[k-1]
		var sec, est float64
		for i, ps := range p.Studies {
			ss := &st.studies[i]
			ss.done += len(ps.Results)
			ss.trials += trials[i]
			ss.random = ss.random || trials[i] > 0
			st.Points += len(ps.Results)
			st.Trials += trials[i]
			sec += ps.Seconds
			est += ps.Estimate
		}
		if sec > 0 && est > 0 {
			st.Seconds += sec
			estimated += est
		}
		st.cpu += p.CPU
		if p.MaxRSS > st.maxRSS {
			st.maxRSS, st.maxRSSShard, st.workers = p.MaxRSS, k, p.Workers
		}
	}
	if st.Seconds > 0 && estimated > 0 && len(st.Missing) > 0 {
		// Measured wall seconds per estimated second of the parts done:
		// it takes in the machines' speed and cores and the estimates'
		// error, as far as the missing shards resemble the done ones.
		st.Estimated = true
		rate := st.Seconds / estimated
		st.SecondsLeft = rate * st.CostLeft
		for _, k := range st.Missing {
			st.LongestLeft = max(st.LongestLeft, rate*loads[k-1])
		}
	}
	return st, nil
}

// countTrials asks each study that counts them (study.TrialCounter) how
// many Monte Carlo trials part p's results hold: trials[study].
func countTrials(name string, p partFile, sweeps []laidOut) ([]int, error) {
	trials := make([]int, len(sweeps))
	for i, ls := range sweeps {
		tc, ok := ls.Sweep.(study.TrialCounter)
		if !ok {
			continue
		}
		for _, pt := range slices.Sorted(maps.Keys(p.Studies[i].Results)) {
			n, err := tc.PointTrials(pt, p.Studies[i].Results[pt])
			if err == nil && n < 0 {
				err = fmt.Errorf("%d trials", n)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %s point %d: cannot count its trials: %v (run it again)", name, ls.name, pt, err)
			}
			trials[i] += n
		}
	}
	return trials, nil
}

// String prints the status: the run, the shards and time left
// (sweep.Status), each study's points and trials, the files that count as
// missing and why, and how to run the missing shards.
func (st *partsStatus) String() string {
	var b strings.Builder
	run := "flags unknown: no usable part yet"
	if st.cfg != nil {
		run = "gen-report " + configFlags(*st.cfg)
	}
	fmt.Fprintf(&b, "%s: %d shards of %s (build %s)\n", st.dir, st.Shards, run, buildID())
	b.WriteString(st.Status.String())
	b.WriteByte('\n')
	if !st.Estimated && len(st.Missing) > 0 && st.CostLeft > 0 {
		fmt.Fprintf(&b, "  (the studies' cost estimates say %s of one core for the missing shards, before any shard's time corrects them)\n", seconds(st.CostLeft))
	}
	if st.maxRSS > 0 {
		fmt.Fprintf(&b, "memory: %s at most, in shard %d/%d (%s); CPU: %s in the shards done\n",
			megabytes(st.maxRSS), st.maxRSSShard, st.Shards, plural(st.workers, "worker"), seconds(st.cpu))
	}
	width, digits := 0, 0
	for _, ss := range st.studies {
		width, digits = max(width, len(ss.name)), max(digits, len(commas(ss.points)))
	}
	for _, ss := range st.studies {
		trials := "trials not reported"
		switch {
		case ss.counted && ss.random:
			trials = commas(ss.trials) + " trials"
		case ss.counted && ss.done > 0:
			trials = "deterministic"
		case ss.counted:
			trials = "no point done"
		}
		fmt.Fprintf(&b, "  %-*s %*s of %*s points, %s\n", width, ss.name, digits, commas(ss.done), digits, commas(ss.points), trials)
	}
	if len(st.problems) > 0 {
		b.WriteString("not usable, counted as missing:\n")
		for _, p := range st.problems {
			fmt.Fprintf(&b, "  %s\n", p)
		}
	}
	for _, ig := range st.ignored {
		fmt.Fprintf(&b, "ignored: %s (another run; -shards reads it)\n", ig)
	}
	if len(st.Missing) > 0 {
		flags := "[-quick -trials N -seed S] "
		if st.cfg != nil {
			flags = configFlags(*st.cfg) + " "
		}
		fmt.Fprintf(&b, "to run the missing: gen-report %s-shard K/%d -out %s for each K in %s (a Slurm array: --array=%s)\n",
			flags, st.Shards, st.dir, strings.ReplaceAll(arrayList(st.Missing), ",", ", "), arrayList(st.Missing))
	}
	return b.String()
}

// arrayList writes shard indices as Slurm's --array does: "2,5-7".
func arrayList(idx []int) string {
	var s []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if j > i {
			s = append(s, fmt.Sprintf("%d-%d", idx[i], idx[j]))
		} else {
			s = append(s, strconv.Itoa(idx[i]))
		}
		i = j + 1
	}
	return strings.Join(s, ",")
}

// seq is a, a+1, …, b.
func seq(a, b int) []int {
	var s []int
	for k := a; k <= b; k++ {
		s = append(s, k)
	}
	return s
}

// commas writes n with thousands separators: 13,120.
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// seconds writes a duration of s seconds to the second: "4m10s".
func seconds(s float64) string {
	return (time.Duration(s*float64(time.Second)) + time.Second/2).Truncate(time.Second).String()
}

// megabytes writes a byte count in MB (10⁶), rounded up.
func megabytes(b int64) string { return fmt.Sprintf("%d MB", (b+999_999)/1_000_000) }
