package workspace

import "github.com/plangram/plangram/internal/anonmem"

// offHeap hands out zeroed memory for the overlay's chunks, which hold no
// pointers. Where the system has anonymous memory maps (mem_mmap.go) the
// memory is mapped outside the garbage-collected heap: the collector's
// heap goal is twice the live heap (GOGC 100), so state that lives until
// the check ends costs twice its size on the heap and once outside it.
// Elsewhere, and when a map fails,
// it is allocated on the heap. free gives back what it mapped; nothing may
// use the memory after it.
type offHeap struct {
	maps [][]byte
}

// alloc returns n zeroed bytes.
func (m *offHeap) alloc(n int) []byte {
	if b, err := anonmem.Map(n); err == nil {
		m.maps = append(m.maps, b)
		return b
	}
	return make([]byte, n)
}

// release frees b, from alloc, at once when it was mapped.
func (m *offHeap) release(b []byte) {
	for i, x := range m.maps {
		if len(x) > 0 && len(b) > 0 && &x[0] == &b[0] {
			_ = anonmem.Unmap(x)
			m.maps[i] = m.maps[len(m.maps)-1]
			m.maps = m.maps[:len(m.maps)-1]
			return
		}
	}
}

// free gives back everything alloc mapped.
func (m *offHeap) free() {
	for _, b := range m.maps {
		_ = anonmem.Unmap(b)
	}
	m.maps = nil
}
