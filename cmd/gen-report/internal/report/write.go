package report

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"commlab/internal/outfile"
)

// assetFS holds the files written to <dir>/assets: echarts (vendor-echarts.sh) with its
// LICENSE and NOTICE, charts.js and report.css.
//
//go:embed assets
var assetFS embed.FS

// Marker is the file that marks a directory as a report written by Write. Write replaces an
// existing directory only if it is empty or holds this file, so a wrong path cannot wipe
// anything else.
const Marker = ".commlab-report"

const markerText = "Written by commlab's cmd/gen-report (package report). Write replaces this whole directory.\n"

// writeFile is os.WriteFile; tests replace it to fail half-way through a report.
var writeFile = os.WriteFile

// Write writes the report into dir: every page, the index (index.html), each chart's and
// table's data as data/<ID>.csv and data/<ID>.json, and the assets under assets/.
//
// It first checks the whole report and returns every problem found, each naming the page,
// the chart or table (by ID, or by position and title when the ID is empty) and the field:
// IDs present, well-formed and unique across all pages (they name the data files); Z with
// one row per Y label and one value per X label; series as long as the X axis; no
// infinities (NaN is the only missing value); YLog data > 0; stacked bar values >= 0;
// ZMin < ZMax; table rows as wide as the header; known verdicts and palettes; page files
// plain, unique and not index.html; index links relative.
//
// Then it writes everything into a fresh temporary directory beside dir and swaps that into
// place only when all of it succeeded, so a failed run leaves the previous report (or
// nothing) and never a partial one. An existing dir must be empty or hold Marker; errors
// name dir.
func Write(dir string, idx Index, pages ...Page) error {
	if err := validate(idx, pages); err != nil {
		return err
	}
	files, err := build(idx, pages)
	if err != nil {
		return err
	}
	return writeDir(dir, files)
}

// build renders the whole report in memory, in a fixed order.
func build(idx Index, pages []Page) ([]file, error) {
	var files []file
	index, err := buildIndex(idx, pages)
	if err != nil {
		return nil, err
	}
	files = append(files, file{"index.html", index})
	for _, p := range pages {
		pf, err := buildPage(idx, p)
		if err != nil {
			return nil, err
		}
		files = append(files, pf...)
	}
	// fs.WalkDir visits in lexical order.
	err = fs.WalkDir(assetFS, assetsDir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := assetFS.ReadFile(name)
		files = append(files, file{name, b})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("report: reading embedded assets: %w", err)
	}
	marker := markerText
	if idx.Edition != "" {
		marker += "edition: " + idx.Edition + "\n"
	}
	return append(files, file{Marker, []byte(marker)}), nil
}

// writeDir writes files into a new directory and swaps it in for dir.
func writeDir(dir string, files []file) (err error) {
	dir = filepath.Clean(dir)
	if err := checkReplaceable(dir); err != nil {
		return err
	}
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("report: cannot write %s: %w", dir, err)
	}
	removeStale(parent, base)
	tmp, err := os.MkdirTemp(parent, "."+base+".new-")
	if err != nil {
		return fmt.Errorf("report: cannot write %s: %w", dir, err)
	}
	outfile.Track(tmp) // SIGINT or SIGTERM removes it (outfile.CleanOnSignal)
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
		outfile.Untrack(tmp)
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("report: cannot write %s: %w", dir, err)
	}
	made := map[string]bool{".": true}
	for _, f := range files {
		if d := path.Dir(f.path); !made[d] {
			if err := os.MkdirAll(filepath.Join(tmp, filepath.FromSlash(d)), 0o755); err != nil {
				return fmt.Errorf("report: cannot write %s: %w", dir, err)
			}
			made[d] = true
		}
		if err := writeFile(filepath.Join(tmp, filepath.FromSlash(f.path)), f.data, 0o644); err != nil {
			return fmt.Errorf("report: cannot write %s: %w", dir, err)
		}
	}
	return swap(tmp, dir)
}

// removeStale removes what a killed run left beside dir: its temporary
// report (.<base>.new-*) or the previous one on its way out (.<base>.old-*),
// once older than outfile.StaleAfter, so that a run in progress is spared.
func removeStale(parent, base string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() || !(strings.HasPrefix(n, "."+base+".new-") || strings.HasPrefix(n, "."+base+".old-")) {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > outfile.StaleAfter {
			os.RemoveAll(filepath.Join(parent, n))
		}
	}
}

// checkReplaceable refuses to replace anything that is not a report directory.
func checkReplaceable(dir string) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("report: cannot write %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("report: cannot write %s: it exists and is not a directory", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, Marker)); err == nil {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("report: cannot write %s: %w", dir, err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("report: refusing to replace %s: it is not empty and has no %s file, so Write did not make it", dir, Marker)
	}
	return nil
}

// swap puts the directory tmp in the place of dir: in one step where the system can
// exchange two names (Linux), else the old dir is first moved into a directory of its
// own beside it, then deleted; if tmp cannot be moved in, it is moved back.
func swap(tmp, dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(tmp, dir); err != nil {
			return fmt.Errorf("report: cannot write %s: %w", dir, err)
		}
		return nil
	}
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	if fi, err := os.Lstat(dir); err == nil && fi.IsDir() && exchange(tmp, dir) {
		// tmp now holds the previous report.
		if err := os.RemoveAll(tmp); err != nil {
			return fmt.Errorf("report: wrote %s but could not remove the previous report: %w", dir, err)
		}
		return nil
	}
	trash, err := os.MkdirTemp(parent, "."+base+".old-")
	if err != nil {
		return fmt.Errorf("report: cannot write %s: %w", dir, err)
	}
	old := filepath.Join(trash, base)
	if err := os.Rename(dir, old); err != nil {
		os.Remove(trash)
		return fmt.Errorf("report: cannot replace %s: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if err2 := os.Rename(old, dir); err2 != nil {
			return fmt.Errorf("report: cannot replace %s: %w; the previous report is in %s", dir, err, old)
		}
		os.Remove(trash)
		return fmt.Errorf("report: cannot replace %s: %w", dir, err)
	}
	if err := os.RemoveAll(trash); err != nil {
		return fmt.Errorf("report: wrote %s but could not remove the previous report: %w", dir, err)
	}
	return nil
}
