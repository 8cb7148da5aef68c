package schedule

import (
	"bytes"
	"embed"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"commlab/engine/cost"
	"commlab/engine/goal"
	"commlab/internal/errf"
	"commlab/internal/permsort"
)

//go:embed examples/*.goal examples/expected.tsv
var exampleFS embed.FS

// Examples are the shipped schedules' names (file names without "ex_"
// and ".goal"), sorted.
var Examples = func() []string {
	ents, err := exampleFS.ReadDir("examples")
	if err != nil {
		panic(err) // embedded at build time
	}
	var out []string
	for _, e := range ents {
		if name, ok := strings.CutSuffix(e.Name(), ".goal"); ok {
			out = append(out, strings.TrimPrefix(name, "ex_"))
		}
	}
	permsort.Sort(out)
	return out
}()

// ExampleFiles are the shipped examples as files: ex_NAME.goal for each
// of Examples, and expected.tsv, the maximum finishing time LogGOPSim
// itself printed for each under the flags beside it (examples/README.md).
// gen-report's GOAL page runs these very files and links each of its rows
// to this scene with the row's example and parameters in the URL.
func ExampleFiles() fs.FS {
	sub, err := fs.Sub(exampleFS, "examples")
	if err != nil {
		panic(err) // a fixed, valid path
	}
	return sub
}

// The limits on a file added by a page: MaxUploads files are kept (the
// oldest goes first), each of at most MaxOps operations, which the scene
// records at about 200 bytes each (so 400 MB of the browser's memory).
// `gen-report eval goal` runs larger schedules natively.
const (
	MaxUploads = 8
	MaxOps     = 2_000_000
)

// files holds the parsed schedules: examples parsed on first use, and
// the files pages added.
var files struct {
	sync.Mutex
	parsed  map[string]*goal.Schedule
	uploads []string // keys in the order added
}

// Kinds of added files: "upload" (a file picker or a drop; its key ends in
// a hash of its text, so a changed file is a new choice) and "url" (a
// same-origin URL; its key is the path, so a page URL naming it reloads).
const (
	KindUpload = "upload"
	KindURL    = "url"
)

// maxName bounds the name part of a key, which travels in URLs.
const maxName = 120

// AddFile parses GOAL text and makes it a choice of the file fields,
// returning its key: "upload:NAME~HASH" or "url:PATH". A syntax error
// names the line and column; a schedule of more than MaxOps operations is
// refused. Adding a key again replaces its schedule.
func AddFile(kind, name string, text []byte) (string, error) {
	switch kind {
	case KindUpload, KindURL:
	default:
		return "", errf.Errorf("kind %q: want %s or %s", kind, KindUpload, KindURL)
	}
	clean := cleanName(kind, name)
	if clean == "" {
		return "", errf.Errorf("name %q: want a file name or a same-origin path of letters, digits and . _ - / ~ (at most %d)", name, maxName)
	}
	key := kind + ":" + clean
	if kind == KindUpload {
		h := fnv.New32a()
		h.Write(text)
		key += fmt.Sprintf("~%08x", h.Sum32())
	}
	s, err := goal.Read(bytes.NewReader(text), clean, goal.ReadOptions{Labels: true, SizeHint: int64(len(text)), Limits: goal.LimitsFor(cost.Page)})
	if err != nil {
		return "", err
	}
	if s.NumOps() > MaxOps {
		return "", errf.Errorf("%s: %d operations; the browser runs at most %d (gen-report eval goal runs any size)", clean, s.NumOps(), MaxOps)
	}
	files.Lock()
	defer files.Unlock()
	if files.parsed == nil {
		files.parsed = map[string]*goal.Schedule{}
	}
	files.uploads = slices.DeleteFunc(files.uploads, func(k string) bool { return k == key })
	files.uploads = append(files.uploads, key)
	if n := len(files.uploads) - MaxUploads; n > 0 {
		for _, k := range files.uploads[:n] {
			delete(files.parsed, k)
		}
		files.uploads = slices.Delete(files.uploads, 0, n)
	}
	files.parsed[key] = s
	return key, nil
}

