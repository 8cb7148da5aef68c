package docscheck

import (
	"fmt"
	"regexp"
	"strings"
)

// A Problem is a block holding a measured number without its date or its
// command.
type Problem struct {
	Line    int    // 1-based line of the block's first line
	Missing string // "a date", "a command" or "a date and a command"
	Text    string // the block's start, cut
}

func (p Problem) String() string {
	return fmt.Sprintf("line %d: a measured number without %s: %s", p.Line, p.Missing, p.Text)
}

var (
	// quantity is a number followed by a unit of time, size or rate.
	quantity = regexp.MustCompile(`\d(?:[\d,.]*\d)?(?: ?[-–] ?\d(?:[\d,.]*\d)?)? ?(?:ns|µs|us|ms|s|min|h|CPU-s|B|kB|KB|MB|GB|KiB|MiB|GiB|M|x)(?:/s)?\b|\d+(?:\.\d+)? ?(?:frames/s|ops/s|MB/s|M ops)`)
	// measuring words say that a block speaks of a measurement on a
	// machine, not of a parameter or of the paper's numbers.
	measuring = regexp.MustCompile(`(?i)\b(?:wall|CPU-s|\d ?(?:ns|µs|ms|s|min) (?:of )?CPU|RSS|took|load average|at load|under load|a load of|frames/s|ops/s|MB/s|measured)\b`)
	date      = regexp.MustCompile(`\b20\d\d-\d\d-\d\d\b`)
	// command is a backticked command line: a go, make or shell command
	// that measures again.
	command = regexp.MustCompile("`\\(?(?:[A-Z_]+=\\S+ )*(?:ulimit |go |make|cd |/usr/bin/time|time |gzip|valgrind|git |curl|bash |sh |gen-report|/tmp/|deploy/|\\.ci/|GOOS=|npm )[^`]*`")
)

// block is a paragraph, list item, table row or heading.
type block struct {
	line  int
	text  string
	kind  byte // 'p' paragraph or list item, 'r' table row, 'h' heading
	table int  // the table a row belongs to (rows of one table share it)
}

// blocks splits Markdown into blocks, leaving out fenced code and HTML
// comments.
func blocks(md string) []block {
	var out []block
	var cur *block
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	fence, comment, generated := false, false, false
	table := 0
	for i, line := range strings.Split(md, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "```"):
			flush()
			fence = !fence
			continue
		case fence:
			continue
		case comment || strings.HasPrefix(t, "<!--"):
			flush()
			comment = !strings.Contains(t, "-->")
			// A paper-vs-commlab table is generated from a report whose
			// provenance its opening line carries, and TestReadmeTables
			// (cmd/gen-report) holds it to the code: not prose to check.
			if strings.HasPrefix(t, "<!-- paper-vs-commlab:") {
				generated = true
			} else if strings.HasPrefix(t, "<!-- /paper-vs-commlab:") {
				generated = false
			}
			continue
		case generated:
			continue
		case t == "":
			flush()
			continue
		case cur == nil && (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")):
			continue // an indented code block: a command or its output, not prose
		case strings.HasPrefix(t, "#"):
			flush()
			out = append(out, block{line: i + 1, text: t, kind: 'h'})
			continue
		case strings.HasPrefix(t, "|"):
			if cur == nil || cur.kind != 'r' {
				if len(out) == 0 || out[len(out)-1].kind != 'r' || out[len(out)-1].line != i {
					table++
				}
			}
			flush()
			out = append(out, block{line: i + 1, text: t, kind: 'r', table: table})
			continue
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || regexp.MustCompile(`^\d+\. `).MatchString(t):
			flush()
		}
		if cur == nil {
			cur = &block{line: i + 1, kind: 'p'}
			cur.text = t
		} else {
			cur.text += " " + t
		}
	}
	flush()
	return out
}

// dated says what a text lacks of a date and a command.
func dated(text string) (hasDate, hasCommand bool) {
	return date.MatchString(text), command.MatchString(text)
}

// Check returns the blocks of a Markdown text that hold a measured number
// without a date or without a command to measure it again, directly or
// through what they inherit (see the package comment).
func Check(md string) []Problem {
	bs := blocks(md)
	var problems []Problem
	heading := "" // the current section's heading and its first paragraph
	intro := false
	caption := map[int]string{}
	header := map[int]string{}
	prevRow := ""
	for i, b := range bs {
		switch b.kind {
		case 'h':
			heading, intro = b.text, true
			continue
		case 'r':
			if _, ok := header[b.table]; !ok {
				header[b.table] = b.text
				prevRow = ""
				if i > 0 && bs[i-1].kind == 'p' {
					caption[b.table] = bs[i-1].text
				}
			}
		case 'p':
			if intro {
				heading += " " + b.text
			}
		}
		intro = false
		scope := b.text + " " + heading
		if b.kind == 'r' {
			// A row whose command is "as above" has the row above's.
			if strings.Contains(b.text, "as above") {
				scope += " " + prevRow
			}
			prevRow = scope
			scope += " " + header[b.table] + " " + caption[b.table]
		}
		if !measuring.MatchString(b.text) || !quantity.MatchString(b.text) {
			continue
		}
		d, c := dated(scope)
		if d && c {
			continue
		}
		missing := "a date and a command"
		switch {
		case d:
			missing = "a command"
		case c:
			missing = "a date"
		}
		text := b.text
		if r := []rune(text); len(r) > 100 {
			text = string(r[:100]) + "…"
		}
		problems = append(problems, Problem{Line: b.line, Missing: missing, Text: text})
	}
	return problems
}
