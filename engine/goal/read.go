package goal

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"commlab/engine/cost"
	"commlab/internal/errf"
	"commlab/internal/shown"
)

// ReadOptions tune Read.
type ReadOptions struct {
	// Labels keeps every operation's label (Schedule.Label), for display.
	Labels bool
	// SizeHint is the input's size in bytes if known (0 if not): storage
	// is reserved for about one operation per 24 bytes up front, which
	// avoids copying while a huge schedule grows. Untouched reserve costs
	// address space, not memory.
	SizeHint int64
	// Limits bound the text read and the memory the schedule holds,
	// counted as the text streams in: an input past them is a
	// *LimitError (a pipe or a device, whose size is not known before).
	Limits Limits
}

// SyntaxError is a position in a GOAL file and what is wrong there.
type SyntaxError struct {
	File   string
	Line   int
	Column int // in bytes, from 1
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// fastPath switches parser.fastLine on; tests compare both paths.
var fastPath = true

// maxLine bounds one line of GOAL text.
const maxLine = 1 << 20

// Read parses GOAL text from r, as LogGOPSim's txt2bin accepts it, into a
// Schedule. name is the file name errors carry. The text is read through
// a buffer a line at a time; nothing holds more than the current line.
//
// The grammar (txt2bin.re): a statement per line; "num_ranks N"; "rank N
// {" ... "}" blocks, in rank order; operations, optionally labelled
// ("l1: "): "send Nb to P [tag T] [cpu C] [nic I]", "recv Nb from P|-1
// [tag T|-1] [cpu C] [nic I]", "calc N [cpu C]"; dependencies "a requires
// b" and "a irequires b" on labels defined earlier in the same rank;
// comments "// ..." and "/* ... */" where a statement may start. Where
// txt2bin is silent or lenient this reader refuses, with the position:
// numbers beyond their field (LogGOPSim truncates cpu and nic to 8 bits),
// peers outside [0, num_ranks), a label defined twice (txt2bin keeps the
// first), "rank" before "num_ranks", text after the last rank (txt2bin
// stops reading), and dependency cycles (LogGOPSim would never run them).
func Read(r io.Reader, name string, opt ReadOptions) (*Schedule, error) {
	// The buffer holds the longest line allowed, or the whole text when it
	// is in memory and shorter: a megabyte allocated per small schedule
	// was most of the time of reading one (and of each fuzzing run).
	size := maxLine
	if l, ok := r.(interface{ Len() int }); ok {
		size = min(size, max(16, l.Len()+1))
	}
	p := &parser{name: name, in: bufio.NewReaderSize(opt.Limits.reader(r), size), opt: opt}
	if b, _ := p.in.Peek(3); string(b) == "\uFEFF" { // a UTF-8 byte-order mark
		p.in.Discard(3)
	}
	return p.run()
}

type parser struct {
	name string
	in   *bufio.Reader
	opt  ReadOptions
	line int
	buf  []byte
	pos  int

	b        *Builder
	numRanks int
	rank     int // open rank block, -1 none
	done     bool
	comment  bool // inside /* */
	// labels of the open rank: l<n> in numeric (local op + 1), others in named
	numeric []uint32
	touched []uint32
	named   map[string]uint32
	first   uint32 // global index of the rank's first op
	err     error
}

func (p *parser) fail(col int, format string, args ...any) {
	if p.err == nil {
		p.err = &SyntaxError{File: p.name, Line: p.line, Column: col + 1, Msg: fmt.Sprintf(format, args...)}
	}
}

func (p *parser) run() (*Schedule, error) {
	p.rank = -1
	for p.err == nil {
		line, err := p.in.ReadSlice('\n')
		if err != nil && errors.Is(err, errTextLimit) {
			return nil, &LimitError{Input: p.name, What: "text", Limit: float64(p.opt.Limits.Bytes), Line: p.line + 1, By: p.opt.Limits.By, Seconds: p.opt.Limits.Seconds}
		}
		if p.line&memCheckLines == 0 && p.opt.Limits.Memory > 0 && p.b != nil {
			if err := p.checkMemory(); err != nil {
				return nil, err
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			p.line++
			p.fail(0, "line longer than %d bytes", maxLine)
			break
		}
		if len(line) == 0 && err != nil {
			if err != io.EOF {
				return nil, errf.Errorf("%s: %w", p.name, err)
			}
			break
		}
		p.line++
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
		}
		p.buf, p.pos = line, 0
		if !fastPath || !p.fastLine(line) {
			p.statementLine()
		}
		if err != nil && err != io.EOF {
			return nil, errf.Errorf("%s: %w", p.name, err)
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	// what the end of the file lacks is reported at the end of its last
	// line
	p.pos = len(p.buf)
	switch {
	case p.comment:
		p.fail(p.pos, "unterminated /* comment")
	case p.b == nil && p.line == 0:
		p.line = 1
		p.fail(0, `empty file: want "num_ranks N" and N rank blocks`)
	case p.b == nil:
		p.fail(p.pos, "no num_ranks and no rank blocks")
	case p.rank >= 0:
		p.fail(p.pos, "end of file inside rank %d's block: missing }", p.rank)
	case !p.done:
		p.fail(p.pos, "%s", missingRanks(p.numRanks, p.b.next))
	}
	if p.err != nil {
		return nil, p.err
	}
	if p.opt.Limits.Memory > 0 {
		if err := p.checkMemory(); err != nil {
			return nil, err
		}
	}
	return p.b.Schedule()
}

// memCheckLines + 1 is how many lines pass between the reader's checks
// of its memory: at most a few MB of schedule.
const memCheckLines = 1<<12 - 1

// checkMemory refuses a schedule whose memory, with its arrays' next
// growth (each at most doubles), would pass the limit.
func (p *parser) checkMemory() error {
	held := p.b.footprint() + 4*float64(cap(p.numeric)+cap(p.touched)) + namedBytes*float64(len(p.named)) + float64(p.in.Size())
	if 2*held <= p.opt.Limits.Memory {
		return nil
	}
	s := &p.b.s
	return &LimitError{Input: p.name, What: "memory", Limit: p.opt.Limits.Memory, Line: p.line, By: p.opt.Limits.By,
		Why: fmt.Sprintf("%s operations and %s dependencies in %s, and as much again as its arrays grow", cost.Num(float64(len(s.ops))), cost.Num(float64(len(s.succ)+len(p.b.edges))), cost.Bytes(held))}
}

// namedBytes is what a label kept in the reader's map of names costs.
const namedBytes = 64

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isIdent(c byte) bool  { return isLetter(c) || isDigit(c) || c == '_' }

func (p *parser) ws() {
	for p.pos < len(p.buf) && (p.buf[p.pos] == ' ' || p.buf[p.pos] == '\t') {
		p.pos++
	}
}

// prefix consumes kw if the text continues with it (re2c's keywords in
// the states after the first token match as prefixes).
func (p *parser) prefix(kw string) bool {
	if len(p.buf)-p.pos >= len(kw) && string(p.buf[p.pos:p.pos+len(kw)]) == kw {
		p.pos += len(kw)
		return true
	}
	return false
}

func (p *parser) ident() []byte {
	s := p.pos
	if p.pos < len(p.buf) && isLetter(p.buf[p.pos]) {
		p.pos++
		for p.pos < len(p.buf) && isIdent(p.buf[p.pos]) {
			p.pos++
		}
	}
	return p.buf[s:p.pos]
}

// number reads [0-9]+ into a value ≤ limit; what names the field.
func (p *parser) number(what string, limit uint64) (uint64, bool) {
	return p.numberIn(what, 0, limit)
}

// numberIn reads [0-9]+ into a value in [lo, hi]; what names the field.
func (p *parser) numberIn(what string, lo, limit uint64) (uint64, bool) {
	for p.pos < len(p.buf) && (p.buf[p.pos] == ' ' || p.buf[p.pos] == '\t') {
		p.pos++
	}
	s := p.pos
	var v uint64
	for p.pos < len(p.buf) {
		d := p.buf[p.pos] - '0'
		if d > 9 {
			break
		}
		v = v*10 + uint64(d)
		p.pos++
	}
	n := p.pos - s
	if n == 0 {
		p.fail(s, "expected %s (an integer), found %s", what, p.found(s))
		return 0, false
	}
	if n > 19 { // may have wrapped: check exactly
		u, err := strconv.ParseUint(string(p.buf[s:p.pos]), 10, 64)
		if err != nil {
			p.fail(s, "%s %s out of range: want an integer in [%d, %d]", what, shown.Cut(string(p.buf[s:p.pos])), lo, limit)
			return 0, false
		}
		v = u
	}
	if v < lo || v > limit {
		p.fail(s, "%s %s out of range: want an integer in [%d, %d]", what, shown.Cut(string(p.buf[s:p.pos])), lo, limit)
		return 0, false
	}
	return v, true
}

// found quotes what stands at byte at: the character (a UTF-8 one
// whole, as the file has it), or a byte that is not UTF-8 as an escape
// ("\xc3"), never one byte read as a Latin-1 character.
func (p *parser) found(at int) string {
	if at >= len(p.buf) {
		return "end of line"
	}
	_, n := utf8.DecodeRune(p.buf[at:])
	return strconv.Quote(string(p.buf[at : at+n]))
}

// missingRanks says that a file of numRanks ranks ended with next of
// them given.
func missingRanks(numRanks, next int) string {
	if next == 0 {
		return fmt.Sprintf("num_ranks is %d but the file has no rank blocks", numRanks)
	}
	return fmt.Sprintf("num_ranks is %d but the file ends after rank %d (ranks %d to %d are missing)", numRanks, next-1, next, numRanks-1)
}

// endOfStatement accepts trailing blanks and the line's end.
func (p *parser) endOfStatement(expect string) bool {
	p.ws()
	if p.pos < len(p.buf) {
		p.fail(p.pos, "expected %s, found %s", expect, p.found(p.pos))
		return false
	}
	return true
}

func (p *parser) statementLine() {
	for p.err == nil {
		if p.comment {
			i := indexOf(p.buf[p.pos:], "*/")
			if i < 0 {
				return
			}
			p.pos += i + 2
			p.comment = false
		}
		p.ws()
		if p.pos >= len(p.buf) {
			return
		}
		start := p.pos
		c := p.buf[p.pos]
		switch {
		case c == '/' && p.pos+1 < len(p.buf) && p.buf[p.pos+1] == '/':
			return
		case c == '/' && p.pos+1 < len(p.buf) && p.buf[p.pos+1] == '*':
			p.pos += 2
			p.comment = true
			continue
		case c == '}':
			p.pos++
			p.closeRank(start)
			continue
		case isLetter(c):
		default:
			p.fail(start, `expected "rank", "num_ranks", "calc", "send", "recv", a label, "}" or a comment, found %s`, p.found(start))
			return
		}
		id := p.ident()
		switch string(id) {
		case "num_ranks":
			p.numRanksStmt(start)
			continue
		case "rank":
			p.openRank(start)
			continue
		case "send", "recv", "calc":
			p.operation(start, kindOf(id), nil)
			return
		}
		p.ws()
		switch {
		case p.prefix(":"):
			p.ws()
			s := p.pos
			var k Kind
			switch {
			case p.prefix("send"):
				k = Send
			case p.prefix("recv"):
				k = Recv
			case p.prefix("calc"):
				k = Calc
			default:
				p.fail(s, `expected "calc", "send" or "recv", found %s`, p.found(s))
				return
			}
			p.operation(s, k, id)
		case p.prefix("requires"):
			p.dependency(start, id, false)
		case p.prefix("irequires"):
			p.dependency(start, id, true)
		default:
			p.fail(p.pos, `expected ":", "requires" or "irequires" after label %q, found %s`, shown.Cut(string(id)), p.found(p.pos))
		}
		return
	}
}

func indexOf(b []byte, s string) int {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return i
		}
	}
	return -1
}

func kindOf(id []byte) Kind {
	switch string(id) {
	case "send":
		return Send
	case "recv":
		return Recv
	}
	return Calc
}

func (p *parser) numRanksStmt(start int) {
	if p.b != nil {
		p.fail(start, "num_ranks given twice")
		return
	}
	v, ok := p.numberIn("num_ranks", 1, MaxRanks)
	if !ok {
		return
	}
	p.numRanks = int(v)
	hint := 0
	if p.opt.SizeHint > 0 {
		hint = int(min(p.opt.SizeHint/24, MaxOps))
	}
	p.b = NewBuilder(p.numRanks, p.opt.Labels, hint)
}

func (p *parser) openRank(start int) {
	switch {
	case p.b == nil:
		p.fail(start, "rank block before num_ranks")
		return
	case p.rank >= 0:
		p.fail(start, "rank block inside rank %d's block (missing })", p.rank)
		return
	case p.done:
		p.fail(start, "rank block after the last rank (num_ranks is %d)", p.numRanks)
		return
	}
	s := p.pos
	v, ok := p.number("rank", uint64(p.numRanks-1))
	if !ok {
		return
	}
	p.ws()
	if !p.prefix("{") {
		p.fail(p.pos, `expected "{", found %s`, p.found(p.pos))
		return
	}
	if err := p.b.StartRank(int(v)); err != nil {
		p.fail(s, "%v", err)
		return
	}
	p.rank = int(v)
	p.first = uint32(p.b.s.rankStart[len(p.b.s.rankStart)-1])
	for _, t := range p.touched {
		p.numeric[t] = 0
	}
	p.touched = p.touched[:0]
	clear(p.named)
}

func (p *parser) closeRank(start int) {
	if p.rank < 0 {
		p.fail(start, "} without an open rank block")
		return
	}
	p.b.nameOf = p.localNames
	if err := p.b.EndRank(); err != nil {
		p.fail(start, "%v", err)
		return
	}
	if p.rank == p.numRanks-1 {
		p.done = true
	}
	p.rank = -1
}

// localNames finds the labels of the open rank's local ops, for a cycle
// error: one pass over the rank's labels, however many.
func (p *parser) localNames(locals []uint32) []string {
	want := make(map[uint32]string, len(locals))
	for _, i := range locals {
		want[i+1] = ""
	}
	for n, v := range p.numeric {
		if _, ok := want[v]; ok && v != 0 && want[v] == "" {
			want[v] = "l" + strconv.Itoa(n)
		}
	}
	for n, v := range p.named {
		if _, ok := want[v]; ok && want[v] == "" {
			want[v] = n
		}
	}
	out := make([]string, len(locals))
	for k, i := range locals {
		if out[k] = want[i+1]; out[k] == "" {
			out[k] = fmt.Sprintf("unlabelled op %d", i)
		}
	}
	return out
}

// maxNumericLabel bounds the l<n> labels kept in a slice; others go to a map.
const maxNumericLabel = 1 << 22

func numericLabel(id []byte) (int, bool) {
	if len(id) < 2 || len(id) > 8 || id[0] != 'l' || (id[1] == '0' && len(id) > 2) {
		return 0, false
	}
	n := 0
	for _, c := range id[1:] {
		if !isDigit(c) {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n < maxNumericLabel
}

func (p *parser) lookup(id []byte) (uint32, bool) {
	if n, ok := numericLabel(id); ok {
		if n < len(p.numeric) && p.numeric[n] != 0 {
			return p.numeric[n] - 1, true
		}
		return 0, false
	}
	v, ok := p.named[string(id)]
	return v - 1, ok
}

func (p *parser) define(col int, id []byte, local uint32) {
	if _, dup := p.lookup(id); dup {
		p.fail(col, "label %s defined twice in rank %d", shown.Cut(string(id)), p.rank)
		return
	}
	if n, ok := numericLabel(id); ok {
		p.setNumeric(n, local)
		return
	}
	if p.named == nil {
		p.named = map[string]uint32{}
	}
	p.named[string(id)] = local + 1
}

func (p *parser) operation(start int, k Kind, label []byte) {
	if p.rank < 0 {
		p.fail(start, "%s outside a rank block", k)
		return
	}
	var size uint64
	var peer, tag uint32
	var cpu, nic uint64
	ok := true
	if k == Calc {
		size, ok = p.number("calc duration", math.MaxUint64)
		if !ok {
			return
		}
		p.ws()
		if p.prefix("cpu") {
			if cpu, ok = p.number("cpu", math.MaxUint8); !ok {
				return
			}
		}
		if !p.endOfStatement(`"cpu" or the end of the line`) {
			return
		}
	} else {
		if size, ok = p.number("size", math.MaxUint64); !ok {
			return
		}
		p.ws()
		if !p.prefix("b") {
			p.fail(p.pos, `expected "b" after the size, found %s`, p.found(p.pos))
			return
		}
		p.ws()
		dir := "to"
		if k == Recv {
			dir = "from"
		}
		if !p.prefix(dir) {
			p.fail(p.pos, "expected %q, found %s", dir, p.found(p.pos))
			return
		}
		p.ws()
		s := p.pos
		if k == Recv && p.prefix("-1") {
			peer = Any
		} else {
			v, ok := p.number("peer", math.MaxUint32-1)
			if !ok {
				return
			}
			if v >= uint64(p.numRanks) {
				p.fail(s, "peer %d out of range: want a rank in [0, %d)%s", v, p.numRanks, map[bool]string{true: " or -1 for any source"}[k == Recv])
				return
			}
			peer = uint32(v)
		}
		p.ws()
		if p.prefix("tag") {
			p.ws()
			if p.prefix("-1") {
				tag = Any
			} else {
				v, ok := p.number("tag", math.MaxUint32)
				if !ok {
					return
				}
				tag = uint32(v)
			}
			p.ws()
		}
		if p.prefix("cpu") {
			if cpu, ok = p.number("cpu", math.MaxUint8); !ok {
				return
			}
			p.ws()
		}
		if p.prefix("nic") {
			if nic, ok = p.number("nic", math.MaxUint8); !ok {
				return
			}
		}
		if !p.endOfStatement(`"tag", "cpu", "nic" or the end of the line (in that order)`) {
			return
		}
	}
	var id OpID
	lab := ""
	if p.opt.Labels && label != nil {
		lab = string(label)
	}
	switch k {
	case Send:
		id = p.b.Send(size, peer, tag, uint8(cpu), uint8(nic), lab)
	case Recv:
		id = p.b.Recv(size, peer, tag, uint8(cpu), uint8(nic), lab)
	default:
		id = p.b.Calc(size, uint8(cpu), lab)
	}
	if err := p.b.Err(); err != nil {
		p.fail(start, "%v", err)
		return
	}
	if label != nil {
		p.define(0, label, uint32(id)-p.first)
	}
}

func (p *parser) dependency(start int, a []byte, start2 bool) {
	if p.rank < 0 {
		p.fail(start, "dependency outside a rank block")
		return
	}
	p.ws()
	s := p.pos
	c := p.ident()
	if len(c) == 0 {
		p.fail(s, "expected a label, found %s", p.found(s))
		return
	}
	if !p.endOfStatement("the end of the line") {
		return
	}
	ai, ok := p.lookup(a)
	if !ok {
		p.fail(start, "label %s is not defined (yet) in rank %d", shown.Cut(string(a)), p.rank)
		return
	}
	ci, ok := p.lookup(c)
	if !ok {
		p.fail(s, "label %s is not defined (yet) in rank %d", shown.Cut(string(c)), p.rank)
		return
	}
	if start2 {
		p.b.IRequires(OpID(p.first+ai), OpID(p.first+ci))
	} else {
		p.b.Requires(OpID(p.first+ai), OpID(p.first+ci))
	}
}
