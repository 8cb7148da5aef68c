package trace

import (
	"cmp"
	"slices"

	"commlab/engine/progress"
	"commlab/internal/permsort"
)

// sortChunk is how many records SortProgress sorts or merges between two
// reports: about a millisecond of work natively.
const sortChunk = 1 << 13

// SortProgress is Sort in steps, telling pr the fraction done between
// chunks of work, for a caller that must not be held up for the whole
// sort (the browser builds a run between frames). The order is Sort's,
// record for record: every comparison looks at every field, so two
// records that compare equal are identical and any sort gives the same
// slice. An error pr returns stops the sort, leaving the trace unsorted
// (in some order of its records), and comes back. A nil pr is Sort.
func (t *Trace) SortProgress(pr progress.Func) error {
	if pr == nil {
		t.Sort()
		return nil
	}
	total := float64(len(t.Spans) + len(t.Messages) + len(t.Markers))
	if total == 0 {
		return pr.Report(1)
	}
	var done float64
	part := func(n int) progress.Func {
		lo := done / total
		done += float64(n)
		return pr.Part(lo, done/total)
	}
	if err := sortSteps(t.Spans, compareSpans, part(len(t.Spans))); err != nil {
		return err
	}
	if err := sortSteps(t.Messages, compareMessages, part(len(t.Messages))); err != nil {
		return err
	}
	return sortSteps(t.Markers, compareMarkers, part(len(t.Markers)))
}

func compareMarkers(a, b Marker) int {
	if c := cmp.Compare(a.Time, b.Time); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Lane, b.Lane); c != 0 {
		return c
	}
	return cmp.Compare(a.Label, b.Label)
}

// sortSteps sorts xs by cmp in steps (sortIndexSteps), then moves the
// records into that order. Only this and the comparison are compiled once
// per record type: the sort itself, on indices, is shared (see
// internal/permsort on what each copy costs the wasm).
func sortSteps[T any](xs []T, cmp func(a, b T) int, pr progress.Func) error {
	if len(xs) <= sortChunk {
		permsort.SortFunc(xs, cmp)
		return pr.Report(1)
	}
	idx, err := sortIndexSteps(len(xs), func(i, j int) int { return cmp(xs[i], xs[j]) }, pr)
	if err != nil {
		return err
	}
	permsort.Permute(xs, idx)
	return nil
}

// sortIndexSteps returns the indices of n records in the order cmp (which
// compares records by index) sorts them, as a bottom-up merge sort: chunks
// of sortChunk sorted in place, then merged in pairs of runs, reporting
// after every chunk of records sorted or merged. Each merge pass reports an
// equal share of the fraction.
func sortIndexSteps(n int, cmp func(i, j int) int, pr progress.Func) ([]int, error) {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = i
	}
	passes := 1
	for w := sortChunk; w < n; w *= 2 {
		passes++
	}
	step := func(pass, i int) error {
		return pr.Report((float64(pass) + float64(i)/float64(n)) / float64(passes))
	}
	for lo := 0; lo < n; lo += sortChunk {
		slices.SortFunc(xs[lo:min(lo+sortChunk, n)], cmp)
		if err := step(0, lo+sortChunk); err != nil {
			return nil, err
		}
	}
	src, dst := xs, make([]int, n)
	pass := 1
	for w := sortChunk; w < n; w *= 2 {
		out, since := 0, 0
		for lo := 0; lo < n; lo += 2 * w {
			a, b := src[lo:min(lo+w, n)], src[min(lo+w, n):min(lo+2*w, n)]
			for len(a) > 0 && len(b) > 0 {
				// Ties take from a, so equal records keep their order.
				if cmp(b[0], a[0]) < 0 {
					dst[out], b = b[0], b[1:]
				} else {
					dst[out], a = a[0], a[1:]
				}
				out++
				if since++; since == sortChunk {
					since = 0
					if err := step(pass, out); err != nil {
						return nil, err
					}
				}
			}
			out += copy(dst[out:], a)
			out += copy(dst[out:], b)
		}
		src, dst = dst, src
		pass++
		if err := step(pass, 0); err != nil {
			return nil, err
		}
	}
	return src, nil
}
