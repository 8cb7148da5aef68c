//go:build !(js && wasm)

package main

import (
	"strings"
	"testing"

	"commlab/scene/catalog"
)

// TestLongArgumentsAreCut: a megabyte-long argument is repeated in the
// message as its first characters and its length, wherever it goes.
func TestLongArgumentsAreCut(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	for _, args := range [][]string{
		{long},
		{"-" + long},
		{"-png", "a.png", "-width", long},
		{"-png", "a.png", "-theme", long},
		{"-png", "a.png", "-scene", long},
		{"-png", "a.png", "-query", "%zz" + long},
		{"-png", "a.png", "-query", "P=" + long},
		{"-png", "a.png", "-query", long + "=1"},
		{"-png", "a.png", "-scene", "dots", "-query", "scene=" + long},
		{"-png", "a.png", "-query", strings.Repeat("&"+long[:50]+"=1", 1000)},
	} {
		_, err := runIn(t, t.TempDir(), args...)
		if err == nil {
			t.Fatalf("%.30q: no error", args)
		}
		if n := len(err.Error()); n > 1200 || !strings.Contains(err.Error(), "characters)") {
			t.Errorf("%.30q: message of %d bytes: %.300s", args, n, err)
		}
	}
}

// FuzzState: any -query, -scene and -theme give the view or a one-line
// error that stays short, never a panic; a view it accepts has every
// value its field allows, over the real catalog.
func FuzzState(f *testing.F) {
	all := catalog.Unchecked()
	f.Add("scene=butterfly&P=64&t=1e-3", "", "")
	f.Add("http://127.0.0.1:8080/scene.html?scene=jitter&P=8#x", "jitter", "dark")
	f.Add("P=3&seed=-1&P=4", "tcc", "light")
	f.Add("%zz", "nope", "blue")
	f.Fuzz(func(t *testing.T, query, sceneName, theme string) {
		o := options{query: query, scene: sceneName, theme: theme}
		st, sc, err := o.state(all)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || len(err.Error()) > 4000 {
				t.Fatalf("message of %d bytes over lines: %.300q", len(err.Error()), err)
			}
			return
		}
		if sc == nil || sc.Info().Name != st.Scene {
			t.Fatalf("scene %v for state %q", sc, st.Scene)
		}
	})
}
