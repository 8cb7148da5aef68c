package shown

import (
	"fmt"
	"strconv"
	"strings"
)

// Max is how many characters (runes) of a value a message repeats.
const Max = 40

// Cut shortens s to Max characters, marking the cut with "…" and how long
// s was.
func Cut(s string) string {
	r := []rune(s)
	if len(r) <= Max {
		return s
	}
	return string(r[:Max]) + fmt.Sprintf("… (%d characters)", len(r))
}

// Quoted applies Cut to every Go-quoted string in msg: the flag package
// and encoding/json quote a whole bad value or unknown key.
func Quoted(msg string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '"')
		if i < 0 {
			break
		}
		q, err := strconv.QuotedPrefix(msg[i:])
		if err != nil {
			break
		}
		b.WriteString(msg[:i])
		msg = msg[i+len(q):]
		if u, err := strconv.Unquote(q); err == nil {
			if c := Cut(u); c != u {
				q = strconv.Quote(c)
			}
		}
		b.WriteString(q)
	}
	b.WriteString(msg)
	return b.String()
}
