package goal

import (
	"bufio"
	"bytes"
	"fmt"
	"hash/fnv"
	"io/fs"
	"strconv"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	engine "commlab/engine/goal"
	"commlab/scene"
	"commlab/scene/schedule"
)

// answersFile is the examples' table of LogGOPSim's own answers: file,
// LogGOPSim's flags ("defaults" or "-L 3000 -o 1000 ..."), the maximum
// finishing time in ns it printed.
const answersFile = "expected.tsv"

// example is one row of expected.tsv: a shipped GOAL schedule under one
// parameter set, and what LogGOPSim printed for it.
type example struct {
	File      string        // "ex_binomialtreebcast_32.goal"
	Key       string        // the schedule scene's file value: "binomialtreebcast_32"
	Flags     string        // LogGOPSim's flags as expected.tsv gives them: "defaults" or "-L 3000 ..."
	Params    engine.Params // the same, read
	LogGOPSim int64         // the maximum finishing time LogGOPSim printed, ns
	Size      int64         // the file's bytes
}

// readExamples reads expected.tsv and checks every file it names is
// there. Its errors name the line.
func readExamples(fsys fs.FS) ([]example, error) {
	b, err := fs.ReadFile(fsys, answersFile)
	if err != nil {
		return nil, err
	}
	var out []example
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		if text == "" {
			continue
		}
		at := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", answersFile, line, fmt.Sprintf(format, args...))
		}
		cols := strings.Split(text, "\t")
		if len(cols) != 3 {
			return nil, at("%d tab-separated columns, want 3: file, LogGOPSim's flags, the maximum finishing time in ns", len(cols))
		}
		ex := example{File: cols[0], Flags: cols[1]}
		key, ok := strings.CutSuffix(strings.TrimPrefix(ex.File, "ex_"), ".goal")
		if !ok || !strings.HasPrefix(ex.File, "ex_") {
			return nil, at("file %q: want ex_NAME.goal", ex.File)
		}
		ex.Key = key
		st, err := fs.Stat(fsys, ex.File)
		if err != nil {
			return nil, at("%v", err)
		}
		ex.Size = st.Size()
		if ex.Params, err = parseFlags(ex.Flags); err != nil {
			return nil, at("%v", err)
		}
		if ex.LogGOPSim, err = strconv.ParseInt(cols[2], 10, 64); err != nil || ex.LogGOPSim < 0 {
			return nil, at("maximum finishing time %q: want a whole number of ns, 0 or more", cols[2])
		}
		out = append(out, ex)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no answers", answersFile)
	}
	return out, nil
}

// parseFlags reads LogGOPSim's flags as expected.tsv gives them:
// "defaults" (LogGOPSim's own) or pairs such as "-L 3000 -o 1000".
func parseFlags(s string) (engine.Params, error) {
	p := engine.Default()
	if s == "defaults" {
		return p, nil
	}
	f := strings.Fields(s)
	if len(f)%2 != 0 {
		return p, fmt.Errorf("flags %q: want pairs of a flag and its value", s)
	}
	for i := 0; i < len(f); i += 2 {
		v, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return p, fmt.Errorf("flag %s %q: want a whole number", f[i], f[i+1])
		}
		switch f[i] {
		case "-L":
			p.L = v
		case "-o":
			p.Overhead = v
		case "-g":
			p.Gap = v
		case "-G":
			p.GapPerByte = v
		case "-O":
			p.OverheadPerByte = v
		case "-S":
			p.S = v
		default:
			return p, fmt.Errorf("flag %s: want one of LogGOPSim's -L, -o, -g, -G, -O, -S", f[i])
		}
	}
	return p, p.Validate()
}

// fingerprint hashes expected.tsv and the files it names: parts run on
// other examples never merge.
func fingerprint(fsys fs.FS, exs []example) (uint32, error) {
	h := fnv.New32a()
	names := []string{answersFile}
	for _, ex := range exs {
		names = append(names, ex.File)
	}
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return 0, err
		}
		fmt.Fprintf(h, "%s %d\n", n, len(b))
		h.Write(b)
	}
	return h.Sum32(), nil
}

// The scene's parameter keys of set A, in LogGOPSim's order: LogGOPSim's
// flag names, as the scene names its fields.
var sceneParamKeys = []string{"L", "o", "g", "G", "O", "S"}

func paramValues(p engine.Params) []int64 {
	return []int64{p.L, p.Overhead, p.Gap, p.GapPerByte, p.OverheadPerByte, p.S}
}

// sceneLink opens the example in the schedule scene, one side, under the
// row's parameters: every parameter is written, so that the link keeps
// meaning the same run if a default of the scene changes.
// TestSceneLinks parses each in the scene and runs it.
func sceneLink(ex example, ranks int) *report.Link {
	var q strings.Builder
	fmt.Fprintf(&q, "scene.html?%s=schedule&%s=%s", scene.KeyScene, schedule.KeyFile, ex.Key)
	for i, v := range paramValues(ex.Params) {
		fmt.Fprintf(&q, "&%s=%d", sceneParamKeys[i], v)
	}
	fmt.Fprintf(&q, "&%s=%s", schedule.KeyCompare, schedule.CompareNone)
	long, _ := ex.names(ranks)
	return &report.Link{
		Path:  q.String(),
		Title: fmt.Sprintf("the schedule scene: %s (%s) under %s", ex.File, long, paramWords(ex)),
	}
}

// paramWords names a row's parameter set: "LogGOPSim's defaults (L =
// 2500, ...)" or its flags.
func paramWords(ex example) string {
	var kv []string
	for i, v := range paramValues(ex.Params) {
		kv = append(kv, fmt.Sprintf("%s = %d", sceneParamKeys[i], v))
	}
	if ex.Flags == "defaults" {
		return "LogGOPSim's defaults (" + strings.Join(kv, ", ") + ")"
	}
	return ex.Flags + " (" + strings.Join(kv, ", ") + ")"
}

// collective names the shipped examples' schedules (Schedgen's names in
// the file names); another file is named by its key.
var collectives = map[string]struct{ long, short string }{
	"binomialtreebcast": {"binomial-tree broadcast", "broadcast"},
	"dissemination":     {"dissemination", "dissemination"},
	"allreduce_recdoub": {"recursive-doubling allreduce", "allreduce"},
	"linear_alltoall":   {"linear alltoall", "alltoall"},
}

// names returns a long and a short name of the example's collective and
// its rank count, as the file name gives them ("binomialtreebcast_32").
func (ex example) names(ranks int) (long, short string) {
	base := ex.Key
	if i := strings.LastIndexByte(base, '_'); i > 0 {
		base = base[:i]
	}
	c, ok := collectives[base]
	if !ok {
		c.long, c.short = ex.Key, ex.Key
	}
	return fmt.Sprintf("%s, %d ranks", c.long, ranks), fmt.Sprintf("%s %d", c.short, ranks)
}
