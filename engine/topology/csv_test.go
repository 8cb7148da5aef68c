package topology

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestRTTCSVRoundTrip(t *testing.T) {
	tr := PaperExperiment()
	rtt := MeasureRTT(tr, DefaultNet(), rand.New(rand.NewPCG(1, 3)))
	var buf bytes.Buffer
	if err := WriteRTTCSV(&buf, tr.Nodes, rtt); err != nil {
		t.Fatal(err)
	}
	names, back, err := ReadRTTCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, tr.Nodes) || !slices.EqualFunc(back, rtt, slices.Equal) {
		t.Error("round trip changed the matrix")
	}
}

func TestRTTCSVErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty input"},
		{"node\n", "line 1, column 1: the header names no nodes"},
		{"node,a,a\n", `line 1, column 3: node "a" named twice`},
		{"node,a,b\na,0,1\nb,1\n", "line 3, column 3: 2 fields, want 3"},
		{"node,a,b\na,0,1\nc,1,0\n", `line 3, column 1: node "c" is not in the header`},
		{"node,a,b\na,0,x\nb,1,0\n", `line 2, column 3 (a to b): "x" is not a finite number`},
		{"node,a,b\na,0,NaN\nb,1,0\n", `line 2, column 3 (a to b): "NaN"`},
		{"node,a,b\na,0,-1\nb,1,0\n", "line 2, column 3 (a to b): RTT -1 is negative"},
		{"node,a,b\na,3,1\nb,1,0\n", "line 2, column 2: a's RTT to itself is 3"},
		{"node,a,b\na,0,10\nb,30,0\n", "line 3, column 2: b to a is 30 but line 2 has a to b 10"},
		{"node,a,b\na,0,10\na,0,10\n", `line 3, column 1: node "a" has a second row (the first is on line 2)`},
		{"node,a,b\na,0,10\n", `line 1, column 3: node "b" has no row`},
		{"node,a,b\na,0,\"1\n", "line 2, column"},
	} {
		_, _, err := ReadRTTCSV(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadRTTCSV(%q) = %v, want %q", c.in, err, c.want)
		}
	}
	// Without the label column, and with rows in another order.
	names, rtt, err := ReadRTTCSV(strings.NewReader("a,b\nb,10,0\na,0,11\n"))
	if err != nil || !slices.Equal(names, []string{"a", "b"}) || rtt[0][1] != 11 || rtt[1][0] != 10 {
		t.Errorf("header without label: %v %v %v", names, rtt, err)
	}
}

func TestInterferenceCSV(t *testing.T) {
	tr, _ := Generate(3, 2, 2)
	obs, err := Observe(tr)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteInterferenceCSV(&buf, tr.Nodes, obs); err != nil {
		t.Fatal(err)
	}
	const want = "a,b,c,d,interferes\nn0,n2,n6,n4,false\nn0,n4,n6,n2,true\nn0,n6,n4,n2,true\n"
	if buf.String() != want {
		t.Errorf("csv\n%s\nwant\n%s", buf.String(), want)
	}
	o, err := ReadInterferenceCSV(strings.NewReader(want), tr.Nodes)
	if err != nil {
		t.Fatal(err)
	}
	if x, ok := o.Interferes(4, 6, 2, 0); !ok || x { // same question, pairs swapped
		t.Errorf("lookup: %v %v", x, ok)
	}
	if _, ok := o.Interferes(0, 1, 2, 3); ok {
		t.Error("unobserved question known")
	}
	for _, c := range []struct{ in, want string }{
		{"", "empty input"},
		{"a,b,c\n", "line 1, column 4: header has 3 fields"},
		{"a,b,c,e,interferes\n", `line 1, column 4: header "e", want "d"`},
		{"a,b,c,d,interferes\nn0,n1,n2\n", "line 2, column 4: 3 fields, want 5"},
		{"a,b,c,d,interferes\nn0,n1,n2,zz,true\n", `line 2, column 4 (d): node "zz" is not in the RTT matrix`},
		{"a,b,c,d,interferes\nn0,n1,n2,n3,maybe\n", `line 2, column 5 (interferes): "maybe", want true or false`},
		{"a,b,c,d,interferes\nn0,n0,n2,n3,true\n", "line 2, column 2: a pair joins a node to itself"},
	} {
		_, err := ReadInterferenceCSV(strings.NewReader(c.in), tr.Nodes)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadInterferenceCSV(%q) = %v, want %q", c.in, err, c.want)
		}
	}
}

// FuzzReadRTTCSV: any input gives a matrix or an error, never a panic; a
// matrix read writes and reads back the same, and InferLeaves takes it.
func FuzzReadRTTCSV(f *testing.F) {
	f.Add("node,a,b\na,0,10\nb,11,0\n")
	f.Add("a,b,c\na,0,1,2\nb,1,0,2\nc,2,2,0\n")
	f.Add("node,a,b\na,0,x\n")
	f.Add("\"")
	f.Fuzz(func(t *testing.T, in string) {
		names, rtt, err := ReadRTTCSV(strings.NewReader(in))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteRTTCSV(&buf, names, rtt); err != nil {
			t.Fatal(err)
		}
		names2, rtt2, err := ReadRTTCSV(&buf)
		if err != nil {
			t.Fatalf("written matrix does not read back: %v", err)
		}
		if !slices.Equal(names, names2) || !slices.EqualFunc(rtt, rtt2, slices.Equal) {
			t.Fatal("round trip changed the matrix")
		}
		if _, err := InferLeaves(rtt); err != nil {
			t.Fatalf("InferLeaves on a matrix ReadRTTCSV accepted: %v", err)
		}
	})
}

// FuzzReadInterferenceCSV: never panics, and what it reads InferTree takes
// without panicking.
func FuzzReadInterferenceCSV(f *testing.F) {
	f.Add("a,b,c,d,interferes\nn0,n2,n6,n4,false\n")
	f.Add("a,b,c,d,interferes\nn0,n1,n2,n3,true\nn3,n1,n7,n5,false\n")
	tr, _ := Generate(3, 2, 2)
	f.Fuzz(func(t *testing.T, in string) {
		o, err := ReadInterferenceCSV(strings.NewReader(in), tr.Nodes)
		if err != nil {
			return
		}
		_, _, _ = InferTree(tr.Nodes, tr.Groups(), o)
	})
}

// A few pairs far apart are outliers, read without complaint; many are a
// broken matrix, refused naming the first line and column.
func TestReadRTTCSVAsymmetricPairs(t *testing.T) {
	tr, _ := Generate(2, 4, 5) // 20 nodes, 190 pairs
	rtt := MeasureRTT(tr, DefaultNet(), rand.New(rand.NewPCG(1, 1)))
	write := func(m [][]float64) string {
		var b strings.Builder
		if err := WriteRTTCSV(&b, tr.Nodes, m); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	rtt[3][7] *= 10 // one slow ping
	if _, _, err := ReadRTTCSV(strings.NewReader(write(rtt))); err != nil {
		t.Errorf("one outlier refused: %v", err)
	}
	for v := 1; v < 15; v++ { // 14 of 190 pairs: 7 %
		rtt[0][v] *= 10
	}
	_, _, err := ReadRTTCSV(strings.NewReader(write(rtt)))
	if err == nil || !strings.Contains(err.Error(), "line 3, column 2: n1 to n0") || !strings.Contains(err.Error(), "15 of the 190 pairs") {
		t.Errorf("wholesale asymmetry: %v", err)
	}
}
