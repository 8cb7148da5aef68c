package subset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
)

// table is one table of a font file, by tag.
type table struct {
	tag  string
	data []byte
}

// Font returns a TrueType font holding the glyphs that ttf maps the runes
// in keep to, the glyphs those are composed of, and glyph 0 (the notdef
// box drawn for characters outside the font). Runes ttf does not map are
// skipped. Metrics (head, hhea, OS/2) are copied, so ascent, descent and
// every kept glyph's advance and bearing stay as they were.
func Font(ttf []byte, keep []rune) ([]byte, error) {
	tabs, err := readTables(ttf)
	if err != nil {
		return nil, err
	}
	for _, tag := range []string{"head", "hhea", "hmtx", "maxp", "loca", "glyf", "cmap", "OS/2"} {
		if tabs[tag] == nil {
			return nil, fmt.Errorf("subset: no %q table", tag)
		}
	}
	if tabs["kern"] != nil || tabs["GPOS"] != nil || tabs["CFF "] != nil {
		// Kerning pairs and PostScript outlines would need rewriting too;
		// the Go fonts have neither.
		return nil, errors.New("subset: kern, GPOS and CFF tables are not supported")
	}
	head, hhea, maxp := tabs["head"], tabs["hhea"], tabs["maxp"]
	if len(head) < 54 || len(hhea) < 36 || len(maxp) < 6 {
		return nil, errors.New("subset: head, hhea or maxp too short")
	}
	numGlyphs := int(u16(maxp[4:]))
	locaLong := u16(head[50:]) == 1
	offsets, err := glyphOffsets(tabs["loca"], numGlyphs, locaLong, len(tabs["glyf"]))
	if err != nil {
		return nil, err
	}
	cmap, err := readCmap(tabs["cmap"])
	if err != nil {
		return nil, err
	}
	glyf := tabs["glyf"]
	glyphData := func(g int) []byte { return glyf[offsets[g]:offsets[g+1]] }

	// New glyph ids: notdef, then the mapped runes in rune order (so runs
	// of consecutive characters get consecutive ids and one cmap segment),
	// then components that only composites use.
	runes := slices.Clone(keep)
	slices.Sort(runes)
	runes = slices.Compact(runes)
	newID := map[int]int{0: 0}
	order := []int{0}
	add := func(g int) {
		if _, ok := newID[g]; !ok {
			newID[g] = len(order)
			order = append(order, g)
		}
	}
	var mapped []rune
	for _, r := range runes {
		if g, ok := cmap[r]; ok && g != 0 {
			add(g)
			mapped = append(mapped, r)
		}
	}
	for i := 0; i < len(order); i++ { // order grows as components are found
		comps, err := components(glyphData(order[i]))
		if err != nil {
			return nil, fmt.Errorf("subset: glyph %d: %w", order[i], err)
		}
		for _, c := range comps {
			if c >= numGlyphs {
				return nil, fmt.Errorf("subset: glyph %d uses glyph %d of %d", order[i], c, numGlyphs)
			}
			add(c)
		}
	}

	// glyf and loca (long offsets), hmtx with one full metric per glyph.
	numHMetrics := int(u16(hhea[34:]))
	hmtx := tabs["hmtx"]
	if len(hmtx) < 4*numHMetrics+2*(numGlyphs-numHMetrics) || numHMetrics == 0 {
		return nil, errors.New("subset: hmtx too short")
	}
	var newGlyf, newLoca, newHmtx []byte
	for _, g := range order {
		newLoca = binary.BigEndian.AppendUint32(newLoca, uint32(len(newGlyf)))
		d, err := rewriteGlyph(glyphData(g), newID)
		if err != nil {
			return nil, fmt.Errorf("subset: glyph %d: %w", g, err)
		}
		newGlyf = append(newGlyf, d...)
		for len(newGlyf)%4 != 0 {
			newGlyf = append(newGlyf, 0)
		}
		adv := u16(hmtx[4*min(g, numHMetrics-1):])
		var lsb uint16
		if g < numHMetrics {
			lsb = u16(hmtx[4*g+2:])
		} else {
			lsb = u16(hmtx[4*numHMetrics+2*(g-numHMetrics):])
		}
		newHmtx = binary.BigEndian.AppendUint16(newHmtx, adv)
		newHmtx = binary.BigEndian.AppendUint16(newHmtx, lsb)
	}
	newLoca = binary.BigEndian.AppendUint32(newLoca, uint32(len(newGlyf)))

	newHead := slices.Clone(head)
	binary.BigEndian.PutUint32(newHead[8:], 0) // checkSumAdjustment, set last
	binary.BigEndian.PutUint16(newHead[50:], 1)
	newHhea := slices.Clone(hhea)
	binary.BigEndian.PutUint16(newHhea[34:], uint16(len(order)))
	newMaxp := slices.Clone(maxp)
	binary.BigEndian.PutUint16(newMaxp[4:], uint16(len(order)))
	// post version 3: no glyph names.
	post := make([]byte, 32)
	if old := tabs["post"]; len(old) >= 32 {
		copy(post, old[:32])
	}
	binary.BigEndian.PutUint32(post, 0x30000)

	out := []table{
		{"OS/2", tabs["OS/2"]},
		{"cmap", writeCmap(mapped, cmap, newID)},
		{"glyf", newGlyf},
		{"head", newHead},
		{"hhea", newHhea},
		{"hmtx", newHmtx},
		{"loca", newLoca},
		{"maxp", newMaxp},
		{"post", post},
	}
	if n := tabs["name"]; n != nil {
		out = append(out, table{"name", n})
	}
	return writeFont(out), nil
}

