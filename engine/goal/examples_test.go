package goal

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// parseFlags reads LogGOPSim flags ("-L 3000 -o 1000 ...") or "defaults".
func parseFlags(t *testing.T, s string) Params {
	p := Default()
	if s == "defaults" {
		return p
	}
	f := strings.Fields(s)
	for i := 0; i+1 < len(f); i += 2 {
		v, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			t.Fatalf("flag %s: %v", f[i], err)
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
			t.Fatalf("unknown flag %s", f[i])
		}
	}
	return p
}

func readFile(t testing.TB, path string, labels bool) *Schedule {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := Read(f, filepath.Base(path), ReadOptions{Labels: labels})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLogGOPSimExamples holds Run to the maximum finishing times that
// LogGOPSim itself printed for the shipped examples (expected.tsv).
func TestLogGOPSimExamples(t *testing.T) {
	f, err := os.Open("testdata/examples/expected.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 3 {
			t.Fatalf("bad line %q", sc.Text())
		}
		want, err := strconv.ParseInt(cols[2], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		p := parseFlags(t, cols[1])
		for _, rec := range []bool{false, true} {
			s := readFile(t, "testdata/examples/"+cols[0], rec)
			r, err := Run(s, p, Noise{}, Options{Record: rec})
			if err != nil {
				t.Fatalf("%s %s: %v", cols[0], cols[1], err)
			}
			if r.End != want {
				t.Errorf("%s %s (record %v): end %d ns, LogGOPSim %d ns", cols[0], cols[1], rec, r.End, want)
			}
		}
		n++
	}
	if n != 8 {
		t.Fatalf("read %d examples, want 8", n)
	}
}
