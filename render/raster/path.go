package raster

import "math"

// vec is a point in device pixels. Geometry is worked out in float64 and
// handed to the rasteriser (float32) only at the end.
type vec struct{ x, y float64 }

func (a vec) add(b vec) vec       { return vec{a.x + b.x, a.y + b.y} }
func (a vec) sub(b vec) vec       { return vec{a.x - b.x, a.y - b.y} }
func (a vec) mul(k float64) vec   { return vec{a.x * k, a.y * k} }
func (a vec) dot(b vec) float64   { return a.x*b.x + a.y*b.y }
func (a vec) cross(b vec) float64 { return a.x*b.y - a.y*b.x }
func (a vec) normal() vec         { return vec{-a.y, a.x} }
func (a vec) unit() (vec, bool)   { n := math.Hypot(a.x, a.y); return a.mul(1 / n), n > 0 }
func polar(r, angle float64) vec  { return vec{r * math.Cos(angle), r * math.Sin(angle)} }

// path is a set of closed contours that are rasterised together as one
// shape. x/image/vector adds up signed coverage and takes its absolute
// value, clamped to one: contours wound the same way therefore unite
// without double-painting where they overlap (the pieces of a stroke, its
// joins), and a contour wound the other way cuts a hole (a ring). Every
// contour goes in through add, which fixes its winding.
type path struct {
	pts  []vec
	ends []int // end index in pts of each contour
}

func (p *path) reset() { p.pts, p.ends = p.pts[:0], p.ends[:0] }

// add appends a closed contour, wound for a solid (sign > 0) or a hole
// (sign < 0).
func (p *path) add(c []vec, sign int) {
	if len(c) < 3 {
		return
	}
	area := 0.0
	for i, a := range c {
		area += a.cross(c[(i+1)%len(c)])
	}
	if area == 0 {
		return
	}
	start := len(p.pts)
	p.pts = append(p.pts, c...)
	if (area > 0) != (sign > 0) {
		s := p.pts[start:]
		for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
			s[i], s[j] = s[j], s[i]
		}
	}
	p.ends = append(p.ends, len(p.pts))
}

func (p *path) polygon(c []vec, sign int) { p.add(c, sign) }

// segment adds a stroke of half-width h from a to b with butt ends, each
// end carried on by h when its ext flag is set (a square end, used where a
// dashed rectangle's edge meets a corner).
func (p *path) segment(a, b vec, h float64, extA, extB bool) {
	u, ok := b.sub(a).unit()
	if !ok || !(h > 0) {
		return
	}
	if extA {
		a = a.sub(u.mul(h))
	}
	if extB {
		b = b.add(u.mul(h))
	}
	n := u.normal().mul(h)
	p.add([]vec{a.add(n), b.add(n), b.sub(n), a.sub(n)}, +1)
}

// miterLimit is canvas's default: a join whose miter (from the inner to the
// outer corner) is longer than ten stroke widths becomes a bevel.
const miterLimit = 10

// join fills the outside of the corner at v between the strokes prev→v and
// v→next, with a miter or, past miterLimit, a bevel.
func (p *path) join(prev, v, next vec, h float64) {
	u1, ok1 := v.sub(prev).unit()
	u2, ok2 := next.sub(v).unit()
	if !ok1 || !ok2 || !(h > 0) {
		return
	}
	cross := u1.cross(u2)
	if math.Abs(cross) < 1e-9 {
		// Straight on needs nothing; a full reversal has no outside.
		return
	}
	side := 1.0
	if cross > 0 {
		side = -1
	}
	n1, n2 := u1.normal().mul(side), u2.normal().mul(side)
	p1, p2 := v.add(n1.mul(h)), v.add(n2.mul(h))
	d, ok := n1.add(n2).unit()
	cosHalf := d.dot(n1)
	if !ok || !(cosHalf > 1/float64(miterLimit)) {
		p.add([]vec{v, p1, p2}, +1)
		return
	}
	p.add([]vec{v, p1, v.add(d.mul(h / cosHalf)), p2}, +1)
}

// arcSteps is how many chords approximate an arc of the given angle at
// radius r, keeping each chord within 1/50 px of the true circle.
func arcSteps(r, angle float64) int {
	const tol = 0.02
	per := 2 * math.Pi / 8 // at least 8 chords per full turn
	if r > tol {
		per = min(per, 2*math.Acos(1-tol/r))
	}
	return min(max(int(math.Ceil(math.Abs(angle)/per)), 1), 4096)
}

// arc adds the part of the ring between radii inner and outer, from angle
// a0 to a1 (radians, y down: increasing angles turn clockwise on screen).
// inner 0 gives a pie slice, or the whole disc for a full turn.
func (p *path) arc(c vec, outer, inner, a0, a1 float64) {
	full := a1-a0 >= 2*math.Pi-1e-12
	n := arcSteps(outer, a1-a0)
	pts := make([]vec, 0, 2*n+2)
	for i := 0; i <= n; i++ {
		if full && i == n {
			break
		}
		pts = append(pts, c.add(polar(outer, a0+(a1-a0)*float64(i)/float64(n))))
	}
	switch {
	case full:
		p.add(pts, +1)
		if inner > 0 {
			p.ring(c, inner)
		}
		return
	case inner > 0:
		m := arcSteps(inner, a1-a0)
		for i := m; i >= 0; i-- {
			pts = append(pts, c.add(polar(inner, a0+(a1-a0)*float64(i)/float64(m))))
		}
	default:
		pts = append(pts, c)
	}
	p.add(pts, +1)
}

// ring adds a full circle of radius r as a hole.
func (p *path) ring(c vec, r float64) {
	n := arcSteps(r, 2*math.Pi)
	pts := make([]vec, n)
	for i := range pts {
		pts[i] = c.add(polar(r, 2*math.Pi*float64(i)/float64(n)))
	}
	p.add(pts, -1)
}
