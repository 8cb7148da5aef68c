package goal

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// A UTF-8 byte-order mark before a GOAL file or a noise trace is read
// past; inside, it is an error like any stray character.
func TestByteOrderMark(t *testing.T) {
	const text = "num_ranks 1\nrank 0 {\nl1: calc 5\n}\n"
	s, err := Read(strings.NewReader("\uFEFF"+text), "bom.goal", ReadOptions{})
	if err != nil || s.NumOps() != 1 {
		t.Errorf("GOAL with a BOM: %v", err)
	}
	if _, err := Read(strings.NewReader("num_ranks 1\n\uFEFFrank 0 {\n}\n"), "mid.goal", ReadOptions{}); err == nil {
		t.Error("a BOM inside the file was accepted")
	}
	tr, err := ReadNoiseTrace(strings.NewReader("\uFEFF0\t10\n100\t20\n"), "bom.txt")
	if err != nil || len(tr.Start) != 2 {
		t.Errorf("noise trace with a BOM: %v", err)
	}
	tr, err = ReadNoiseTrace(strings.NewReader("\uFEFF# start\tduration\n0\t10\n100\t20\n"), "bom.txt")
	if err != nil || len(tr.Start) != 2 {
		t.Errorf("noise trace with a BOM before a comment: %v", err)
	}
}

// A long bad value is cut in the message: its first characters and its
// length.
func TestLongValuesCut(t *testing.T) {
	long := strings.Repeat("x", 100000)
	digits := strings.Repeat("9", 5000)
	for _, c := range []struct {
		name string
		read func() error
	}{
		{"label", func() error {
			_, err := Read(strings.NewReader("num_ranks 1\nrank 0 {\nl"+long+" oops\n}\n"), "f", ReadOptions{})
			return err
		}},
		{"undefined label", func() error {
			_, err := Read(strings.NewReader("num_ranks 1\nrank 0 {\nl1: calc 1\nl1 requires l"+long+"\n}\n"), "f", ReadOptions{})
			return err
		}},
		{"number", func() error {
			_, err := Read(strings.NewReader("num_ranks "+digits+"\n"), "f", ReadOptions{})
			return err
		}},
		{"noise line", func() error { _, err := ReadNoiseTrace(strings.NewReader(long[:50000]+"\n"), "n"); return err }},
		{"noise value", func() error { _, err := ReadNoiseTrace(strings.NewReader("0\t"+long[:50000]+"\n"), "n"); return err }},
		{"noise too long", func() error { _, err := ReadNoiseTrace(strings.NewReader("0\t1\n"+long+"\n"), "n"); return err }},
	} {
		err := c.read()
		if c.name == "noise too long" {
			if err == nil || err.Error() != "n:2: line longer than 65536 bytes" {
				t.Errorf("%s: %.300v", c.name, err)
			}
			continue
		}
		if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), " characters)") {
			t.Errorf("%s: %.300v (%d bytes)", c.name, err, len(err.Error()))
		}
	}
}

// BenchmarkReadSmall reads a 3 KB schedule from memory: the reader's
// buffer is sized to the text (a 1 MiB buffer per call was most of the
// time before: 1.1-2.0 ms against 21-51 µs on the busy machine).
func BenchmarkReadSmall(b *testing.B) {
	data, err := os.ReadFile("testdata/examples/ex_linear_alltoall_8.goal")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), "x", ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
