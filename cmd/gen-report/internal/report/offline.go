package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// remoteRef matches what could make a browser reach beyond the report: absolute URLs, and
// protocol-relative ones in src, href, CSS url() or import, and any "//cdn".
var remoteRef = regexp.MustCompile(`(?i)https?://[^\s"'<>)]*` +
	`|(?:src|href|action|srcset)\s*=\s*["']?//[^\s"'<>]*` +
	`|url\(\s*["']?//[^\s"'<>)]*` +
	`|@import\s+["']//[^\s"'<>]*` +
	`|//cdn[^\s"'<>)]*`)

// vendoredRefs are the URLs in the third-party files as shipped, none of which is fetched:
// XML namespace names in echarts' SVG renderer, and licence references in comments and
// notices. A new echarts version with other URLs fails CheckOffline until reviewed here.
var vendoredRefs = map[string][]string{
	"assets/echarts.min.js": {
		"http://www.apache.org/licenses/LICENSE-2.0",
		"https://github.com/ecomfe/zrender/blob/master/LICENSE.txt",
		"http://www.w3.org/2000/svg",
		"http://www.w3.org/1999/xlink",
		"http://www.w3.org/2000/xmlns/",
		"http://www.w3.org/XML/1998/namespace",
	},
	"assets/echarts.LICENSE": {
		"http://www.apache.org/licenses/",
		"http://www.apache.org/licenses/LICENSE-2.0",
		"https://github.com/d3/d3",
	},
	"assets/echarts.NOTICE": {
		"https://www.apache.org/",
	},
}

// CheckOffline reads every file of the report in dir and returns an error listing each
// reference to a non-relative URL (http://, https://, protocol-relative src/href/url(),
// //cdn), so that a report that would reach the network, or break offline, is caught. The
// vendored echarts files may hold only the non-fetched URLs they are known to hold.
//
// siteBases are the absolute site bases the report was written with (Index.SiteBase,
// gen-report -site-base): the links under them open the hosted site's scenes on a
// click and fetch nothing, so they are allowed.
func CheckOffline(dir string, siteBases ...string) error {
	var errs []error
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		allowed := vendoredRefs[rel]
		for _, loc := range remoteRef.FindAllIndex(b, -1) {
			ref := strings.TrimRight(string(b[loc[0]:loc[1]]), ".,;")
			if slices.Contains(allowed, ref) || slices.ContainsFunc(siteBases, func(b string) bool { return b != "" && strings.HasPrefix(ref, b) }) {
				continue
			}
			line := 1 + strings.Count(string(b[:loc[0]]), "\n")
			errs = append(errs, fmt.Errorf("%s:%d: non-relative URL %q", rel, line, ref))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("report: checking %s: %w", dir, err)
	}
	if len(errs) > 0 {
		return fmt.Errorf("report: %s refers beyond itself:\n%w", dir, errors.Join(errs...))
	}
	return nil
}
