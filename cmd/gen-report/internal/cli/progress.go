package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressEvery is how often plain progress lines are written when stderr is
// not a terminal: often enough that a log (CI, make serve's build) shows
// the report is alive, rarely enough that a full report writes a few dozen
// lines, not thousands.
const progressEvery = 10 * time.Second

// Progress returns a sweep progress callback. On a terminal it draws a
// bar on stderr (percent done, elapsed time and ETA); otherwise (a CI log,
// a pipe, make serve's background build) it writes a plain line when the
// sweep starts, every progressEvery, and when it ends, since a bar's
// carriage returns only clutter a log. The sweeps report work done in their
// cost units (heavy points count more), so the percentage and the ETA are
// of the work, not of the point count.
func Progress(stderr io.Writer, what string) func(done, total float64) {
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return progressBar(f, what)
	}
	return (&progressLines{w: stderr, what: what, now: time.Now, every: progressEvery}).update
}

func progressBar(f *os.File, what string) func(done, total float64) {
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

// progressLines writes plain progress lines; now and every are fields so
// that tests can drive the clock.
type progressLines struct {
	w     io.Writer
	what  string
	now   func() time.Time
	every time.Duration

	start, last time.Time
	finished    bool
}

func (p *progressLines) update(done, total float64) {
	if p.finished || !(total > 0) {
		return
	}
	t := p.now()
	if p.start.IsZero() {
		p.start, p.last = t, t
		fmt.Fprintf(p.w, "%s: started\n", p.what)
	}
	elapsed := t.Sub(p.start)
	switch {
	case done >= total:
		p.finished = true
		fmt.Fprintf(p.w, "%s: done in %s\n", p.what, roundDuration(elapsed))
	case t.Sub(p.last) >= p.every:
		p.last = t
		frac := done / total
		eta := "unknown"
		if frac > 0 {
			eta = "about " + roundDuration(time.Duration(float64(elapsed)*(1-frac)/frac)).String()
		}
		fmt.Fprintf(p.w, "%s: %.0f%% of the work done, %s elapsed, %s left\n", p.what, 100*frac, roundDuration(elapsed), eta)
	}
}

// roundDuration keeps a duration readable: whole seconds, or tenths below 10 s.
func roundDuration(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
