package costtest

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"commlab/engine/cost"
)

// move reads "lower K to at most V", "raise K to at least V", "and K to
// at most V" and a note's "and K to V".
var move = regexp.MustCompile(`(?:lower|raise|and) (\w+) to (?:at most |at least )?([0-9.e+-]+)`)

// AdviceFits checks c's refusal under b (it must be refused) and returns
// the ways out it names; t fails for each that does not fit or takes a
// parameter out of its range. Values named for what is no knob (a note's
// "and nodes to 446") are left to the knobs' Cost, which moves them.
func AdviceFits(t testing.TB, c cost.Cost, b cost.Budget) []string {
	t.Helper()
	err := c.Check(b)
	if err == nil {
		t.Fatalf("%s: fits %s's budget; the test wants a refusal", c.Why, b.Name)
	}
	if c.Knobs == nil {
		t.Fatalf("%s: no knobs", c.Why)
	}
	ks := c.Knobs()
	msg := err.Error()
	_, advice, _ := strings.Cut(msg, "); ")
	advice, _, _ = strings.Cut(advice, " ("+b.Force+" runs it anyway)")
	if strings.HasPrefix(advice, "make it about") {
		return nil
	}
	now := make([]float64, len(ks.List))
	index := map[string]int{}
	for i, k := range ks.List {
		now[i], index[k.Key] = k.Now, i
	}
	base, ok := ks.Cost(now)
	if !ok {
		t.Fatalf("%s: the knobs' Cost refuses the values refused", c.Why)
	}
	ways := strings.Split(advice, " or ")
	for _, way := range ways {
		at := append([]float64(nil), now...)
		moved := 0
		for _, m := range move.FindAllStringSubmatch(way, -1) {
			i, ok := index[m[1]]
			if !ok {
				continue
			}
			v, err := strconv.ParseFloat(m[2], 64)
			if err != nil {
				t.Errorf("%s: %q: %v", c.Why, way, err)
				continue
			}
			if k := ks.List[i]; v < k.Min || v > k.Max {
				t.Errorf("%s: %q takes %s out of [%v, %v]", c.Why, way, k.Key, k.Min, k.Max)
			}
			at[i] = v
			moved++
		}
		if moved == 0 {
			t.Errorf("%s: %q moves no knob (%v)", c.Why, way, ks.Keys())
			continue
		}
		e, ok := ks.Cost(at)
		if !ok {
			t.Errorf("%s: %q gives values the model refuses", c.Why, way)
			continue
		}
		scaled := c
		scaled.Bytes *= e.Bytes / base.Bytes
		scaled.Seconds *= e.Seconds / base.Seconds
		if err := scaled.Check(b); err != nil {
			t.Errorf("%s: %q is still refused: %v", c.Why, way, err)
		}
	}
	return ways
}
