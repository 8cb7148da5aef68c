package boundedio

import (
	"errors"
	"fmt"
	"io"
	"os"

	"commlab/internal/shown"
)

// LimitError is an input larger than its limit.
type LimitError struct {
	Name  string // the input as the user named it: a path, "-", "standard input"
	Limit int64  // bytes
	// Size is the input's size when it was known before reading (a
	// regular file); -1 when the read stopped past the limit (a pipe, a
	// device, a file that grew).
	Size int64
}

func (e *LimitError) Error() string {
	if e.Size >= 0 {
		return fmt.Sprintf("%s is %s, over the %s limit for reading an input", e.Name, shown.Bytes(float64(e.Size)), shown.Bytes(float64(e.Limit)))
	}
	return fmt.Sprintf("%s holds more than %s, the limit for reading an input; stopped reading there", e.Name, shown.Bytes(float64(e.Limit)))
}

// ReadAll reads r to its end, at most limit bytes: past them it returns a
// *LimitError naming name and the limit, having allocated under
// 1.5·limit bytes in all (a buffer that doubles up to limit+1). A regular
// *os.File larger than limit is refused from its size before anything is
// read, and one within it is read into one buffer of its size. limit < 0
// means no limit.
func ReadAll(name string, r io.Reader, limit int64) ([]byte, error) {
	limit = sane(limit)
	size := int64(-1)
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
			if off, err := f.Seek(0, io.SeekCurrent); err == nil && off <= size {
				size -= off
			}
		}
	}
	if limit >= 0 && size > limit {
		return nil, &LimitError{Name: name, Limit: limit, Size: size}
	}
	// A regular file's bytes, and one more to see its end; otherwise a
	// small start that grows as bytes come.
	capacity := int64(512)
	if size >= 0 {
		capacity = size + 1
	}
	if limit >= 0 {
		capacity = min(capacity, limit+1)
	}
	b := make([]byte, 0, capacity)
	for {
		if len(b) == cap(b) {
			// Grow by doubling, and to limit+1 bytes at once from
			// half of it: the buffers come to under 1.5·limit in all.
			n := 2 * int64(cap(b))
			if limit >= 0 && n >= limit/2 {
				n = limit + 1
			}
			b = append(make([]byte, 0, n), b...)
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if limit >= 0 && int64(len(b)) > limit {
			return nil, &LimitError{Name: name, Limit: limit, Size: -1}
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// ReadFile reads the named file with ReadAll's limit; name "-" is not
// special here (open os.Stdin and call ReadAll for it).
func ReadFile(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(name, f, limit)
}

// NewReader returns a reader of r that gives at most limit bytes and then,
// if r has more, a *LimitError naming name (instead of io.EOF): for readers
// that stream (a decoder, a line scanner) and so keep less than they read.
// A regular *os.File larger than limit fails its first Read with the
// error, read from its size. limit < 0 means no limit: r itself.
func NewReader(name string, r io.Reader, limit int64) io.Reader {
	limit = sane(limit)
	if limit < 0 {
		return r
	}
	lr := &limited{name: name, r: r, left: limit, limit: limit}
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size := fi.Size()
			if off, err := f.Seek(0, io.SeekCurrent); err == nil && off <= size {
				size -= off
			}
			if size > limit {
				lr.err = &LimitError{Name: name, Limit: limit, Size: size}
			}
		}
	}
	return lr
}

type limited struct {
	name        string
	r           io.Reader
	left, limit int64
	err         error // sticky
}

func (l *limited) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if l.left == 0 {
		// At the limit: the input is within it only if it ends here.
		var one [1]byte
		for {
			n, err := l.r.Read(one[:])
			if n > 0 {
				l.err = &LimitError{Name: l.name, Limit: l.limit, Size: -1}
				return 0, l.err
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					return 0, err
				}
				l.err = io.EOF
				return 0, io.EOF
			}
		}
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// sane takes limits past what a process can hold (2^62 bytes) for none,
// so that limit+1 cannot overflow.
func sane(limit int64) int64 {
	if limit > 1<<62 {
		return -1
	}
	return limit
}

// LineError is a line longer than a reader of lines takes: a line-based
// decoder (encoding/csv, a bufio.Scanner) holds a whole line, and doubles
// its buffer as the line grows, so a file without line ends (a device, a
// binary file named by mistake) would fill memory long before a byte
// limit on the whole input stops it.
type LineError struct {
	Name string
	Line int   // 1-based
	Max  int64 // bytes
}

func (e *LineError) Error() string {
	return fmt.Sprintf("%s: line %d is longer than %s: not a text file of this kind", e.Name, e.Line, shown.Bytes(float64(e.Max)))
}

// NewLines returns a reader of r that fails with a *LineError once a line
// (bytes up to '\n') runs past max bytes.
func NewLines(name string, r io.Reader, max int64) io.Reader {
	return &lines{r: r, name: name, max: max, line: 1}
}

type lines struct {
	r    io.Reader
	name string
	max  int64
	cur  int64 // bytes of the current line so far
	line int
	err  error
}

func (l *lines) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for i, c := range p[:n] {
		if c == '\n' {
			l.line++
			l.cur = 0
			continue
		}
		if l.cur++; l.cur > l.max {
			l.err = &LineError{Name: l.name, Line: l.line, Max: l.max}
			return i, l.err
		}
	}
	return n, err
}
