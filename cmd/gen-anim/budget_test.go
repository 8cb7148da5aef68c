//go:build !(js && wasm)

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"commlab/cmd/internal/budget"
	"commlab/engine/cost"
	"commlab/render"
	"commlab/scene"
	"commlab/scene/catalog"
)

// TestBudget: issue 16's case, the butterfly at P = 64 with N = 1e9 and a
// jitter window every microsecond (over 4 GB of trace spans), is refused on
// a machine of 8 GB before anything is built, naming the parameters, and
// writes no file; -force lifts the budget (shown with the defaults under a
// budget of a few bytes, so the test stays small).
func TestBudget(t *testing.T) {
	old := cliBudget
	t.Cleanup(func() { cliBudget = old })
	limit := 4e9
	cliBudget = func(force bool) cost.Budget {
		if force {
			return cost.Unlimited
		}
		return cost.Budget{Name: "the command", Bytes: limit, Seconds: budget.Seconds, Force: "-force"}
	}
	dir := t.TempDir()
	png := filepath.Join(dir, "b.png")
	var out, errb bytes.Buffer
	err := run(&out, &errb, []string{"-query", "scene=butterfly&P=64&N=1e9&period=1e-6&duration=1e-7", "-png", png}, catalog.All())
	if err == nil {
		t.Fatal("built, want a refusal")
	}
	for _, n := range []string{"period", "P = 64", "N = 1e9", "jitter windows", "GB", "-force runs it anyway"} {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("message does not name %q: %v", n, err)
		}
	}
	if _, err := os.Stat(png); !os.IsNotExist(err) {
		t.Errorf("refused but wrote %s: %v", png, err)
	}

	limit = 10
	if err := run(&out, &errb, []string{"-png", png}, catalog.All()); err == nil {
		t.Errorf("the defaults under a budget of 10 bytes: built, want a refusal")
	}
	if err := run(&out, &errb, []string{"-png", png, "-force"}, catalog.All()); err != nil {
		t.Errorf("-force: %v", err)
	}
	if _, err := os.Stat(png); err != nil {
		t.Errorf("-force wrote no file: %v", err)
	}
}

// machine puts a fixed budget of bytes in place of this machine's for the
// test, so that refusals do not depend on where the tests run.
func machine(t *testing.T, bytes float64) {
	t.Helper()
	old := cliBudget
	cliBudget = func(force bool) cost.Budget {
		if force {
			return cost.Unlimited
		}
		return cost.Budget{Name: "the command", Bytes: bytes, Seconds: budget.Seconds, Force: "-force", Basis: "half of a test's machine"}
	}
	t.Cleanup(func() { cliBudget = old })
}

// TestGIFBudget: issue 26's GIF, four frames of 16384x16384 pixels (2.55
// GB peak, where the old frame budget let it through at exactly 1 GiB of
// frames), is refused under a budget it does not fit, saying what fits and
// writing nothing, and the -scale it advises is accepted by the same check.
func TestGIFBudget(t *testing.T) {
	machine(t, 1.5e9)
	dir := t.TempDir()
	out := filepath.Join(dir, "a.gif")
	var stdout, stderr bytes.Buffer
	args := []string{"-gif", out, "-width", "4096", "-height", "4096", "-scale", "4", "-fps", "1", "-seconds", "3"}
	err := run(&stdout, &stderr, args, catalog.All())
	const (
		start = "-gif: 4 frames of 16384x16384 px (3 s at 1 a second) of scene butterfly (≈ 4."
		over  = " GB, over the command's 1.5 GB, half of a test's machine); lower -scale to at most "
	)
	if err == nil || !strings.HasPrefix(err.Error(), start) || !strings.Contains(err.Error(), over) {
		t.Fatalf("refusal\n%v\nwant it to start\n%s…%s", err, start, over)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("refused but wrote %s", out)
	}
	_, rest, _ := strings.Cut(err.Error(), over)
	scale := mustFloat(t, strings.Fields(rest)[0])
	if !(scale >= minScale && scale < 4) {
		t.Fatalf("advises -scale %v", scale)
	}
	// The same check with the advised scale passes.
	sc, _ := catalog.All().Lookup("butterfly")
	st := scene.Default(sc)
	r, err := sc.Build(st.Values, st.Seed)
	if err != nil {
		t.Fatal(err)
	}
	o := options{w: 4096, h: 4096, fps: 1, scale: scale, gif: out, scene: "butterfly", budget: cliBudget(false)}
	th, _ := render.ThemeByName(st.Theme)
	view := scene.View{W: 4096, H: 4096, Theme: th}
	est, _ := sc.(scene.Estimator).Estimate(st.Values)
	if err := o.checkExport(est, 3, sample(r, view, scale)); err != nil {
		t.Errorf("-scale %v, as advised: %v", scale, err)
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	var x float64
	if _, err := fmt.Sscan(s, &x); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return x
}

// TestExitStatus: every failure exits with status 2, as gen-report's do:
// bad input, a refusal, and a write that fails (a full disk).
func TestExitStatus(t *testing.T) {
	if args := os.Getenv("GEN_ANIM_ARGS"); args != "" {
		os.Args = append([]string{"gen-anim"}, strings.Fields(args)...)
		main()
		return
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	for _, args := range []string{
		"-png /dev/full",
		"-png " + filepath.Join(t.TempDir(), "a.png") + " -width 1",
		"-png " + filepath.Join(t.TempDir(), "a.png") + " -query P=64&N=1e9&period=1e-7&duration=9e-8",
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestExitStatus$")
		cmd.Env = append(os.Environ(), "GEN_ANIM_ARGS="+args)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("gen-anim %s: %v (%s), want exit status 2", args, err, strings.TrimSpace(stderr.String()))
		}
		if !strings.HasPrefix(stderr.String(), "gen-anim: ") || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("gen-anim %s: stderr %q, want one line", args, stderr.String())
		}
	}
}
