//go:build !(js && wasm)

package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"unicode"

	"commlab/scene"
)

// indexTemplate is the site's start page. Its cards come from the scene
// catalog, so that a scene's title, summary and paper are written once, in
// its Info, and the page leads with the pictures (the thumbnails -thumbs
// draws, at the same names).
//
//go:embed index.html.tmpl
var indexTemplate string

var indexPage = template.Must(template.New("index").Parse(indexTemplate))

type indexCard struct {
	Name, Title, Paper, Summary string
	Lead                        string // the summary's first sentence, on the card
	Alt                         string
	W, H                        int
}

// writeIndex writes the start page for the scenes of reg.
func writeIndex(w io.Writer, reg scene.Registry) error {
	var cards []indexCard
	for _, sc := range reg {
		in := sc.Info()
		cards = append(cards, indexCard{
			Name: in.Name, Title: in.Title, Paper: in.Paper, Summary: in.Summary, Lead: firstSentence(in.Summary),
			Alt: fmt.Sprintf("%s: the scene's last frame at its defaults", in.Title),
			W:   int(thumbW * thumbScale), H: int(thumbH * thumbScale),
		})
	}
	var b bytes.Buffer
	if err := indexPage.Execute(&b, cards); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// firstSentence is s up to its first full stop that ends a sentence (after
// a lower-case letter, before a capital), so "Fig. 1" does not end it; the
// card shows it under the picture and the whole summary on hover and on the
// scene page.
func firstSentence(s string) string {
	r := []rune(s)
	for i := 1; i+2 < len(r); i++ {
		if r[i] == '.' && r[i+1] == ' ' && unicode.IsLower(r[i-1]) && unicode.IsUpper(r[i+2]) {
			return string(r[:i+1])
		}
	}
	return s
}
