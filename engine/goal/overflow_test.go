package goal

import (
	"errors"
	"strings"
	"testing"
)

// TestOverflow: a time past 2^63 - 1 ns stops the run with an
// *OverflowError naming the operation and what LogGOPSim would wrap it
// to (before, two chained calcs of 2^63 - 1 ended at -2 with no error);
// a time just under it is computed exactly.
func TestOverflow(t *testing.T) {
	for _, c := range []struct {
		name, text string
		says       []string
	}{
		{"two calcs of 2^63-1", "num_ranks 1\nrank 0 {\na: calc 9223372036854775807\nb: calc 9223372036854775807\nb requires a\n}\n",
			[]string{"the end of rank 0 b (calc 9223372036854775807) would be at 1.8e19 ns", "makes it 18446744073709551614 ns (-2 as a signed time)"}},
		{"calc 2^64-1", "num_ranks 1\nrank 0 {\nx: calc 18446744073709551615\n}\n",
			[]string{"rank 0 x (calc 18446744073709551615)", "makes it 18446744073709551615 ns (-1 as a signed time)"}},
		{"send 2^64-1 bytes", "num_ranks 2\nrank 0 {\ns: send 18446744073709551615b to 1 tag 0\n}\nrank 1 {\nr: recv 1b from 0 tag 0\n}\n",
			[]string{"the end of the NIC gap of rank 0 s (send 18446744073709551615b to 1) would be at 1.1e20 ns", "makes it 988 ns"}},
		// G = 1, g = 0: the send's NIC gap (s-1)·G fits, its receive 4000
		// ns later (o + L) plus o and (s-1)·G does not
		{"a receive of 2^63-3000 bytes", "num_ranks 2\nrank 0 {\ns: send 9223372036854772808b to 1 tag 0\n}\nrank 1 {\nr: recv 1b from 0 tag 0\n}\n",
			[]string{"the end of the receive at rank 1 of the message of rank 0 s (send 9223372036854772808b to 1) would be at 9.2e18 ns", "makes it 9223372036854778307 ns (-9223372036854773309 as a signed time)"}},
	} {
		s := mustRead(t, c.text)
		p := Default()
		if strings.Contains(c.name, "receive") {
			p.GapPerByte, p.OverheadPerByte, p.Gap = 1, 0, 0
		}
		r, err := Run(s, p, Noise{}, Options{Record: true})
		var oe *OverflowError
		if !errors.As(err, &oe) {
			t.Errorf("%s: %v, %+v: want an *OverflowError", c.name, err, r)
			continue
		}
		saysAll(t, c.name, err, c.says)
		t.Logf("%s: %v", c.name, err)
	}
	// 2^62 - 1 twice: 2^63 - 2, the largest time short of the limit,
	// exact (the run is checked: its calcs add up past 2^60)
	s := mustRead(t, "num_ranks 1\nrank 0 {\na: calc 4611686018427387903\nb: calc 4611686018427387903\nb requires a\n}\n")
	r, err := Run(s, Default(), Noise{}, Options{Record: true})
	if err != nil || r.End != 1<<63-2 {
		t.Errorf("two calcs of 2^62-1: end %v, %v: want 2^63-2", r, err)
	}
}

// TestCheckedRunsSame: a run whose every time is checked (as runs whose
// durations could add up past 2^60 are) is the same run.
func TestCheckedRunsSame(t *testing.T) {
	defer func() { checkAll = false }()
	for _, c := range diffCases(t) {
		for _, nz := range pinnedNoise() {
			var fp [2]string
			for k, ch := range []bool{false, true} {
				checkAll = ch
				r, err := Run(c.s, c.p, n2(nz), Options{Record: true})
				fp[k] = fingerprint(r, err)
			}
			if fp[0] != fp[1] {
				t.Errorf("%s %s: checked\n %s\nunchecked\n %s", c.name, nz.name, fp[1], fp[0])
			}
		}
	}
}

// TestZeroBytes: a 0-byte message costs what LogGOPSim's wrapped (0-1)
// makes of it (g - G of NIC, o - G of receive overhead when O = 0), and
// parameters under which one of these would be negative are refused,
// naming the parameter (the clocks would run backwards).
func TestZeroBytes(t *testing.T) {
	s := mustRead(t, "num_ranks 2\nrank 0 {\na: send 0b to 1 tag 0\nb: send 0b to 1 tag 1\nb requires a\n}\nrank 1 {\nr: recv 0b from 0 tag 0\nq: recv 0b from 0 tag 1\n}\n")
	r, err := Run(s, Default(), Noise{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// a at 0; b when a is done (0, eager) but the NIC's g - G = 994
	// after a: b starts at max(o, 994) = 1500, arrives 1500+1500+2500 =
	// 5500; the receiver took a at 4000 for o - G = 1494 (to 5494), so b
	// is taken at 5500 and rank 1 ends at 5500 + 1494
	if r.End != 5500+1494 {
		t.Errorf("0-byte messages under the defaults: end %d, want %d", r.End, 5500+1494)
	}
	for _, c := range []struct {
		name  string
		p     Params
		field string
	}{
		{"G > g", Params{L: 10, Overhead: 10, Gap: 5, GapPerByte: 6}, "G"},
		{"O > o", Params{L: 10, Overhead: 10, Gap: 50, GapPerByte: 6, OverheadPerByte: 11}, "O"},
		{"O = 0, G > o", Params{L: 10, Overhead: 5, Gap: 50, GapPerByte: 6}, "G"},
	} {
		_, err := Run(s, c.p, Noise{}, Options{})
		var re *RangeError
		if !errors.As(err, &re) || re.Field != c.field {
			t.Errorf("%s: %v, want a *RangeError on %s", c.name, err, c.field)
			continue
		}
		saysAll(t, c.name, err, []string{"2 messages of 0 bytes", "wraps"})
		t.Logf("%s: %v", c.name, err)
	}
	// without 0-byte messages, the same parameters run
	s1 := mustRead(t, "num_ranks 2\nrank 0 {\na: send 1b to 1 tag 0\n}\nrank 1 {\nr: recv 1b from 0 tag 0\n}\n")
	if _, err := Run(s1, Params{L: 10, Overhead: 10, Gap: 5, GapPerByte: 6}, Noise{}, Options{}); err != nil {
		t.Errorf("1-byte messages with G > g: %v", err)
	}
}
