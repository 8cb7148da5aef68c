//go:build !(js && wasm)

package main

import (
	"bytes"
	"html"
	"io"
	"os"
	"strings"
	"testing"

	"commlab/scene/catalog"
)

// startPage is the committed start page that -index writes.
const startPage = "../../site/index.html"

// TestStartPageIsUpToDate keeps site/index.html what -index writes from the
// scene catalog: a scene added, renamed or re-summarised fails here until
// the page is regenerated (go test ./cmd/gen-anim -run StartPage -update,
// or go run ./cmd/gen-anim -index site/index.html).
func TestStartPageIsUpToDate(t *testing.T) {
	var b bytes.Buffer
	if err := writeIndex(&b, catalog.All()); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(startPage, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(startPage)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("site/index.html is not what the scene catalog gives; regenerate it: go run ./cmd/gen-anim -index site/index.html")
	}
}

// TestIndexCards checks that every scene gets a card with its link, its
// thumbnail first, its summary and paper, and that text is escaped.
func TestIndexCards(t *testing.T) {
	dir := t.TempDir()
	out, err := runIn(t, dir, "-index", dir+"/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "2 scenes") {
		t.Errorf("stdout %q does not count the scenes", out)
	}
	if _, err := os.Stat(dir + "/index.html"); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeIndex(&b, catalog.All()); err != nil {
		t.Fatal(err)
	}
	page := string(b.Bytes())
	for _, sc := range catalog.All() {
		in := sc.Info()
		card := page[strings.Index(page, `href="scene.html?scene=`+in.Name+`"`):]
		img, h2 := strings.Index(card, `<img class="thumb" src="thumbs/`+in.Name+`.png"`), strings.Index(card, "<h2>")
		if img < 0 || h2 < 0 || img > h2 {
			t.Errorf("the card of %s does not lead with its thumbnail:\n%.400s", in.Name, card)
		}
		for _, want := range []string{in.Summary, in.Paper} {
			if want == "" || !strings.Contains(html.UnescapeString(card), want) {
				t.Errorf("the card of %s lacks %q", in.Name, want)
			}
		}
	}
	if !strings.Contains(page, `<link rel="icon" href="favicon.ico">`) {
		t.Error("the start page links no favicon")
	}
}

// TestShortHelp checks that -h prints the usage (the height is -height).
func TestShortHelp(t *testing.T) {
	var stdout bytes.Buffer
	if err := run(&stdout, io.Discard, []string{"-h"}, reg); err != nil {
		t.Fatalf("-h: %v, want the usage", err)
	}
	if !strings.Contains(stdout.String(), "usage: gen-anim") || !strings.Contains(stdout.String(), "-height") {
		t.Errorf("-h printed %q", stdout.String())
	}
}

// TestPNGToStdout checks that -png - writes the PNG to stdout and the note
// to stderr, and that both images cannot go there.
func TestPNGToStdout(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, []string{"-scene", "bars", "-png", "-", "-at-end"}, reg); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(stdout.Bytes(), []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("stdout starts %q, want a PNG", stdout.Bytes()[:min(8, stdout.Len())])
	}
	if !strings.Contains(stderr.String(), "wrote -") {
		t.Errorf("stderr %q, want the note", stderr.String())
	}
	if err := run(io.Discard, io.Discard, []string{"-png", "-", "-gif", "-"}, reg); err == nil || !strings.Contains(err.Error(), "stdout") {
		t.Errorf("-png - -gif -: %v, want an error naming stdout", err)
	}
}