func u16(b []byte) uint16 { return binary.BigEndian.Uint16(b) }
func u32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }

// readTables returns the tables of a single TrueType font by tag.
func readTables(b []byte) (map[string][]byte, error) {
	if len(b) < 12 || u32(b) != 0x00010000 && string(b[:4]) != "true" {
		return nil, errors.New("subset: not a TrueType font")
	}
	n := int(u16(b[4:]))
	if len(b) < 12+16*n {
		return nil, errors.New("subset: table directory truncated")
	}
	tabs := map[string][]byte{}
	for i := range n {
		rec := b[12+16*i:]
		off, length := u32(rec[8:]), u32(rec[12:])
		if uint64(off)+uint64(length) > uint64(len(b)) {
			return nil, fmt.Errorf("subset: table %q outside the file", rec[:4])
		}
		tabs[string(rec[:4])] = b[off : off+length]
	}
	return tabs, nil
}

// glyphOffsets reads loca into numGlyphs+1 byte offsets into glyf.
func glyphOffsets(loca []byte, numGlyphs int, long bool, glyfLen int) ([]int, error) {
	size := 2
	if long {
		size = 4
	}
	if len(loca) < size*(numGlyphs+1) {
		return nil, errors.New("subset: loca too short")
	}
	offs := make([]int, numGlyphs+1)
	for i := range offs {
		if long {
			offs[i] = int(u32(loca[4*i:]))
		} else {
			offs[i] = 2 * int(u16(loca[2*i:]))
		}
		if offs[i] > glyfLen || i > 0 && offs[i] < offs[i-1] {
			return nil, fmt.Errorf("subset: loca entry %d out of order or range", i)
		}
	}
	return offs, nil
}

// readCmap returns the rune-to-glyph map of the font's Unicode BMP
// subtable (format 4, Windows platform, Unicode BMP encoding).
func readCmap(b []byte) (map[rune]int, error) {
	if len(b) < 4 {
		return nil, errors.New("subset: cmap too short")
	}
	n := int(u16(b[2:]))
	for i := range n {
		if len(b) < 4+8*i+8 {
			break
		}
		rec := b[4+8*i:]
		pid, psid, off := u16(rec), u16(rec[2:]), int(u32(rec[4:]))
		if pid != 3 || psid != 1 || off+14 > len(b) || u16(b[off:]) != 4 {
			continue
		}
		return readFormat4(b[off:])
	}
	return nil, errors.New("subset: no format 4 Unicode cmap subtable")
}

