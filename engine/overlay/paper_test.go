package overlay

import (
	"strconv"
	"strings"
	"testing"
)

// TestPaperNumbers pins the paper's numbers: PaperFig4Jump and
// PaperStaticMax are the values cmd/gen-report's overlay study held as
// paperFig4Jump and paperStaticMax, which it now reads from here; the
// random policy's 64 is Default's RandomDegree.
func TestPaperNumbers(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int
		words     string
	}{
		{"PaperFig4Jump", PaperFig4Jump, 13, PaperWordsFig4Jump},
		{"PaperStaticMax", PaperStaticMax, 31, PaperWordsStaticMax},
		{"PaperRandomConns", PaperRandomConns, 64, PaperWordsRandom},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
		if !strings.Contains(c.words, strconv.Itoa(c.got)) {
			t.Errorf("%s: the paper's words %q do not say %d", c.name, c.words, c.got)
		}
	}
	d := Default()
	if d.RandomDegree != PaperRandomConns || d.Procs != 128 {
		t.Errorf("Default: random degree %d of %d processes, want the paper's %d of 128", d.RandomDegree, d.Procs, PaperRandomConns)
	}
}
