package report

import (
	"fmt"
	"net/url"
	"strings"
)

// DefaultSiteBase is where a report finds the site's pages when the Index
// names no SiteBase: the reports live in site/reports/, the scenes in site/.
const DefaultSiteBase = "../"

// CheckSiteBase says what is wrong with a site base (Index.SiteBase,
// gen-report's -site-base), or nil: an absolute http(s) URL with a host
// ("https://commlab.example.org/"), or a relative path ("../",
// "../../site/"), ending in "/", with no query or fragment.
func CheckSiteBase(base string) error {
	want := `want an absolute http(s) URL ending in "/" (https://commlab.example.org/) or a relative path ending in "/" (../)`
	if base == "" {
		return fmt.Errorf("site base is empty: %s", want)
	}
	if !strings.HasSuffix(base, "/") {
		return fmt.Errorf("site base %q does not end in \"/\": %s", base, want)
	}
	if strings.ContainsAny(base, "?#\\\"'<> \t\r\n") {
		return fmt.Errorf("site base %q holds a query, a fragment, a backslash, a quote, an angle bracket or a space: %s", base, want)
	}
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("site base %q: %v: %s", base, err, want)
	}
	switch {
	case u.Scheme == "http" || u.Scheme == "https":
		if u.Host == "" {
			return fmt.Errorf("site base %q has no host: %s", base, want)
		}
	case u.Scheme != "":
		return fmt.Errorf("site base %q has the scheme %q: %s", base, u.Scheme, want)
	case strings.HasPrefix(base, "/"):
		// "/x/" would mean the root of the file system from file://, and
		// "//host/" a host.
		return fmt.Errorf("site base %q starts with \"/\": %s", base, want)
	}
	return nil
}

// siteBase is idx's SiteBase, or the default.
func siteBase(idx Index) string {
	if idx.SiteBase == "" {
		return DefaultSiteBase
	}
	return idx.SiteBase
}

// checkLink says what is wrong with a Link, or "": its Path is a path
// relative to the site's root (with a query, say), its Title non-empty.
func checkLink(field string, l *Link) []string {
	if l == nil {
		return nil
	}
	var pr []string
	path, _, _ := strings.Cut(l.Path, "?")
	path, _, _ = strings.Cut(path, "#")
	switch {
	case l.Path == "":
		pr = append(pr, field+".Path is empty")
	case strings.HasPrefix(l.Path, "/") || strings.Contains(path, ":") || strings.Contains(l.Path, `\`) ||
		strings.ContainsAny(l.Path, "\"'<> \t\r\n") || path == ".." || strings.HasPrefix(path, "../") || strings.Contains(path, "/../"):
		pr = append(pr, fmt.Sprintf("%s.Path %q must be a path relative to the site's root (\"scene.html?scene=butterfly&P=64\"): no scheme, no leading \"/\", no \"..\", no quote, angle bracket, backslash or space", field, l.Path))
	}
	if strings.TrimSpace(l.Title) == "" {
		pr = append(pr, field+".Title is empty: the hover says what the click will open")
	}
	return pr
}

// linkJSON is a Link as charts.js reads it: the address under the site
// base, and what the hover says.
type linkJSON struct {
	Href  string `json:"href"`
	Title string `json:"title"`
}

func resolve(base string, l *Link) *linkJSON {
	if l == nil {
		return nil
	}
	return &linkJSON{Href: base + l.Path, Title: l.Title}
}