func readFormat4(b []byte) (map[rune]int, error) {
	length := int(u16(b[2:]))
	if length > len(b) {
		return nil, errors.New("subset: cmap subtable truncated")
	}
	b = b[:length]
	seg := int(u16(b[6:])) / 2
	if 16+8*seg > len(b) {
		return nil, errors.New("subset: cmap segments truncated")
	}
	ends, starts := b[14:], b[16+2*seg:]
	deltas, ranges := b[16+4*seg:], b[16+6*seg:]
	m := map[rune]int{}
	for i := range seg {
		end, start := int(u16(ends[2*i:])), int(u16(starts[2*i:]))
		delta, ro := int(u16(deltas[2*i:])), int(u16(ranges[2*i:]))
		for c := start; c <= end && c != 0xFFFF; c++ {
			g := 0
			if ro == 0 {
				g = (c + delta) & 0xFFFF
			} else {
				at := 16 + 6*seg + 2*i + ro + 2*(c-start)
				if at+2 > len(b) {
					return nil, errors.New("subset: cmap glyph index outside the table")
				}
				if g = int(u16(b[at:])); g != 0 {
					g = (g + delta) & 0xFFFF
				}
			}
			if g != 0 {
				m[rune(c)] = g
			}
		}
	}
	return m, nil
}

// Composite glyph flags (OpenType glyf table).
const (
	argsAreWords    = 0x0001
	haveScale       = 0x0008
	moreComponents  = 0x0020
	haveXYScale     = 0x0040
	haveTwoByTwo    = 0x0080
	haveInstruction = 0x0100
)

// components lists the glyphs a composite glyph is made of (none for a
// simple or empty glyph).
func components(d []byte) ([]int, error) {
	var out []int
	err := walkComponents(d, func(at int) { out = append(out, int(u16(d[at:]))) })
	return out, err
}

// walkComponents calls f with the offset of each component's glyph index
// and returns the offset where the composite's instructions would start.
func walkComponents(d []byte, f func(at int)) error {
	if len(d) == 0 || int16(u16(d)) >= 0 {
		return nil
	}
	_, err := componentsEnd(d, f)
	return err
}

func componentsEnd(d []byte, f func(at int)) (end int, err error) {
	at := 10
	for {
		if at+4 > len(d) {
			return 0, errors.New("composite glyph truncated")
		}
		flags := u16(d[at:])
		f(at + 2)
		at += 4
		if flags&argsAreWords != 0 {
			at += 4
		} else {
			at += 2
		}
		switch {
		case flags&haveScale != 0:
			at += 2
		case flags&haveXYScale != 0:
			at += 4
		case flags&haveTwoByTwo != 0:
			at += 8
		}
		if at > len(d) {
			return 0, errors.New("composite glyph truncated")
		}
		if flags&moreComponents == 0 {
			return at, nil
		}
	}
}

// rewriteGlyph returns d without hinting instructions and, for a
// composite, with its components' glyph ids renumbered.
func rewriteGlyph(d []byte, newID map[int]int) ([]byte, error) {
	if len(d) == 0 {
		return nil, nil
	}
	if len(d) < 10 {
		return nil, errors.New("glyph header truncated")
	}
	n := int(int16(u16(d)))
	if n >= 0 { // simple: header, endPts[n], instruction length, instructions, the rest
		at := 10 + 2*n
		if at+2 > len(d) {
			return nil, errors.New("simple glyph truncated")
		}
		il := int(u16(d[at:]))
		if at+2+il > len(d) {
			return nil, errors.New("simple glyph instructions truncated")
		}
		out := slices.Clone(d[:at])
		out = append(out, 0, 0)
		return append(out, d[at+2+il:]...), nil
	}
	out := slices.Clone(d)
	var last int
	end, err := componentsEnd(out, func(at int) {
		binary.BigEndian.PutUint16(out[at:], uint16(newID[int(u16(out[at:]))]))
		last = at - 2
	})
	if err != nil {
		return nil, err
	}
	binary.BigEndian.PutUint16(out[last:], u16(out[last:])&^haveInstruction)
	return out[:end], nil
}