// cleanName keeps a file's base name (an upload) or a URL path (a url)
// if it is made of safe characters, else returns "".
func cleanName(kind, name string) string {
	if kind == KindUpload {
		name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	}
	if name == "" || name == "." || len(name) > maxName {
		return ""
	}
	for _, c := range name {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._-~", c) || c == '/' && kind == KindURL
		if !ok {
			return ""
		}
	}
	return name
}

// choices are the file fields' values: the examples, then added files.
func choices() []string {
	files.Lock()
	defer files.Unlock()
	return append(slices.Clone(Examples), files.uploads...)
}

// lookup returns the schedule of a file field's value.
func lookup(key string) (*goal.Schedule, error) {
	files.Lock()
	defer files.Unlock()
	if s, ok := files.parsed[key]; ok {
		return s, nil
	}
	if !slices.Contains(Examples, key) {
		return nil, errf.Errorf("no file %q", key)
	}
	name := "ex_" + key + ".goal"
	f, err := exampleFS.Open("examples/" + name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := goal.Read(f.(io.Reader), name, goal.ReadOptions{Labels: true})
	if err != nil {
		return nil, err
	}
	if files.parsed == nil {
		files.parsed = map[string]*goal.Schedule{}
	}
	files.parsed[key] = s
	return s, nil
}

// Noise traces added by a page (LogGOPSim's "start<TAB>duration" lines,
// ns): at most MaxTraces are kept (the oldest goes first), each of at
// most MaxTraceEvents events. Their keys are "trace:NAME~HASH", choices of
// the noise_trace field beside TraceNone.
const (
	MaxTraces      = 8
	MaxTraceEvents = 4_000_000
	TraceNone      = "none"
)

var traces struct {
	sync.Mutex
	parsed map[string]*goal.NoiseTrace
	keys   []string // in the order added
}

// AddNoiseTrace parses a noise trace and makes it a choice of the
// noise_trace field, returning its key. An error names the line and
// column; a trace of more than MaxTraceEvents events is refused. Adding
// the same text under the same name again gives the same key.
func AddNoiseTrace(name string, text []byte) (string, error) {
	clean := cleanName(KindUpload, name)
	if clean == "" {
		return "", errf.Errorf("name %q: want a file name of letters, digits and . _ - ~ (at most %d)", name, maxName)
	}
	h := fnv.New32a()
	h.Write(text)
	key := fmt.Sprintf("trace:%s~%08x", clean, h.Sum32())
	tr, err := goal.ReadNoiseTraceWithin(bytes.NewReader(text), clean, goal.LimitsFor(cost.Page))
	if err != nil {
		return "", err
	}
	if n := len(tr.Start); n > MaxTraceEvents {
		return "", errf.Errorf("%s: %d events; the browser takes at most %d (gen-report eval goal -noise-trace takes any)", clean, n, MaxTraceEvents)
	}
	traces.Lock()
	defer traces.Unlock()
	if traces.parsed == nil {
		traces.parsed = map[string]*goal.NoiseTrace{}
	}
	traces.keys = slices.DeleteFunc(traces.keys, func(k string) bool { return k == key })
	traces.keys = append(traces.keys, key)
	if n := len(traces.keys) - MaxTraces; n > 0 {
		for _, k := range traces.keys[:n] {
			delete(traces.parsed, k)
		}
		traces.keys = slices.Delete(traces.keys, 0, n)
	}
	traces.parsed[key] = tr
	return key, nil
}

// traceChoices are the noise_trace field's values: none, then the
// traces added.
func traceChoices() []string {
	traces.Lock()
	defer traces.Unlock()
	return append([]string{TraceNone}, traces.keys...)
}

// lookupTrace returns the trace of a noise_trace value (nil for none).
func lookupTrace(key string) (*goal.NoiseTrace, error) {
	if key == TraceNone {
		return nil, nil
	}
	traces.Lock()
	defer traces.Unlock()
	if tr, ok := traces.parsed[key]; ok {
		return tr, nil
	}
	return nil, errf.Errorf("no noise trace %q", key)
}
