package report

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// The index draws each page's picture as an inline SVG made here from the
// chart's own data (no script, no image file, nothing fetched): a heat map
// as its grid of cells in the chart's palette, a line chart as its
// polylines, a bar chart as its bars; no text. The numbers are written
// with two decimals, so the same data give the same bytes.
const (
	thumbW, thumbH = 160, 100
	thumbPad       = 6 // around a line or bar chart's plot
)

// thumbnailChart is the chart p's index entry draws: Page.Thumbnail, or
// the page's first heat map, line or bar chart outside a Live section.
func thumbnailChart(p Page) (item, bool) {
	for _, sec := range p.Sections {
		if sec.Live {
			continue
		}
		for _, raw := range sec.Items {
			it, ok := normalize(raw)
			if !ok || (it.heat == nil && it.line == nil && it.bar == nil) {
				continue
			}
			if id, _, _ := it.ident(); p.Thumbnail == "" || id == p.Thumbnail {
				return it, true
			}
		}
	}
	return item{}, false
}

// thumbnailSVG draws it (a heat map, line or bar chart) as a small SVG.
func thumbnailSVG(it item) template.HTML {
	id, title, _ := it.ident()
	var body strings.Builder
	switch {
	case it.heat != nil:
		heatThumb(&body, it.heat)
	case it.line != nil:
		lineThumb(&body, it.line)
	case it.bar != nil:
		barThumb(&body, it.bar)
	default:
		return ""
	}
	label := template.HTMLEscapeString(title)
	return template.HTML(fmt.Sprintf(`<svg class="thumb" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s" data-chart="%s"><title>%s</title>%s</svg>`,
		thumbW, thumbH, thumbW, thumbH, label, template.HTMLEscapeString(id), label, body.String()))
}

// f2 writes a coordinate with at most two decimals.
func f2(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

func heatThumb(b *strings.Builder, h *HeatMap) {
	nx, ny := len(h.X.Labels), len(h.Y.Labels)
	cw, ch := float64(thumbW)/float64(nx), float64(thumbH)/float64(ny)
	lo, hi := zRange(h)
	stops := viridis
	if h.Palette == Diverging {
		stops = rdBu
	}
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="%s"/><g shape-rendering="crispEdges">`, thumbW, thumbH, emptyCell)
	for y, row := range h.Z {
		for x, z := range row {
			if math.IsNaN(z) {
				continue
			}
			// Y.Labels[0] is at the bottom, as on the chart.
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`,
				f2(float64(x)*cw), f2(float64(ny-1-y)*ch), f2(cw), f2(ch), paletteColour(stops, (z-lo)/(hi-lo)))
		}
	}
	b.WriteString(`</g>`)
}

// paletteColour is echarts' continuous visualMap colour at t in [0, 1]
// (clamped): linear in RGB between evenly spaced stops.
func paletteColour(stops []string, t float64) string {
	t = math.Max(0, math.Min(1, t))
	pos := t * float64(len(stops)-1)
	i := min(int(pos), len(stops)-2)
	f := pos - float64(i)
	a, c := rgb(stops[i]), rgb(stops[i+1])
	var out [3]int
	for k := range out {
		out[k] = int(math.Round(float64(a[k]) + f*float64(c[k]-a[k])))
	}
	return fmt.Sprintf("#%02x%02x%02x", out[0], out[1], out[2])
}

// rgb reads "#rrggbb" (the palettes' own constants).
func rgb(hex string) [3]int {
	v, _ := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	return [3]int{int(v >> 16 & 0xff), int(v >> 8 & 0xff), int(v & 0xff)}
}

// plot maps values to the thumbnail's plot area.
type plot struct {
	n      int // categories
	lo, hi float64
	log    bool
}

func (p plot) x(i int) float64 {
	if p.n == 1 {
		return thumbW / 2
	}
	return thumbPad + float64(i)*float64(thumbW-2*thumbPad)/float64(p.n-1)
}

func (p plot) y(v float64) float64 {
	lo, hi := p.lo, p.hi
	if p.log {
		v, lo, hi = math.Log(v), math.Log(lo), math.Log(hi)
	}
	if hi == lo {
		return thumbH / 2
	}
	return float64(thumbH-thumbPad) - (v-lo)/(hi-lo)*float64(thumbH-2*thumbPad)
}

func lineThumb(b *strings.Builder, l *LineChart) {
	p := plot{n: len(l.X.Labels), lo: math.Inf(1), hi: math.Inf(-1), log: l.YLog}
	for _, s := range l.Series {
		for _, v := range s.Values {
			if !math.IsNaN(v) {
				p.lo, p.hi = math.Min(p.lo, v), math.Max(p.hi, v)
			}
		}
	}
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="#ffffff"/>`, thumbW, thumbH)
	if math.IsInf(p.lo, 1) {
		return // every value missing: an empty plot
	}
	for i, s := range l.Series {
		colour := okabeIto[i%len(okabeIto)]
		var run []string
		flush := func() {
			switch len(run) {
			case 0:
			case 1: // a point between gaps
				xy := strings.Split(run[0], ",")
				fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="1.5" fill="%s"/>`, xy[0], xy[1], colour)
			default:
				fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-linejoin="round"/>`, strings.Join(run, " "), colour)
			}
			run = run[:0]
		}
		for x, v := range s.Values {
			if math.IsNaN(v) {
				flush()
				continue
			}
			run = append(run, f2(p.x(x))+","+f2(p.y(v)))
		}
		flush()
	}
}

func barThumb(b *strings.Builder, c *BarChart) {
	// The bars at each label: one per stack, in order of first use, and
	// one per unstacked series.
	type bar struct {
		series []int
	}
	var bars []bar
	stackAt := map[string]int{}
	for i, s := range c.Series {
		if s.Stack == "" {
			bars = append(bars, bar{[]int{i}})
			continue
		}
		if k, ok := stackAt[s.Stack]; ok {
			bars[k].series = append(bars[k].series, i)
			continue
		}
		stackAt[s.Stack] = len(bars)
		bars = append(bars, bar{[]int{i}})
	}
	lo, hi := 0.0, 0.0
	for x := range c.X.Labels {
		for _, br := range bars {
			sum := 0.0
			for _, i := range br.series {
				if v := c.Series[i].Values[x]; !math.IsNaN(v) {
					sum += v
					lo = math.Min(lo, v)
				}
			}
			hi = math.Max(hi, sum)
		}
	}
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="#ffffff"/>`, thumbW, thumbH)
	if hi == lo {
		return
	}
	scale := plot{n: 2, lo: lo, hi: hi}
	slot := float64(thumbW-2*thumbPad) / float64(len(c.X.Labels))
	w := slot * 0.8 / float64(len(bars))
	b.WriteString(`<g shape-rendering="crispEdges">`)
	for x := range c.X.Labels {
		for k, br := range bars {
			left := thumbPad + float64(x)*slot + slot*0.1 + float64(k)*w
			base := 0.0
			for _, i := range br.series {
				v := c.Series[i].Values[x]
				if math.IsNaN(v) || v == 0 {
					continue
				}
				y0, y1 := scale.y(base), scale.y(base+v)
				base += v // stacked values are >= 0 (validate)
				fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`,
					f2(left), f2(math.Min(y0, y1)), f2(w), f2(math.Abs(y1-y0)), okabeIto[i%len(okabeIto)])
			}
		}
	}
	b.WriteString(`</g>`)
}
