package cli

import (
	"io"

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
