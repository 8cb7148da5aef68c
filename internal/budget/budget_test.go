package budget

import (
	"strings"
	"testing"

	"commlab/engine/cost"
)

func TestMemTotal(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"MemTotal:       24576000 kB\nMemFree: 1 kB\n", 24576000 * 1024, true},
		{"MemFree: 1 kB\n", 0, false},
		{"MemTotal: x kB\n", 0, false},
		{"MemTotal: 0 kB\n", 0, false},
		{"", 0, false},
	} {
		got, ok := memTotal([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("memTotal(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestCLI(t *testing.T) {
	b := CLI(false)
	if !(b.Bytes >= 1e9/2) || b.Seconds != Seconds || b.Force != "-force" {
		t.Errorf("CLI(false) = %+v: want half the machine's memory, %v s, -force", b, float64(Seconds))
	}
	if err := (cost.Cost{Bytes: 1e30, Seconds: 1e30}).Check(CLI(true)); err != nil {
		t.Errorf("CLI(true) refused: %v", err)
	}
	err := (cost.Cost{Bytes: 2 * b.Bytes, Why: "this run"}).Check(b)
	if err == nil || !strings.Contains(err.Error(), "-force runs it anyway") {
		t.Errorf("over the budget: %v, want a refusal naming -force", err)
	}
}
