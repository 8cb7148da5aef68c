package cli

import (
	"commlab/internal/shown"
	"strings"
	"testing"
)

// FuzzCutQuoted: however long the quoted values in a message, cutQuoted
// leaves each at most 40 characters and its length, and changes nothing
// in a message without long quoted values.
func FuzzCutQuoted(f *testing.F) {
	f.Add(`invalid value "` + strings.Repeat("x", 100) + `" for flag -msg: not a size`)
	f.Add(`a "b" c "\"" d`)
	f.Add(`unterminated "abc`)
	f.Fuzz(func(t *testing.T, msg string) {
		out := shown.Quoted(msg)
		if len(out) > len(msg)+60*strings.Count(msg, `"`) {
			t.Fatalf("cutQuoted grew %d bytes to %d", len(msg), len(out))
		}
		if !strings.Contains(out, "characters)") && out != msg {
			t.Fatalf("nothing cut, yet %q became %q", msg, out)
		}
	})
}
