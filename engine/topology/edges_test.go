package topology

import (
	"strings"
	"testing"
)

const bom = "\uFEFF"

// A spreadsheet's byte-order mark before the header is not part of the
// first name (or of the header's "a").
func TestCSVByteOrderMark(t *testing.T) {
	names, rtt, err := ReadRTTCSV(strings.NewReader(bom + "a,b\na,0,10\nb,11,0\n"))
	if err != nil || names[0] != "a" || rtt[0][1] != 10 {
		t.Errorf("rtt csv with a BOM: %q %v %v", names, rtt, err)
	}
	names, _, err = ReadRTTCSV(strings.NewReader(bom + "node,a,b\na,0,10\nb,11,0\n"))
	if err != nil || names[0] != "a" {
		t.Errorf("rtt csv with a BOM before node: %q %v", names, err)
	}
	tr, _ := Generate(3, 2, 2)
	o, err := ReadInterferenceCSV(strings.NewReader(bom+"a,b,c,d,interferes\nn0,n2,n6,n4,false\n"), tr.Nodes)
	if err != nil {
		t.Fatalf("interference csv with a BOM: %v", err)
	}
	if x, ok := o.Interferes(0, 2, 6, 4); !ok || x {
		t.Errorf("interference csv with a BOM: %v %v", x, ok)
	}
	// Only at the start: inside, it stays part of the name, and the name is
	// not in the header.
	if _, _, err := ReadRTTCSV(strings.NewReader("a,b\n" + bom + "a,0,10\nb,11,0\n")); err == nil {
		t.Error("a BOM inside the file was dropped")
	}
}

// The same question (pairs in any order) answered both ways is an error
// naming both lines; answered the same way twice, it is read.
func TestInterferenceContradiction(t *testing.T) {
	tr, _ := Generate(3, 2, 2)
	in := "a,b,c,d,interferes\nn0,n2,n6,n4,false\nn1,n3,n5,n7,true\nn4,n6,n2,n0,true\n"
	_, err := ReadInterferenceCSV(strings.NewReader(in), tr.Nodes)
	const want = "interference csv: line 4, column 5 (interferes): n4-n6 with n2-n0 is true, but line 2 has n0-n2 with n6-n4 false: the same question answered both ways"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	in = "a,b,c,d,interferes\nn0,n2,n6,n4,false\nn6,n4,n2,n0,false\n"
	if _, err := ReadInterferenceCSV(strings.NewReader(in), tr.Nodes); err != nil {
		t.Errorf("the same answer twice: %v", err)
	}
}

// A long value from the input is cut in the message.
func TestCSVLongValuesCut(t *testing.T) {
	long := strings.Repeat("x", 100000)
	tr, _ := Generate(3, 2, 2)
	for _, c := range []struct {
		name string
		read func() error
	}{
		{"rtt name", func() error { _, _, err := ReadRTTCSV(strings.NewReader("a,b\n" + long + ",0,1\n")); return err }},
		{"rtt value", func() error { _, _, err := ReadRTTCSV(strings.NewReader("a,b\na,0," + long + "\nb,1,0\n")); return err }},
		{"rtt header twice", func() error {
			_, _, err := ReadRTTCSV(strings.NewReader(long + "," + long + "\n"))
			return err
		}},
		{"interference header", func() error {
			_, err := ReadInterferenceCSV(strings.NewReader(long+",b,c,d,interferes\n"), tr.Nodes)
			return err
		}},
		{"interference node", func() error {
			_, err := ReadInterferenceCSV(strings.NewReader("a,b,c,d,interferes\nn0,n1,n2,"+long+",true\n"), tr.Nodes)
			return err
		}},
		{"interference answer", func() error {
			_, err := ReadInterferenceCSV(strings.NewReader("a,b,c,d,interferes\nn0,n1,n2,n3,"+long+"\n"), tr.Nodes)
			return err
		}},
	} {
		err := c.read()
		if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), "… (100000 characters)") {
			t.Errorf("%s: %.300v (%d bytes)", c.name, err, len(err.Error()))
		}
	}
}
