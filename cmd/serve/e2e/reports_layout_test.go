//go:build !(js && wasm)

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// layoutJS measures, in the page, what makes a report hard to read and
// returns one line per problem:
//
//   - a table cell (td or th) whose content box is narrower than its longest
//     word, measured by setting that word alone in a span with the cell's
//     font (a crushed column wraps inside words, or one character a line);
//   - a text that echarts draws (axis names, tick labels, legend items)
//     reaching outside its chart container, from the text element's bounding
//     box in the chart's coordinates (echarts clips it at the canvas edge);
//   - a bar chart whose category labels are not all drawn;
//   - a tick label written as a raw power or a long decimal ("10^-2.33",
//     "0.000001", "1e-7") instead of 10⁻³ or 1 µs;
//   - a chart or table narrower than the window allows (pages use the
//     window's width).
const layoutJS = `(() => {
	const problems = [];
	const probe = document.createElement('span');
	probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap;left:0;top:0';
	document.body.appendChild(probe);
	const wordWidth = (cs, w) => {
		// The font shorthand reads back empty in Chromium; copy its parts.
		for (const k of ['fontFamily', 'fontSize', 'fontWeight', 'fontStyle', 'fontStretch']) probe.style[k] = cs[k];
		probe.style.fontVariantNumeric = cs.fontVariantNumeric;
		probe.style.letterSpacing = cs.letterSpacing;
		probe.textContent = w;
		return probe.getBoundingClientRect().width;
	};
	for (const cell of document.querySelectorAll('td, th')) {
		const cs = getComputedStyle(cell);
		const inner = cell.getBoundingClientRect().width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)
			- parseFloat(cs.borderLeftWidth) - parseFloat(cs.borderRightWidth);
		let longest = '', lw = 0;
		// A web address (span.url) breaks after its slashes (and, as any
		// text, its hyphens): its pieces are the words.
		const words = cell.textContent.split(/\s+/).flatMap((w) => w.includes('://') ? w.split(/(?<=[\/-])/) : [w]);
		for (const w of words) {
			if (!w) continue;
			const x = wordWidth(cs, w);
			if (x > lw) { lw = x; longest = w; }
		}
		if (lw > inner + 1) {
			const table = cell.closest('figure');
			problems.push('table ' + (table ? table.id : '?') + ': cell "' + cell.textContent.slice(0, 40) + '" is ' +
				inner.toFixed(0) + ' px wide, narrower than its word "' + longest + '" (' + lw.toFixed(0) + ' px)');
		}
	}
	probe.remove();
	const rawNumber = /\d\^-?\d|^-?0\.0000\d|\de[-+]?\d/;
	for (const el of document.querySelectorAll('.chart-canvas[data-option]')) {
		const chart = echarts.getInstanceByDom(el);
		if (!chart) { problems.push('chart ' + el.id + ': not drawn'); continue; }
		const W = chart.getWidth(), H = chart.getHeight();
		const texts = [];
		for (const d of chart.getZr().storage.getDisplayList(true)) {
			if (d.invisible || d.ignore || !d.style || typeof d.style.text !== 'string' || d.style.text.trim() === '') continue;
			let hidden = false;
			for (let p = d; p; p = p.parent) { if (p.ignore || p.invisible) { hidden = true; break; } }
			if (hidden) continue;
			const r = d.getBoundingRect().clone();
			// zrender's box of a text span can be shorter than its glyphs:
			// make it at least the font size tall, about its middle.
			const size = parseFloat(/(\d+(?:\.\d+)?)px/.exec(d.style.font || '') ? /(\d+(?:\.\d+)?)px/.exec(d.style.font)[1] : (d.style.fontSize || 12));
			if (r.height < size) { r.y -= (size - r.height) / 2; r.height = size; }
			if (d.transform) r.applyTransform(d.transform);
			texts.push(d.style.text);
			if (r.x < -1 || r.y < -1 || r.x + r.width > W + 1 || r.y + r.height > H + 1) {
				problems.push('chart ' + el.id + ': text "' + d.style.text + '" spans x ' + r.x.toFixed(0) + '..' + (r.x + r.width).toFixed(0) +
					', y ' + r.y.toFixed(0) + '..' + (r.y + r.height).toFixed(0) + ', outside the chart (' + W + 'x' + H + ')');
			}
			if (rawNumber.test(d.style.text)) {
				problems.push('chart ' + el.id + ': label "' + d.style.text + '" is a raw number (want 10⁻³ or 1 µs)');
			}
		}
		const opt = chart.getOption();
		const x = opt.xAxis && opt.xAxis[0];
		if (opt.series.some(s => s.type === 'bar') && x && x.type === 'category') {
			for (const c of x.data) {
				const label = typeof c === 'object' ? c.value : c;
				if (!texts.includes(String(label))) {
					problems.push('chart ' + el.id + ': the bar category "' + label + '" has no label');
				}
			}
		}
	}
	const main = document.querySelector('main');
	const room = main.clientWidth - parseFloat(getComputedStyle(main).paddingLeft) - parseFloat(getComputedStyle(main).paddingRight);
	for (const f of document.querySelectorAll('figure')) {
		if (f.getBoundingClientRect().width < room - 2) {
			problems.push('figure ' + f.id + ' is ' + f.getBoundingClientRect().width.toFixed(0) + ' px wide of the ' + room.toFixed(0) + ' px the page has');
		}
	}
	if (main.getBoundingClientRect().width < window.innerWidth - 2) {
		problems.push('main is ' + main.getBoundingClientRect().width.toFixed(0) + ' px wide in a ' + window.innerWidth + ' px window');
	}
	return problems;
})()`

// TestReportLayout opens every page of a report at a desktop and a phone
// width and fails on anything layoutJS finds: a crushed table column, an
// axis name or label cut at the chart's edge, a bar without its label, a
// raw tick label, a page that does not use the window's width.
func TestReportLayout(t *testing.T) {
	chromium(t)
	dir, mounted := reportsDir(t)
	var mounts []mount
	if mounted {
		mounts = append(mounts, mount{"/reports/", dir})
	}
	pages, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	base := serveSite(t, mounts...)
	for _, width := range []int{1280, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			s := newBrowserSession(t, base, width, 900)
			// A headless window keeps a minimum width (about 500 px):
			// the viewport is set to what a phone has.
			if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(int64(width), 900)); err != nil {
				t.Fatal(err)
			}
			for _, p := range pages {
				page := filepath.Base(p)
				t.Run(page, func(t *testing.T) {
					s.t = t
					s.open("reports/" + page)
					s.waitFor("charts on "+page, chartsSettled, 30*time.Second)
					s.snapFull(fmt.Sprintf("layout-%d-%s.png", width, strings.TrimSuffix(page, ".html")))
					for _, p := range eval[[]string](s, layoutJS) {
						t.Error(p)
					}
				})
			}
			s.t = t
		})
	}
}

// snapFull keeps a screenshot of the whole page, not only the window, when
// $COMMLAB_E2E_SHOTS is set.
func (s *session) snapFull(name string) {
	s.t.Helper()
	if os.Getenv("COMMLAB_E2E_SHOTS") == "" {
		return
	}
	shot, err := chromedp.Run(s.ctx, chromedp.FullScreenshot(80))
	if err != nil {
		s.t.Fatalf("screenshot: %v", err)
	}
	s.keep(strings.TrimSuffix(name, ".png")+".jpg", shot)
}
