package goal

// fastLine parses the lines Schedgen (and Writer) write, in their exact
// spelling, in one pass: "l<n>: send <s>b to <p> tag <t>", the same with
// recv/from, "l<n>: calc <d>" and "l<n> requires l<m>". Anything else,
// including every error, returns false and the general parser takes the
// line from its start, so the fast path changes speed, never results.
func (p *parser) fastLine(b []byte) bool {
	if p.rank < 0 || p.comment || len(b) < 4 || b[0] != 'l' {
		return false
	}
	lab, i, ok := fastNum(b, 1)
	if !ok || i > 8 || (b[1] == '0' && i > 2) || i >= len(b) || lab >= maxNumericLabel {
		return false
	}
	if b[i] == ' ' {
		const req = " requires l"
		if len(b)-i < len(req)+1 || string(b[i:i+len(req)]) != req {
			return false
		}
		j := i + len(req)
		m, end, ok := fastNum(b, j)
		if !ok || end != len(b) || end-j > 7 || (b[j] == '0' && end-j > 1) {
			return false
		}
		a, okA := p.numericOp(int(lab))
		c, okC := p.numericOp(int(m))
		if !okA || !okC {
			return false
		}
		p.b.Requires(OpID(p.first+a), OpID(p.first+c))
		return true
	}
	if b[i] != ':' || len(b)-i < 8 || b[i+1] != ' ' {
		return false
	}
	if _, dup := p.numericOp(int(lab)); dup {
		return false
	}
	j := i + 2
	var k Kind
	switch string(b[j : j+5]) {
	case "send ":
		k = Send
	case "recv ":
		k = Recv
	case "calc ":
		k = Calc
	default:
		return false
	}
	size, j, ok := fastNum(b, j+5)
	if !ok {
		return false
	}
	var id OpID
	if k == Calc {
		if j != len(b) {
			return false
		}
		id = p.b.Calc(size, 0, p.keep(b[:i]))
	} else {
		kw := "b to "
		if k == Recv {
			kw = "b from "
		}
		if len(b)-j < len(kw) || string(b[j:j+len(kw)]) != kw {
			return false
		}
		peer, e, ok := fastNum(b, j+len(kw))
		if !ok || peer >= uint64(p.numRanks) || len(b)-e < 6 || string(b[e:e+5]) != " tag " {
			return false
		}
		tag, e2, ok := fastNum(b, e+5)
		if !ok || e2 != len(b) || tag >= Any {
			return false
		}
		if k == Send {
			id = p.b.Send(size, uint32(peer), uint32(tag), 0, 0, p.keep(b[:i]))
		} else {
			id = p.b.Recv(size, uint32(peer), uint32(tag), 0, 0, p.keep(b[:i]))
		}
	}
	if err := p.b.Err(); err != nil {
		p.fail(0, "%v", err)
		return true
	}
	p.setNumeric(int(lab), uint32(id)-p.first)
	return true
}

// fastNum reads up to 19 digits at b[i:]: no overflow possible.
func fastNum(b []byte, i int) (v uint64, end int, ok bool) {
	s := i
	for i < len(b) {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		v = v*10 + uint64(d)
		i++
	}
	return v, i, i > s && i-s <= 19
}

func (p *parser) numericOp(n int) (uint32, bool) {
	if n < len(p.numeric) && p.numeric[n] != 0 {
		return p.numeric[n] - 1, true
	}
	return 0, false
}

func (p *parser) setNumeric(n int, local uint32) {
	if n >= len(p.numeric) {
		p.numeric = append(p.numeric, make([]uint32, n+1-len(p.numeric)+len(p.numeric)/2)...)
	}
	p.numeric[n] = local + 1
	p.touched = append(p.touched, uint32(n))
}

func (p *parser) keep(label []byte) string {
	if !p.opt.Labels {
		return ""
	}
	return string(label)
}
