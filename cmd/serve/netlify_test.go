package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"commlab/cmd/serve/sitehttp"
)

// netlifyConfig is the part of netlify.toml these tests compare: the build
// settings and the header rules, keyed by their "for" pattern.
type netlifyConfig struct {
	build   map[string]string
	headers map[string]map[string]string
	// names maps each header name, lower-cased, to the rules that set it.
	names map[string][]string
}

// readNetlify reads netlify.toml with a line reader that knows only what
// this file uses: [table] and [[array]] headers, and key = "string" pairs.
// Anything else fails the test, so a change in the file's shape is noticed
// rather than silently skipped.
func readNetlify(t *testing.T, path string) netlifyConfig {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := netlifyConfig{build: map[string]string{}, headers: map[string]map[string]string{}, names: map[string][]string{}}
	var table, rule string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "["):
			table = strings.Trim(line, "[]")
			if line == "[[headers]]" {
				rule = ""
			}
			continue
		}
		key, raw, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("%s:%d: cannot read %q", path, n, line)
		}
		key = strings.TrimSpace(key)
		val, err := strconv.Unquote(strings.TrimSpace(raw))
		if err != nil {
			t.Fatalf("%s:%d: value of %s is not a one-line string: %v", path, n, key, err)
		}
		switch table {
		case "build", "build.environment":
			c.build[table+"."+key] = val
		case "headers":
			if key != "for" {
				t.Fatalf("%s:%d: unexpected key %s in [[headers]]", path, n, key)
			}
			rule = val
			c.headers[rule] = map[string]string{}
		case "headers.values":
			if rule == "" {
				t.Fatalf("%s:%d: header %s before its rule's for", path, n, key)
			}
			c.headers[rule][key] = val
			lk := strings.ToLower(key)
			c.names[lk] = append(c.names[lk], rule)
		default:
			t.Fatalf("%s:%d: unexpected table [%s]", path, n, table)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestNetlifyMatchesServe keeps the hosting and the local server in step:
// the headers of the "/*" rule are exactly sitehttp.Headers.
func TestNetlifyMatchesServe(t *testing.T) {
	c := readNetlify(t, "../../netlify.toml")

	all := c.headers["/*"]
	if all == nil {
		t.Fatal(`netlify.toml has no [[headers]] rule for "/*"`)
	}
	for _, kv := range sitehttp.Headers {
		if got := all[kv[0]]; got != kv[1] {
			t.Errorf("netlify.toml /* %s = %q, want sitehttp's %q", kv[0], got, kv[1])
		}
	}
	if len(all) != len(sitehttp.Headers) {
		t.Errorf("netlify.toml /* sets %d headers, sitehttp.Headers %d: add the extra ones to both", len(all), len(sitehttp.Headers))
	}
	if got := c.headers["/*.wasm"]["Content-Type"]; got != "application/wasm" {
		t.Errorf("netlify.toml /*.wasm Content-Type = %q, want application/wasm", got)
	}
	// Netlify merges a header that several matching rules set, which for a
	// CSP would mean two policies; every rule here matches "/x.wasm".
	for name, rules := range c.names {
		if len(rules) > 1 {
			t.Errorf("netlify.toml sets %s in rules %q; set each header in one rule", name, rules)
		}
	}
	if got := c.build["build.publish"]; got != "site" {
		t.Errorf("netlify.toml publish = %q, want site (cmd/serve's default -dir)", got)
	}
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var goLine string
	for _, line := range strings.Split(string(mod), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			goLine = strings.TrimSpace(v)
		}
	}
	if got := c.build["build.environment.GO_VERSION"]; got == "" || minor(got) != minor(goLine) {
		t.Errorf("netlify.toml GO_VERSION = %q, want go.mod's go %s: the build image's default Go may be older", got, goLine)
	}
}

// minor cuts a Go version to its language version: 1.26.3 → 1.26.
func minor(v string) string {
	parts := strings.SplitN(v, ".", 3)
	return strings.Join(parts[:min(2, len(parts))], ".")
}

// TestNetlifyPinsAFullGoVersion checks that the build image's Go is a full
// release, not a minor version whose patch level the image chooses.
func TestNetlifyPinsAFullGoVersion(t *testing.T) {
	b, err := os.ReadFile("../../netlify.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*GO_VERSION\s*=\s*"([^"]*)"`).FindSubmatch(b)
	if m == nil || !regexp.MustCompile(`^\d+\.\d+\.\d+$`).Match(m[1]) {
		t.Errorf("netlify.toml GO_VERSION = %q, want a full version such as 1.26.8", m)
	}
}

// TestEveryPageHasAFavicon checks the site's own pages link the favicon
// (the report pages' template is tested in its package).
func TestEveryPageHasAFavicon(t *testing.T) {
	pages, err := filepath.Glob("../../site/*.html")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no site pages: %v", err)
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`<link rel="icon" href="[^"]*favicon\.ico">`).Match(b) {
			t.Errorf("%s links no favicon", filepath.Base(p))
		}
	}
}
