package schedule

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"commlab/engine/cost"
	"commlab/scene"
	"commlab/scene/scenetest"
)

// expected reads examples/expected.tsv: per file and LogGOPSim flags,
// LogGOPSim's maximum finishing time.
func expected(t *testing.T) []struct {
	file, flags string
	end         float64
} {
	t.Helper()
	f, err := os.Open("examples/expected.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []struct {
		file, flags string
		end         float64
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 3 {
			t.Fatalf("expected.tsv: %q", sc.Text())
		}
		end, err := strconv.ParseFloat(c[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, struct {
			file, flags string
			end         float64
		}{strings.TrimSuffix(strings.TrimPrefix(c[0], "ex_"), ".goal"), c[1], end})
	}
	if len(out) != 8 {
		t.Fatalf("expected.tsv has %d rows, want 8", len(out))
	}
	return out
}

// flagValues turns LogGOPSim's flags ("defaults" or "-L 3000 -o 1000 ...")
// into the scene's keys for set suffix.
func flagValues(t *testing.T, flags, suffix string) map[string]string {
	v := map[string]string{}
	for i, k := range paramKeys {
		v[k+suffix] = itoa(paramValues(DefaultA)[i])
	}
	if flags == "defaults" {
		return v
	}
	f := strings.Fields(flags)
	for i := 0; i+1 < len(f); i += 2 {
		v[strings.TrimPrefix(f[i], "-")+suffix] = f[i+1]
	}
	return v
}

// TestLogGOPSimEnds: every shipped example's maximum finishing time is
// LogGOPSim's, under both parameter sets, on side A (compare none) and on
// side B (compare params, the set in the 2-keys; compare file).
func TestLogGOPSimEnds(t *testing.T) {
	sc := New()
	for _, e := range expected(t) {
		set := flagValues(t, e.flags, "")
		set[KeyFile], set[KeyCompare] = e.file, CompareNone
		if got := scenetest.Build(t, sc, set, 1).Numbers()["end"]; got != e.end {
			t.Errorf("%s %s: end %v, LogGOPSim %v", e.file, e.flags, got, e.end)
		}
		setB := flagValues(t, e.flags, "2")
		setB[KeyFile], setB[KeyCompare] = e.file, CompareParams
		if got := scenetest.Build(t, sc, setB, 1).Numbers()["end_b"]; got != e.end {
			t.Errorf("%s %s as set B: end_b %v, LogGOPSim %v", e.file, e.flags, got, e.end)
		}
		setF := flagValues(t, e.flags, "")
		setF[KeyFile2], setF[KeyCompare] = e.file, CompareFile
		if got := scenetest.Build(t, sc, setF, 1).Numbers()["end_b"]; got != e.end {
			t.Errorf("%s %s as file 2: end_b %v, LogGOPSim %v", e.file, e.flags, got, e.end)
		}
	}
}

func TestInfo(t *testing.T) {
	keys := []string{"file", "L", "o", "g", "G", "O", "S", "compare", "file2", "L2", "o2", "g2", "G2", "O2", "S2",
		"noise", "os_period", "os_duration", "cosched", "net_mean", "net_delay", "noise_trace", "trace_cosched"}
	scenetest.CheckInfo(t, New(), "schedule", "ns", keys...)
}

// TestBadValues: out-of-range and inconsistent values come back as field
// errors naming the field.
func TestBadValues(t *testing.T) {
	sc := New()
	for _, c := range []struct {
		set map[string]string
		key string
	}{
		{map[string]string{"L": "-1"}, "L"},
		{map[string]string{"S2": "4294967296"}, "S2"},
		{map[string]string{"file": "nosuch"}, "file"},
		{map[string]string{"noise": "os", "os_period": "1000", "os_duration": "1000"}, "os_duration"},
		{map[string]string{"noise": "net", "net_mean": "2000", "net_delay": "2000"}, "net_delay"},
		// OS jitter that would stretch the run past the engine's int64 times
		{map[string]string{"noise": "os", "os_period": "1000000000", "os_duration": "999999999", "o": "2000000000"}, "os_duration"},
		{map[string]string{"compare": "sideways"}, "compare"},
	} {
		_, err := sc.Build(scenetest.Values(sc, c.set), 1)
		var fe *scene.FieldError
		if !errors.As(err, &fe) || fe.Key != c.key {
			t.Errorf("%v: error %v, want a field error on %s", c.set, err, c.key)
		}
	}
}

// TestNoise: OS jitter stalls CPU work and delays the end; network noise
// delays messages; the same seed gives the same run.
func TestNoise(t *testing.T) {
	sc := New()
	quiet := scenetest.Build(t, sc, map[string]string{"compare": "none"}, 1).Numbers()
	osn := scenetest.Build(t, sc, map[string]string{"compare": "none", "noise": "os"}, 1).Numbers()
	if !(osn["stall"] > 0 && osn["end"] > quiet["end"]) {
		t.Errorf("OS noise: stall %v, end %v (quiet %v); want stalls and a later end", osn["stall"], osn["end"], quiet["end"])
	}
	again := scenetest.Build(t, sc, map[string]string{"compare": "none", "noise": "os"}, 1).Numbers()
	if again["end"] != osn["end"] {
		t.Errorf("same seed: end %v then %v", osn["end"], again["end"])
	}
	net := scenetest.Build(t, sc, map[string]string{"compare": "none", "noise": "net", "net_mean": "4000"}, 1)
	delayed := 0
	for _, m := range net.(*run).sides[0].res.Timeline.Messages {
		if m.Delay > 0 {
			delayed++
		}
	}
	if delayed == 0 || net.Numbers()["end"] <= quiet["end"] {
		t.Errorf("network noise: %d messages delayed, end %v (quiet %v)", delayed, net.Numbers()["end"], quiet["end"])
	}
}

// TestAddFile: a file added by a page becomes a choice of both file
// fields and runs; a broken one is refused with its line and column.
func TestAddFile(t *testing.T) {
	const text = "num_ranks 2\n\nrank 0 {\nl1: send 100b to 1 tag 0\nl2: calc 5000\nl2 requires l1\n}\n\nrank 1 {\nl1: recv 100b from 0 tag 0\n}\n"
	key, err := AddFile(KindUpload, "C:\\runs\\two ranks.goal", []byte(text))
	if err == nil {
		t.Errorf("a name with a space: key %q, want an error", key)
	}
	key, err = AddFile(KindUpload, "/home/me/pingpong.goal", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(key, "upload:pingpong.goal~") {
		t.Errorf("key %q", key)
	}
	sc := New()
	r := scenetest.Build(t, sc, map[string]string{"file": key, "compare": "none"}, 1)
	// o + calc on rank 0: 1500 + 5000; rank 1: arrives at o + L = 4000,
	// received by 5500 + 99·6 (G per byte after the first).
	if got := r.Numbers()["end"]; got != 6500 {
		t.Errorf("end %v, want 6500 (rank 0's o + calc)", got)
	}
	if _, err := AddFile(KindURL, "goal/x.goal", []byte("num_ranks 2\nrank 0 {\nl1: send 8b to 7\n}\n")); err == nil || !strings.Contains(err.Error(), "goal/x.goal:") {
		t.Errorf("a peer outside num_ranks: %v, want an error naming the file and position", err)
	}
	if _, err := AddFile("ftp", "x", []byte(text)); err == nil {
		t.Error("kind ftp: no error")
	}
	// A schedule that never completes is a field error on file.
	key2, err := AddFile(KindURL, "stuck.goal", []byte("num_ranks 2\nrank 0 {\nl1: recv 8b from 1 tag 0\n}\nrank 1 {\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = sc.Build(scenetest.Values(sc, map[string]string{"file": key2}), 1)
	var fe *scene.FieldError
	if !errors.As(err, &fe) || fe.Key != "file" {
		t.Errorf("a stuck schedule: %v, want a field error on file", err)
	}
}

// TestNoiseTrace: a noise trace added by a page becomes a choice of
// noise_trace and stretches CPU work; co-scheduled (one offset for all
// ranks) runs differently from a random offset each; the same seed gives
// the same run; a broken trace is refused with its line and column, and
// an unknown key is a field error on noise_trace.
func TestNoiseTrace(t *testing.T) {
	const text = "# start\tduration (ns)\n0\t0\n1000\t800\n5000\t300\n9000\t2000\n20000\t0\n"
	key, err := AddNoiseTrace("/tmp/node17.txt", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(key, "trace:node17.txt~") {
		t.Errorf("key %q", key)
	}
	if !slices.Contains(traceChoices(), key) {
		t.Errorf("choices %v lack %q", traceChoices(), key)
	}
	sc := New()
	quiet := scenetest.Build(t, sc, map[string]string{"compare": "none"}, 1).Numbers()
	own := scenetest.Build(t, sc, map[string]string{"compare": "none", "noise_trace": key}, 1).Numbers()
	co := scenetest.Build(t, sc, map[string]string{"compare": "none", "noise_trace": key, "trace_cosched": "1"}, 1).Numbers()
	again := scenetest.Build(t, sc, map[string]string{"compare": "none", "noise_trace": key}, 1).Numbers()
	if !(own["stall"] > 0 && own["end"] > quiet["end"]) || !(co["stall"] > 0 && co["end"] > quiet["end"]) {
		t.Errorf("trace noise: stall %v / %v (co-scheduled), end %v / %v, quiet %v; want stalls and later ends", own["stall"], co["stall"], own["end"], co["end"], quiet["end"])
	}
	if own["stall"] == co["stall"] {
		t.Errorf("random offsets and co-scheduled lose the same CPU time (%v): the offsets are not per rank", own["stall"])
	}
	if again["end"] != own["end"] || again["stall"] != own["stall"] {
		t.Errorf("same seed: end %v then %v", own["end"], again["end"])
	}
	for _, c := range []struct{ text, want string }{
		{"0\t0\n10\t5\n7\t1\n", "bad.txt:3:1: start 7 is not after"},
		{"0\t0\n10\t5x\n", `bad.txt:2:4: duration "5x"`},
	} {
		if _, err := AddNoiseTrace("bad.txt", []byte(c.text)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error starting %q", c.text, err, c.want)
		}
	}
	_, err = sc.Build(scenetest.Values(sc, map[string]string{"noise_trace": "trace:gone.txt~00000000"}), 1)
	var fe *scene.FieldError
	if !errors.As(err, &fe) || fe.Key != "noise_trace" {
		t.Errorf("an unknown trace: %v, want a field error on noise_trace", err)
	}
}

// TestNoiseBudget: under the page's budget, noise that would take the page
// longer than its 2 s of engine time is refused before running, on the
// field that drives it (network noise scanning its events, a dense noise
// trace met by long CPU work), with what would fit; what fits still
// builds.
func TestNoiseBudget(t *testing.T) {
	var b strings.Builder
	for i := range 200_000 {
		fmt.Fprintf(&b, "%d\t1\n", i)
	}
	dense, err := AddNoiseTrace("dense.txt", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	sc := scene.Within(New(), cost.Page)
	for _, c := range []struct {
		set  map[string]string
		key  string
		says []string
	}{
		{map[string]string{"compare": "none", "noise": "net", "net_mean": "2", "net_delay": "1", "L": "2000000000"}, "net_mean",
			[]string{"net_mean = 2 with net_delay = 1 and L = 2e9 scans about", "over the page's 2 s", "raise net_mean to at least", "or lower L to at most"}},
		{map[string]string{"compare": "params", "noise": "net", "net_mean": "2", "net_delay": "1", "L2": "2000000000"}, "net_mean",
			[]string{"L2 = 2e9", "or lower L2 to at most"}},
		{map[string]string{"compare": "none", "noise_trace": dense, "o": "10000000"}, "noise_trace",
			[]string{"the noise trace dense.txt (200000 events over 199999 ns)", "over the page's 2 s", "times sparser"}},
	} {
		_, err := sc.Build(scenetest.Values(sc, c.set), 1)
		var fe *scene.FieldError
		if !errors.As(err, &fe) || fe.Key != c.key {
			t.Errorf("%v: %v, want a field error on %s", c.set, err, c.key)
			continue
		}
		for _, w := range c.says {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: the message does not say %q: %s", c.set, w, err)
			}
		}
		t.Logf("%v: %v", c.set, err)
	}
	// The same trace under the default o fits, and builds.
	scenetest.Build(t, sc, map[string]string{"compare": "none", "noise_trace": dense}, 1)
}
