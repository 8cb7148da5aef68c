package overlay

// Moment is where a link without t opens (scene.Moment): the first LRU
// eviction, when the picture shows what the scene is about (a full
// shortcut cache closing its least recently used connection, marked and
// named), rather than the end; without an eviction, the first shortcut
// opening; without one, the end.
func (r *run) Moment() float64 {
	switch {
	case len(r.h.evicts) > 0:
		return r.h.evicts[0]
	case len(r.h.opens) > 0:
		return r.h.opens[0]
	}
	return r.End()
}
