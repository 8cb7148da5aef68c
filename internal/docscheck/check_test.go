package docscheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsSayWhenAndHow holds README.md and every docs/*.md to the
// convention: a measured number carries the date it was measured and the
// command that measures it again.
func TestDocsSayWhenAndHow(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(strings.TrimPrefix(f, root+string(filepath.Separator)))
		problems := Check(string(b))
		for _, p := range problems {
			t.Errorf("%s: %s", name, p)
		}
	}
}

// TestCheck shows what the check takes and what it refuses.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name, md string
		want     []string // the Missing of each problem, in order
	}{
		{"dated, with its command", "The full report took 4 min 05 s wall (measured 2026-11-25, `/usr/bin/time -v gen-report -out /tmp/r`).\n", nil},
		{"no date", "The full report took 4 min 05 s wall (`/usr/bin/time -v gen-report -out /tmp/r`).\n", []string{"a date"}},
		{"no command", "The full report took 4 min 05 s wall on 2026-11-25.\n", []string{"a command"}},
		{"neither", "The wasm is 3.47 MB, measured with gzip -9.\n", []string{"a date and a command"}},
		{"a parameter is no measurement", "The default set-up cost is 60 µs per end, and L = 3000 ns.\n", nil},
		{"code is not prose", "```sh\nthe run took 5 s wall\n```\n\n    took 5 s wall\n", nil},
		{"a row takes the caption's", "Measured 2026-11-27 with `make bench`:\n\n| what | measured |\n| --- | --- |\n| frames/s | 36.0 frames/s |\n", nil},
		{"a row takes the row above's when it says so", "Measured 2026-11-27:\n\n| run | measured | command |\n| --- | --- | --- |\n| a | 1.2 s wall | `go test -bench A` |\n| b | 1.3 s wall | as above |\n| c | 1.4 s wall | by hand |\n", []string{"a command"}},
		{"a generated table is not prose", "<!-- paper-vs-commlab:x generated -->\n| a | b |\n| --- | --- |\n| took | 5 s wall |\n<!-- /paper-vs-commlab:x -->\n\nIt took 5 s wall.\n", []string{"a date and a command"}},
		{"a paragraph takes its section's", "## Numbers (2026-11-27, `make bench`)\n\nThe overlay plays at 27 frames/s.\n\n## Next\n\nThe overlay plays at 27 frames/s.\n", []string{"a date and a command"}},
	} {
		got := Check(c.md)
		var missing []string
		for _, p := range got {
			missing = append(missing, p.Missing)
		}
		if strings.Join(missing, "; ") != strings.Join(c.want, "; ") {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
