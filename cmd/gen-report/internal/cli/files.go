package cli

import (
	"io"

	"commlab/cmd/internal/budget"
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

// ReadLimit is how many bytes a command reads of one input: the budget's
// (cmd/internal/budget.ReadLimit: half the memory limit, all of it with
// -force), or max when that is smaller (an input with a known largest
// size, such as a part file).
func ReadLimit(force bool, max int64) int64 {
	return min(budget.ReadLimit(force), max)
}
