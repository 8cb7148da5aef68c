package schedule

import (
	"bytes"
	"embed"
	"fmt"
	"hash/fnv"
	"io"
	"path"
	"slices"
	"strings"
	"sync"

	"commlab/engine/goal"
)

//go:embed examples/*.goal
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
		out = append(out, strings.TrimSuffix(strings.TrimPrefix(e.Name(), "ex_"), ".goal"))
	}
	slices.Sort(out)
	return out
}()

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
		return "", fmt.Errorf("kind %q: want %s or %s", kind, KindUpload, KindURL)
	}
	clean := cleanName(kind, name)
	if clean == "" {
		return "", fmt.Errorf("name %q: want a file name or a same-origin path of letters, digits and . _ - / ~ (at most %d)", name, maxName)
	}
	key := kind + ":" + clean
	if kind == KindUpload {
		h := fnv.New32a()
		h.Write(text)
		key += fmt.Sprintf("~%08x", h.Sum32())
	}
	s, err := goal.Read(bytes.NewReader(text), clean, goal.ReadOptions{Labels: true, SizeHint: int64(len(text))})
	if err != nil {
		return "", err
	}
	if s.NumOps() > MaxOps {
		return "", fmt.Errorf("%s: %d operations; the browser runs at most %d (gen-report eval goal runs any size)", clean, s.NumOps(), MaxOps)
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
		return nil, fmt.Errorf("no file %q", key)
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
