package main

import "testing"

func TestParamText(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{64.0, "64"}, {1099511627776.0, "1099511627776"}, {1e21, "1e+21"}, {1e300, "1e+300"}, {-3.0, "-3"}, {1e-6, "1e-06"}, {0.25, "0.25"}, {true, "true"}, {false, "false"}, {"32", "32"}, {" 7 ", " 7 "},
	} {
		got, err := paramText("k", tt.v)
		if err != nil || got != tt.want {
			t.Errorf("paramText(%v) = %q, %v; want %q", tt.v, got, err, tt.want)
		}
	}
	for _, v := range []any{jsOther("undefined"), jsOther("object"), nil} {
		if _, err := paramText("P", v); err == nil || err.Key != "P" {
			t.Errorf("paramText(%v) error %v, want one naming P", v, err)
		}
	}
}

// Values from a script mean what they mean in a URL: a boolean is
// accepted by a bool field and rejected by name by a number field.
func TestParamTextThroughSetParams(t *testing.T) {
	a, _ := newApp(testReg, "")
	co, _ := paramText("co", true)
	P, _ := paramText("P", 32.0)
	if errs := a.SetParams(map[string]string{"co": co, "P": P}); errs != nil {
		t.Fatal(errs)
	}
	if a.st.Values["co"] != "1" || a.st.Values["P"] != "32" {
		t.Errorf("values %v", a.st.Values)
	}
	bad, _ := paramText("P", true)
	if errs := a.SetParams(map[string]string{"P": bad}); len(errs) != 1 || errs[0].Value != "true" {
		t.Errorf("P=true: %v", errs)
	}
}
