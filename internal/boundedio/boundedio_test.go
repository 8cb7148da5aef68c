package boundedio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"commlab/engine/cost" // test only: the package itself stays under the engine
)

// endless is a pipe whose writer never stops (until the reader closes):
// what `yes | cmd -f /dev/stdin` hands a command.
func endless(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		chunk := bytes.Repeat([]byte("calc 1\n"), 1<<10)
		for {
			if _, err := w.Write(chunk); err != nil {
				w.Close()
				return
			}
		}
	}()
	t.Cleanup(func() { r.Close() })
	return r
}

func wantLimit(t *testing.T, what string, err error, name string, limit, size int64) {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) {
		t.Fatalf("%s: %v, want a *LimitError", what, err)
	}
	if le.Name != name || le.Limit != limit || le.Size != size {
		t.Errorf("%s: %+v, want name %q, limit %d, size %d", what, le, name, limit, size)
	}
	if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "limit") {
		t.Errorf("%s: message %q does not name the input and the limit", what, err)
	}
}

func TestReadAllDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	const limit = 1 << 20
	var err error
	alloc := int64(cost.Allocated(func() { _, err = ReadFile("/dev/zero", limit) }))
	wantLimit(t, "/dev/zero", err, "/dev/zero", limit, -1)
	if want := "/dev/zero holds more than 1.05 MB, the limit for reading an input; stopped reading there"; err.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", err, want)
	}
	// Doubling up to limit+1 allocates under 1.5·limit in all.
	if alloc > 3*limit/2+64<<10 {
		t.Errorf("reading /dev/zero to a 1 MiB limit allocated %d bytes", alloc)
	}
}

func TestReadAllEndlessPipe(t *testing.T) {
	_, err := ReadAll("standard input", endless(t), 3<<20)
	wantLimit(t, "endless pipe", err, "standard input", 3<<20, -1)
}

func TestReaderEndlessPipe(t *testing.T) {
	r := NewReader("-f", endless(t), 1<<20)
	n, err := io.Copy(io.Discard, r)
	wantLimit(t, "endless pipe through NewReader", err, "-f", 1<<20, -1)
	if n != 1<<20 {
		t.Errorf("gave %d bytes before the error, want the limit, %d", n, 1<<20)
	}
	if _, err2 := r.Read(make([]byte, 10)); err2 != err {
		t.Errorf("read after the error: %v, want the same error again", err2)
	}
}

func TestReaderDevZero(t *testing.T) {
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip("no /dev/zero here")
	}
	defer f.Close()
	_, err = io.Copy(io.Discard, NewReader("/dev/zero", f, 5000))
	wantLimit(t, "/dev/zero through NewReader", err, "/dev/zero", 5000, -1)
}

// TestWithinLimit: inputs of exactly the limit and less are read whole,
// through every path (a reader, a regular file, a pipe).
func TestWithinLimit(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 1000) // 10,000 bytes
	path := filepath.Join(t.TempDir(), "in.csv")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int64{10000, 10001, 1 << 30, -1} {
		got, err := ReadAll("r", bytes.NewReader(data), limit)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("ReadAll of a reader, limit %d: %d bytes, %v", limit, len(got), err)
		}
		got, err = ReadFile(path, limit)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("ReadFile, limit %d: %d bytes, %v", limit, len(got), err)
		}
		got, err = io.ReadAll(NewReader("r", bytes.NewReader(data), limit))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("NewReader, limit %d: %d bytes, %v", limit, len(got), err)
		}
		pr, pw, _ := os.Pipe()
		go func() { pw.Write(data); pw.Close() }()
		got, err = ReadAll("pipe", pr, limit)
		pr.Close()
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("ReadAll of a pipe, limit %d: %d bytes, %v", limit, len(got), err)
		}
	}
	// One byte over: refused, from the size for a regular file (nothing
	// read), by reading for a reader.
	_, err := ReadFile(path, 9999)
	wantLimit(t, "a file one byte over", err, path, 9999, 10000)
	if !strings.Contains(err.Error(), "is 10 kB, over the 10 kB limit") {
		t.Errorf("message %q", err)
	}
	_, err = ReadAll("r", bytes.NewReader(data), 9999)
	wantLimit(t, "a reader one byte over", err, "r", 9999, -1)
	f, _ := os.Open(path)
	defer f.Close()
	_, err = f.Read(make([]byte, 1)) // no byte read yet by the wrapper
	_, err = NewReader(path, f, 9998).Read(make([]byte, 1))
	wantLimit(t, "a file one byte over, after one byte", err, path, 9998, 9999)
}

// TestRegularFileSizedBuffer: a regular file within the limit is read into
// one buffer of its size, not grown.
func TestRegularFileSizedBuffer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(path, make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	alloc := int64(cost.Allocated(func() { _, err = ReadFile(path, 1<<30) }))
	if err != nil {
		t.Fatal(err)
	}
	if alloc > 4<<20+64<<10 {
		t.Errorf("a 4 MiB file allocated %d bytes, want one buffer of its size", alloc)
	}
}

// TestLinesDevZero: a device without line ends stops at the line bound,
// having read little more than it.
func TestLinesDevZero(t *testing.T) {
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	b, err := io.ReadAll(NewLines("/dev/zero", f, 1<<20))
	var le *LineError
	if !errors.As(err, &le) || le.Line != 1 || len(b) > 1<<20 {
		t.Fatalf("read %d bytes, %v", len(b), err)
	}
	if !strings.Contains(err.Error(), "/dev/zero: line 1 is longer than") {
		t.Errorf("message %q", err)
	}
	text := "a,b\n" + strings.Repeat("x", 100) + "\nshort\n"
	if _, err := io.ReadAll(NewLines("f", strings.NewReader(text), 100)); err != nil {
		t.Errorf("lines of up to 100 bytes: %v", err)
	}
	if _, err := io.ReadAll(NewLines("f", strings.NewReader(text), 99)); !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("a line of 100 bytes against 99: %v", err)
	}
}
