// Package docscheck holds commlab's Markdown (README.md and docs/*.md) to
// the rule that a measured number says when it was measured and how to
// measure it again, and README.md's layout table to the packages in the
// tree.
//
// The convention, which docs/architecture.md states for writers: a number
// measured on a machine (a time, a size, a rate) sits in a paragraph, a
// list item or a table row that carries the date of the measurement
// (2026-11-27) and the command that measures it again, in backticks:
//
//	The full report took 4 min 05 s wall (measured 2026-11-25, load 0.04,
//	`/usr/bin/time -v gen-report -out /tmp/r`).
//
// A table row may take its date and command from the table's own header
// row, from the paragraph right above the table (its caption), from the
// row above when it says "as above", or from its section's heading and
// first paragraph; a paragraph or list item from its section's heading
// and first paragraph. A figure that lives elsewhere is linked to, not
// repeated.
//
// What counts as measured is read from the words around the number: a
// number with a unit of time, size or rate, in a block that speaks of a
// measurement (wall, seconds of CPU, RSS, took, load, frames/s, ops/s, MB/s,
// measured). Model parameters and the papers' own numbers
// ("L = 3000 ns", "a 60 µs set-up default") do not use those words and
// are not checked. Fenced and indented code, HTML comments and the
// generated paper-vs-commlab tables (whose provenance their opening
// marker carries, held by cmd/gen-report's TestReadmeTables) are not
// prose and are not checked.
package docscheck