// writeCmap writes a cmap with one format 4 subtable (Windows, Unicode BMP)
// mapping runes (sorted) to their new glyph ids.
func writeCmap(runes []rune, old map[rune]int, newID map[int]int) []byte {
	type segment struct{ start, end, delta int }
	var segs []segment
	for _, r := range runes {
		if r > 0xFFFE {
			continue
		}
		g := newID[old[r]]
		if n := len(segs); n > 0 && segs[n-1].end == int(r)-1 && int(r)+segs[n-1].delta == g {
			segs[n-1].end = int(r)
			continue
		}
		segs = append(segs, segment{int(r), int(r), g - int(r)})
	}
	segs = append(segs, segment{0xFFFF, 0xFFFF, 1})
	n := len(segs)
	searchRange := 2
	entrySelector := 0
	for searchRange*2 <= 2*n {
		searchRange *= 2
		entrySelector++
	}
	sub := []byte{}
	be := binary.BigEndian
	sub = be.AppendUint16(sub, 4)
	sub = be.AppendUint16(sub, uint16(16+8*n))
	sub = be.AppendUint16(sub, 0) // language
	sub = be.AppendUint16(sub, uint16(2*n))
	sub = be.AppendUint16(sub, uint16(searchRange))
	sub = be.AppendUint16(sub, uint16(entrySelector))
	sub = be.AppendUint16(sub, uint16(2*n-searchRange))
	for _, s := range segs {
		sub = be.AppendUint16(sub, uint16(s.end))
	}
	sub = be.AppendUint16(sub, 0) // reservedPad
	for _, s := range segs {
		sub = be.AppendUint16(sub, uint16(s.start))
	}
	for _, s := range segs {
		sub = be.AppendUint16(sub, uint16(s.delta))
	}
	for range segs {
		sub = be.AppendUint16(sub, 0) // idRangeOffset
	}
	out := []byte{0, 0, 0, 1, 0, 3, 0, 1, 0, 0, 0, 12}
	return append(out, sub...)
}

// writeFont lays out the tables (sorted by tag, 4-byte aligned) with their
// directory and checksums, and sets head's checkSumAdjustment.
func writeFont(tabs []table) []byte {
	sort.Slice(tabs, func(i, j int) bool { return tabs[i].tag < tabs[j].tag })
	n := len(tabs)
	searchRange, entrySelector := 1, 0
	for searchRange*2 <= n {
		searchRange *= 2
		entrySelector++
	}
	searchRange *= 16
	be := binary.BigEndian
	out := be.AppendUint32(nil, 0x00010000)
	out = be.AppendUint16(out, uint16(n))
	out = be.AppendUint16(out, uint16(searchRange))
	out = be.AppendUint16(out, uint16(entrySelector))
	out = be.AppendUint16(out, uint16(16*n-searchRange))
	off := 12 + 16*n
	headAt := -1
	for _, t := range tabs {
		out = append(out, t.tag...)
		out = be.AppendUint32(out, checksum(t.data))
		out = be.AppendUint32(out, uint32(off))
		out = be.AppendUint32(out, uint32(len(t.data)))
		off += (len(t.data) + 3) &^ 3
	}
	for _, t := range tabs {
		if t.tag == "head" {
			headAt = len(out)
		}
		out = append(out, t.data...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	if headAt >= 0 {
		be.PutUint32(out[headAt+8:], 0xB1B0AFBA-checksum(out))
	}
	return out
}

// checksum is the OpenType table checksum: the sum of big-endian uint32s,
// the last one zero-padded.
func checksum(b []byte) uint32 {
	var s uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		s += u32(w[:])
	}
	return s
}
