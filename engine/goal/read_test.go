package goal

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

func mustRead(t testing.TB, text string) *Schedule {
	t.Helper()
	s, err := Read(strings.NewReader(text), "t.goal", ReadOptions{Labels: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestReadGrammar(t *testing.T) {
	// Everything txt2bin accepts: comments, unlabelled ops, tokens without
	// blanks between them, wildcards, cpu/nic, irequires, CRLF, no final
	// newline, several statements on a line after a brace or comment.
	s := mustRead(t, "// a schedule\r\nnum_ranks 3\n/* block\ncomment */ rank 0 {\n"+
		"l1: send 8b to 1 tag 5 cpu 1 nic 2\n  send 16 b to2\nl3 :calc 100 cpu 1\nl3 requires l1\nl3 irequires l1\n}\n"+
		"rank 1 { l1: recv 8b from -1 tag -1\n}\nrank 2 {\n}")
	if s.NumRanks() != 3 || s.NumOps() != 4 || s.NumDeps() != 2 || s.CPUs() != 2 || s.NICs() != 3 {
		t.Fatalf("ranks %d ops %d deps %d cpus %d nics %d", s.NumRanks(), s.NumOps(), s.NumDeps(), s.CPUs(), s.NICs())
	}
	want := []Op{
		{Rank: 0, Kind: Send, Peer: 1, Size: 8, Tag: 5, CPU: 1, NIC: 2},
		{Rank: 0, Kind: Send, Peer: 2, Size: 16},
		{Rank: 0, Kind: Calc, Size: 100, CPU: 1},
		{Rank: 1, Kind: Recv, Peer: Any, Size: 8, Tag: Any},
	}
	for i, w := range want {
		if got := s.Op(i); got != w {
			t.Errorf("op %d = %+v, want %+v", i, got, w)
		}
	}
	var deps []string
	s.Dependents(0, func(j int, start bool) { deps = append(deps, strconv.Itoa(j)+strconv.FormatBool(start)) })
	if strings.Join(deps, ",") != "2false,2true" {
		t.Errorf("dependents of op 0: %v", deps)
	}
	if s.Label(2) != "l3" || s.Label(1) != "" {
		t.Errorf("labels %q %q", s.Label(2), s.Label(1))
	}
}

func TestReadErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"num_ranks 2\nrank 0 {\nl1: send 8b to 2 tag 0\n}\n", "t.goal:3:16: peer 2 out of range"},
		{"num_ranks 2\nrank 0 {\nl1: send 8 to 1\n}\n", `t.goal:3:12: expected "b" after the size`},
		{"num_ranks 2\nrank 0 {\nl1: recv 8b to 1\n}\n", `t.goal:3:13: expected "from"`},
		{"num_ranks 2\nrank 0 {\nl1: send 8b to -1\n}\n", "t.goal:3:16: expected peer"},
		{"num_ranks 2\nrank 0 {\nl1: calc 5 cpu 256\n}\n", "t.goal:3:16: cpu 256 out of range"},
		{"num_ranks 2\nrank 0 {\nl1: calc 5\nl1 requires l3\n}\n", "t.goal:4:13: label l3 is not defined"},
		{"num_ranks 2\nrank 0 {\nl1: calc 5\nl1: calc 6\n}\n", "label l1 defined twice"},
		{"num_ranks 2\nrank 0 {\nl1: calc 5\nl2: calc 5\nl1 requires l2\nl2 requires l1\n}\n", "t.goal:7:1: rank 0: dependency cycle through 2 operations: l1 -> l2 -> l1 (each waits for the next)"},
		{"num_ranks 1\nrank 0 {\nc: calc 5\na: calc 5\nb: calc 5\na requires b\nb requires c\nc requires a\n}\n", "dependency cycle through 3 operations: c -> a -> b -> c (each waits for the next)"},
		{"num_ranks 2\nrank 1 {\n}\n", "rank 1 out of order: expected rank 0"},
		{"num_ranks 2\nrank 0 {\n}\n", "t.goal:3:2: num_ranks is 2 but the file ends after rank 0 (ranks 1 to 1 are missing)"},
		{"num_ranks 3\n", "t.goal:1:12: num_ranks is 3 but the file has no rank blocks"},
		{"num_ranks 1\nrank 0 {\nl1: calc 5\n", "missing }"},
		{"rank 0 {\n}\n", "t.goal:1:1: rank block before num_ranks"},
		{"num_ranks 1\nl1: calc 5\n", "calc outside a rank block"},
		{"num_ranks 1\nrank 0 {\nl1: calc 5 // late comment\n}\n", `expected "cpu" or the end of the line, found "/"`},
		{"num_ranks 1\nrank 0 {\nl1: send 8b to 0 cpu 1 tag 2\n}\n", `"tag", "cpu", "nic" or the end of the line (in that order), found "t"`},
		{"num_ranks 1\nrank 0 {\n}\nrank 0 {\n}\n", "rank block after the last rank"},
		{"num_ranks 1\nrank 0 {\n/* open\n}\n", "unterminated /* comment"},
		{"num_ranks 0\n", "t.goal:1:11: num_ranks 0 out of range: want an integer in [1, 1073741824]"},
		{"num_ranks 1073741825\n", "t.goal:1:11: num_ranks 1073741825 out of range: want an integer in [1, 1073741824]"},
		{"num_ranks 2\nrank 0 {\nl1: calc 5\n\xc3\n}\n", `t.goal:4:1: expected "rank", "num_ranks", "calc", "send", "recv", a label, "}" or a comment, found "\xc3"`},
		{"num_ranks 2\nrank 0 {\nl1: calc 5é\n}\n", `t.goal:3:11: expected "cpu" or the end of the line, found "é"`},
		{"num_ranks 1\nrank 0 {\nl1: send 99999999999999999999b to 0\n}\n", "size 99999999999999999999 out of range"},
		{"num_ranks 1\nrank 0 {\nl1 wants l2\n}\n", `expected ":", "requires" or "irequires" after label "l1"`},
		{"num_ranks 1\nrank 0 {\n%\n}\n", `t.goal:3:1: expected "rank", "num_ranks"`},
		{"", `t.goal:1:1: empty file: want "num_ranks N" and N rank blocks`},
		{"// only a comment\n", "t.goal:1:18: no num_ranks and no rank blocks"},
	} {
		_, err := Read(strings.NewReader(c.text), "t.goal", ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// TestStdSort holds stdSort to the permutations libstdc++'s std::sort
// (g++ 12) produced for the same inputs (testdata/stdsort_gen.cpp.txt).
func TestStdSort(t *testing.T) {
	b, err := os.ReadFile("testdata/stdsort.golden")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, ln := range lines {
		in, out, _ := strings.Cut(ln, "|")
		f := strings.Fields(in)
		n, _ := strconv.Atoi(f[0])
		keys := make([]uint8, n)
		a := make([]uint32, n)
		for i := range n {
			k, _ := strconv.Atoi(f[1+i])
			keys[i] = uint8(k)
			a[i] = uint32(i)
		}
		stdSort(a, func(i uint32) uint8 { return keys[i] })
		var got []string
		for _, v := range a {
			got = append(got, strconv.Itoa(int(v)))
		}
		if g, w := strings.Join(got, " "), strings.TrimSpace(out); g != w {
			t.Errorf("n=%d: got %s\nwant %s", n, g, w)
		}
	}
	if len(lines) < 40 {
		t.Fatalf("only %d cases", len(lines))
	}
}

func equalSchedules(a, b *Schedule) bool {
	if a.NumRanks() != b.NumRanks() || a.NumOps() != b.NumOps() || a.NumDeps() != b.NumDeps() {
		return false
	}
	for i := range a.NumOps() {
		if a.Op(i) != b.Op(i) {
			return false
		}
		var da, db []int
		a.Dependents(i, func(j int, s bool) { da = append(da, j*2+map[bool]int{true: 1}[s]) })
		b.Dependents(i, func(j int, s bool) { db = append(db, j*2+map[bool]int{true: 1}[s]) })
		if len(da) != len(db) {
			return false
		}
		for k := range da {
			if da[k] != db[k] {
				return false
			}
		}
	}
	return true
}

// FuzzRead round-trips: whatever Read accepts, Write writes and Read
// reads back as the same schedule, which runs to the same end.
//
// Its seeds are small on purpose. The fuzzer minimizes every input that
// finds new code for up to -fuzzminimizetime (60 s by default) before it
// reports anything, and its byte-subset pass is quadratic in the input's
// length: mutations of the 2-3 KB example schedules (the seeds this had
// before) kept the worker minimizing for the whole of a 30 s run, which
// printed "execs: 6 (0/sec)" throughout (count-based -fuzztime=Nx caps
// minimization by the count, which is why it seemed to work). Small seeds
// in Schedgen's spelling keep each minimization short; TestExamples reads
// the full examples (TestLogGOPSimExamples).
func FuzzRead(f *testing.F) {
	// A 4-rank binomial-tree broadcast and a 3-rank linear alltoall, as
	// Schedgen writes them (labels, tags, blank lines).
	f.Add([]byte("num_ranks 4\n\nrank 0 {\nl1: send 8b to 2 tag 0\nl2: send 8b to 1 tag 0\nl2 requires l1\n}\n\nrank 1 {\nl1: recv 8b from 0 tag 0\n}\n\nrank 2 {\nl1: recv 8b from 0 tag 0\nl2: send 8b to 3 tag 0\nl2 requires l1\n}\n\nrank 3 {\nl1: recv 8b from 2 tag 0\n}\n"))
	f.Add([]byte("num_ranks 3\n\nrank 0 {\nl1: send 4096b to 1 tag 0\nl2: recv 4096b from 2 tag 0\nl3: send 4096b to 2 tag 0\nl4: recv 4096b from 1 tag 0\n}\n\nrank 1 {\nl1: send 4096b to 2 tag 0\nl2: recv 4096b from 0 tag 0\nl3: send 4096b to 0 tag 0\nl4: recv 4096b from 2 tag 0\n}\n\nrank 2 {\nl1: send 4096b to 0 tag 0\nl2: recv 4096b from 1 tag 0\nl3: send 4096b to 1 tag 0\nl4: recv 4096b from 0 tag 0\n}\n"))
	f.Add([]byte("num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 5 cpu 1 nic 2\nl2: calc 7\nl2 irequires l1\n}\nrank 1 {\nrecv 8b from -1 tag -1\n}\n"))
	f.Add([]byte("num_ranks 1\nrank 0 {\nl1: calc 5\nl2: calc 5\nl1 requires l2\nl2 requires l1\n}\n"))
	f.Add([]byte("num_ranks 2\n/* c */ rank 0 { send 70000b to 1\n}\nrank 1 {\nrecv 70000b from 0 tag 0\n}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Read(bytes.NewReader(data), "fuzz", ReadOptions{})
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, s); err != nil {
			t.Fatalf("write: %v", err)
		}
		s2, err := Read(&buf, "again", ReadOptions{})
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, buf.String())
		}
		if !equalSchedules(s, s2) {
			t.Fatalf("round trip changed the schedule:\n%s", buf.String())
		}
		if s.NumOps() > 10000 {
			return
		}
		r1, err1 := Run(s, Default(), Noise{}, Options{Record: true})
		r2, err2 := Run(s2, Default(), Noise{}, Options{})
		if (err1 == nil) != (err2 == nil) || r1.End != r2.End || r1.Events != r2.Events {
			t.Fatalf("runs differ: %v %v / %v %v", r1.End, err1, r2.End, err2)
		}
	})
}

