package main

import (
	"io"
	"os"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressFunc returns a sweep progress callback drawing a bar on stderr,
// or nil when stderr is not a terminal (CI logs, pipes, tests): a bar's
// carriage returns only clutter a log.
func progressFunc(stderr io.Writer, what string) func(done, total float64) {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	const scale = 1000 // the bar counts in thousandths of the total work
	bar := progressbar.NewOptions64(scale,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionFullWidth(),
	)
	return func(done, total float64) {
		_ = bar.Set64(int64(done / total * scale))
		if done >= total {
			_ = bar.Finish()
		}
	}
}
