package overlay

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study/studytest"
	engine "commlab/engine/overlay"
	scov "commlab/scene/overlay"
)

// openLink reads a link as the site does: scene.html with a query the
// scene registry parses. It fails the test on another page, a parse
// error, another scene, or a build the page's budget would refuse, and
// returns the engine parameters the scene would run.
func openLink(t *testing.T, where string, l *report.Link) engine.Params {
	t.Helper()
	st := studytest.OpenLink(t, where, l, sceneName)
	p, err := scov.Params(st.Values)
	if err != nil {
		t.Fatalf("%s: link %q: %v", where, l.Path, err)
	}
	return p
}

// sameCell says how the scene's run differs from cell c of the study s
// ("" when it is c as the scene can draw it): the policy, the cache
// (capped to the scene's), the handshake where c opens shortcuts, and as
// many chunks per key message as in the report.
func sameCell(s *overlayStudy, got engine.Params, c ovlCell) string {
	var d []string
	if got.Policy != c.Policy {
		d = append(d, fmt.Sprintf("policy %s, want %s", got.Policy, c.Policy))
	}
	if want := min(c.Cache, scov.MaxCache); got.Cache != want {
		d = append(d, fmt.Sprintf("cache %d, want %d", got.Cache, want))
	}
	if c.shortcuts() && got.Handshake != c.Handshake {
		d = append(d, fmt.Sprintf("handshake %s, want %s", got.Handshake, c.Handshake))
	}
	want := chunksPerMessage(keyMessageBytes(s.is.Keys, s.is.Procs, s.is.KeyBytes), c.Chunk)
	if n := chunksPerMessage(keyMessageBytes(got.Keys, got.Procs, got.KeyBytes), got.ChunkBytes); n != want {
		d = append(d, fmt.Sprintf("%d chunks a key message (chunk_bytes %d), want %d", n, got.ChunkBytes, want))
	}
	if (c.Chunk == 0) != (got.ChunkBytes == 0) {
		d = append(d, fmt.Sprintf("chunk_bytes %d for %s", got.ChunkBytes, chunkName(c.Chunk)))
	}
	if got.Procs > min(s.is.Procs, scov.MaxProcs) || got.Procs != got.Nodes*(s.is.Procs/s.is.Nodes) {
		d = append(d, fmt.Sprintf("%d processes on %d nodes, want at most the scene's %d, %d a node", got.Procs, got.Nodes, scov.MaxProcs, s.is.Procs/s.is.Nodes))
	}
	return strings.Join(d, ", ")
}

// TestOverlayLinksOpenTheirPoint: every bar, point and row of Fig. 5 and
// every row of the cost sweep opens the overlay scene (parsed by the
// scene registry, within the page's budget) on its own configuration.
func TestOverlayLinksOpenTheirPoint(t *testing.T) {
	s, r := quickResults(t)
	check := func(where string, l *report.Link, c ovlCell) {
		t.Helper()
		if d := sameCell(s, openLink(t, where, l), c); d != "" {
			t.Errorf("%s: link %q opens %s", where, l.Path, d)
		}
	}
	chunkOf := func(id string) int {
		var ch int
		if _, err := fmt.Sscanf(id, "overlay-fig5-c%d", &ch); err != nil {
			return 0
		}
		return ch
	}
	links := 0
	for _, sec := range s.page(r).Sections {
		for _, it := range sec.Items {
			switch v := it.(type) {
			case *report.BarChart:
				if !strings.HasPrefix(v.ID, "overlay-fig5") || v.ID == "overlay-fig5-conns" {
					continue
				}
				for _, sr := range v.Series {
					hs := engine.Handshake(strings.TrimSuffix(sr.Name, " handshake"))
					for k, lab := range v.X.Labels {
						if math.IsNaN(sr.Values[k]) {
							continue
						}
						c := ovlCell{Chunk: chunkOf(v.ID), Policy: engine.Topology, Handshake: hs}
						if _, err := fmt.Sscanf(lab, "%d", &c.Cache); err != nil {
							c.Policy, c.Handshake = engine.Policy(lab), engine.HandshakeKernel
						}
						links++
						check(fmt.Sprintf("%s, %s, %s", v.ID, sr.Name, lab), sr.Links[k], c)
					}
				}
			case *report.LineChart:
				if !strings.HasPrefix(v.ID, "overlay-fig5-vs") {
					continue
				}
				for _, sr := range v.Series {
					chunkText, hsText, _ := strings.Cut(sr.Name, ", ")
					c := ovlCell{Policy: engine.Topology, Handshake: engine.Handshake(hsText)}
					if chunkText != "whole" {
						fmt.Sscanf(chunkText, "%d B", &c.Chunk)
					}
					for k := range v.X.Labels {
						if math.IsNaN(sr.Values[k]) {
							if sr.Links[k] != nil {
								t.Errorf("%s, %s, point %d: a link on no point", v.ID, sr.Name, k)
							}
							continue
						}
						c.Cache = int(v.X.Values[k])
						links++
						check(fmt.Sprintf("%s, %s, C = %d", v.ID, sr.Name, c.Cache), sr.Links[k], c)
					}
				}
			case *report.Table:
				switch v.ID {
				case "overlay-fig5-table":
					if len(v.RowLinks) != len(r.Fig5.Bars) || len(v.Rows) != len(r.Fig5.Bars) {
						t.Fatalf("%s: %d rows, %d links for %d bars", v.ID, len(v.Rows), len(v.RowLinks), len(r.Fig5.Bars))
					}
					for i, b := range r.Fig5.Bars {
						links++
						check(fmt.Sprintf("%s row %d (%v)", v.ID, i, v.Rows[i][:3]), v.RowLinks[i], b.Cell)
					}
				case "overlay-costs":
					if len(v.RowLinks) != len(r.Costs) {
						t.Fatalf("%s: %d links for %d rows", v.ID, len(v.RowLinks), len(r.Costs))
					}
					for i, c := range r.Costs {
						links++
						check(fmt.Sprintf("%s row %d", v.ID, i), v.RowLinks[i], c.Topo.Cell)
					}
				}
			}
		}
	}
	if want := 2 * len(r.Fig5.Bars); links < want {
		t.Errorf("only %d links on the quick page, want at least %d", links, want)
	}
}

// TestOverlayLinkScales: a link scales the report's run to the scene and
// says so in its title; a cache beyond the scene's is capped, said too.
func TestOverlayLinkScales(t *testing.T) {
	s := newOverlayStudy(true, 7)
	c := ovlCell{Chunk: 128, Policy: engine.Topology, Cache: 32, Handshake: engine.HandshakeApplication}
	l := s.sceneLink(c, "a test cell")
	if d := sameCell(s, openLink(t, "C = 32, 128 B", l), c); d != "" {
		t.Errorf("link %q opens %s", l.Path, d)
	}
	for _, want := range []string{"cache 32 capped to 16", "the report's 128 processes on 64 nodes are", "128 B chunks", "seed 7", "application's handshake", "2^16 keys, not 2^23"} {
		if !strings.Contains(l.Title, want) {
			t.Errorf("the title lacks %q: %q", want, l.Title)
		}
	}
	if !strings.Contains(l.Path, "seed=7") {
		t.Errorf("the link does not carry the report's seed: %q", l.Path)
	}
}
