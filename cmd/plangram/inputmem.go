package main

import (
	"io"
	"os"
	"sync"

	"github.com/plangram/plangram/internal/anonmem"
	"github.com/plangram/plangram/internal/readall"
)

// inputArena reads the files `plangram check` checks. Each file is read
// once, into one buffer of its exact size; on systems with anonymous
// memory maps (internal/anonmem) a file of at least minArenaFile bytes is
// read into memory mapped for it rather than into the garbage-collected
// heap. The garbage collector's heap goal is twice the live heap (GOGC
// 100): an input held on the heap is counted there and doubles with it,
// while the tree check builds is garbage a moment after it is read
// (grammar.Options.OnAction). Outside the heap, the input is resident once
// and the heap holds only what check builds, so peak memory stays near
// the input plus a few MiB (docs/benchmarks.md, "check memory"). The
// buffers live until release, which the command calls once its report is
// written; nothing may use them after that.
type inputArena struct {
	mu   sync.Mutex
	maps [][]byte // buffers to unmap on release
}

// minArenaFile is the size from which a file is read outside the heap:
// smaller ones are not worth a map of their own (`check DIR` reads many).
const minArenaFile = 1 << 20

// read returns the content of the file name, as os.ReadFile does.
func (a *inputArena) read(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if !st.Mode().IsRegular() || size < minArenaFile || int64(int(size)) != size {
		return readall.Read(f)
	}
	buf, err := anonmem.Map(int(size))
	if err != nil { // no map: read it onto the heap as readall.File would
		return readall.Read(f)
	}
	readall.AdviseHuge(buf) // fewer page faults while reading (readall)
	n, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF { // the file shrank since Stat
		err = nil
	}
	if err == nil && n == len(buf) {
		// The file may have grown since Stat: what follows is read too,
		// onto the heap, with the mapped part copied (rare; no byte is lost).
		var more [1]byte
		if m, _ := f.Read(more[:]); m > 0 {
			out := append(append(make([]byte, 0, n+1+4096), buf...), more[0])
			_ = anonmem.Unmap(buf)
			return readall.AppendRest(f, out)
		}
	}
	if err != nil {
		_ = anonmem.Unmap(buf)
		return nil, err
	}
	a.mu.Lock()
	a.maps = append(a.maps, buf)
	a.mu.Unlock()
	return buf[:n:n], nil
}

// release frees the buffers read so far.
func (a *inputArena) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, b := range a.maps {
		_ = anonmem.Unmap(b)
	}
	a.maps = nil
}