// TestFastPath: the fast line parser and the general one read the same
// schedules from Schedgen's spelling and from odd spellings.
func TestFastPath(t *testing.T) {
	var texts []string
	for _, name := range []string{"ex_allreduce_recdoub_32.goal", "ex_linear_alltoall_8.goal", "ex_binomialtreebcast_32.goal"} {
		b, err := os.ReadFile("testdata/examples/" + name)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	texts = append(texts, "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 4294967295\nl01: calc 5\nl2: recv 8b from -1 tag 3\nl2 requires l01\nl3: calc 1\nl3 requires l2\n}\nrank 1 {\nl9999999: recv 8b from 0 tag -1\nl5: calc 0\nl5 requires l9999999\n}\n")
	for i, text := range texts {
		fast, err := Read(strings.NewReader(text), "f", ReadOptions{Labels: true})
		if err != nil {
			t.Fatal(err)
		}
		fastPath = false
		slow, err := Read(strings.NewReader(text), "s", ReadOptions{Labels: true})
		fastPath = true
		if err != nil {
			t.Fatal(err)
		}
		if !equalSchedules(fast, slow) {
			t.Errorf("text %d: fast and general parsers differ", i)
		}
		for j := range fast.NumOps() {
			if fast.Label(j) != slow.Label(j) {
				t.Errorf("text %d op %d: label %q vs %q", i, j, fast.Label(j), slow.Label(j))
			}
		}
	}
}

// TestLongCycle: a dependency cycle through a whole rank is found in
// time linear in the rank (the check was quadratic: 3 s at 30,000
// labels, none in a minute at a million) and named in a short message:
// its first operations, how many more, and the one that closes it (89 KB
// at 10,000 labels before).
func TestLongCycle(t *testing.T) {
	for _, n := range []int{7, 8, 100_000} {
		var b strings.Builder
		b.WriteString("num_ranks 1\nrank 0 {\n")
		for i := range n {
			fmt.Fprintf(&b, "l%d: calc 1\n", i)
		}
		for i := range n {
			fmt.Fprintf(&b, "l%d requires l%d\n", i, (i+1)%n)
		}
		b.WriteString("}\n")
		_, err := Read(strings.NewReader(b.String()), "c.goal", ReadOptions{})
		want := fmt.Sprintf("c.goal:%d:1: rank 0: dependency cycle through %d operations: l0 -> l1 -> l2 -> l3 -> l4 -> l5 -> ", 2*n+3, n)
		switch n {
		case 7:
			want += "l6 -> l0 (each waits for the next)"
		default:
			want += fmt.Sprintf("… (%d more) -> l%d -> l0 (each waits for the next)", n-7, n-1)
		}
		if err == nil || err.Error() != want {
			t.Errorf("cycle of %d:\n got %v\nwant %s", n, err, want)
		}
	}
}
