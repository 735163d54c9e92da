package workspace

import "slices"

// lineDelta is the part of a line index (the substring index, subIdx, and
// the short index, shortIdx) that holds the lines filed since its static
// part was built: under each key, the id of its one line, or listBit|i for
// lists[i] once a second line comes. Both indexes keep their own static
// part and decide themselves when to rebuild, from deltaBytes.
type lineDelta[K comparable] struct {
	delta      map[K]uint32
	lists      []gramLines
	free       []uint32 // unused entries of lists
	deltaBytes int      // about what the delta holds
	one        int      // the bytes a key with one line costs
}

// newLineDelta returns an empty delta whose keys cost one bytes each with
// one line.
func newLineDelta[K comparable](one int) lineDelta[K] {
	return lineDelta[K]{delta: map[K]uint32{}, one: one}
}

// file files line id under key k.
func (d *lineDelta[K]) file(k K, id uint32) {
	v, ok := d.delta[k]
	switch {
	case !ok:
		d.delta[k] = id
		d.deltaBytes += d.one
	case v&listBit == 0: // a second line: a list
		i := uint32(len(d.lists))
		if n := len(d.free); n > 0 {
			i, d.free = d.free[n-1], d.free[:n-1]
		} else {
			d.lists = append(d.lists, gramLines{})
		}
		d.lists[i] = gramLines{ids: []uint32{v, id}}
		d.delta[k] = i | listBit
		d.deltaBytes += 64
	default:
		l := &d.lists[v&^listBit]
		l.ids = append(l.ids, id)
		d.deltaBytes += 4
	}
}

// unfile marks line id, filed under k, as removed (gone reports the
// removed ids), dropping a key whose lines are all gone and compacting a
// list once half of it is dead. It returns the ids it read doing so (the
// work, for the linear-time tests).
func (d *lineDelta[K]) unfile(k K, id uint32, gone func(uint32) bool) int {
	v, ok := d.delta[k]
	switch {
	case !ok:
	case v&listBit == 0:
		if v == id {
			delete(d.delta, k)
		}
	default:
		l := &d.lists[v&^listBit]
		l.dead++
		switch {
		case l.live() == 0:
			*l = gramLines{}
			d.free = append(d.free, v&^listBit)
			delete(d.delta, k)
		case 2*int(l.dead) > len(l.ids):
			work := len(l.ids)
			l.ids = slices.DeleteFunc(l.ids, gone)
			l.dead = 0
			return work
		}
	}
	return 0
}

// deltaLines returns the number of live lines filed under k and calls each
// (if not nil) with them; byID maps line ids to lines (nil: removed).
func (d *lineDelta[K]) deltaLines(k K, byID []*lnode, each func(*lnode)) int {
	v, ok := d.delta[k]
	switch {
	case !ok:
		return 0
	case v&listBit == 0:
		x := byID[v]
		if x == nil {
			return 0
		}
		if each != nil {
			each(x)
		}
		return 1
	}
	l := d.lists[v&^listBit]
	if each != nil {
		for _, id := range l.ids {
			if x := byID[id]; x != nil {
				each(x)
			}
		}
	}
	return l.live()
}
