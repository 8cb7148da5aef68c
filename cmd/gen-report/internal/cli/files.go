package cli

import (
	"fmt"
	"io"
	"os"

	"commlab/internal/outfile"
)

// WriteFileAtomic writes through a temporary file and a rename, so a reader
// never sees half a file (see internal/outfile: a symlink's target, a FIFO
// or a device is written through, never replaced).
func WriteFileAtomic(name string, b []byte) error {
	return outfile.Write(name, nil, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// ReadFileLimit reads the file name, refusing it, before it allocates more,
// when it holds more than limit bytes: a part or a tree named by mistake
// (a device, /dev/zero, an endless pipe) is not read to exhaustion.
func ReadFileLimit(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: more than %d bytes: not a file gen-report writes", name, limit)
	}
	return b, nil
}
