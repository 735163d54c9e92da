package main

import (
	"io"
	"os"
	"sync"

	"github.com/plangram/plangram/internal/readall"
)

// inputArena reads the files `plangram check` checks. Each file is read
// once, into one buffer of its exact size; on systems with anonymous
// memory maps (inputmem_mmap.go) a file of at least minArenaFile bytes is
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
	return a.readOpen(f, int(size))
}

// readOpen reads the open regular file f, of size bytes from its offset,
// into a buffer mapped for it (read).
func (a *inputArena) readOpen(f *os.File, size int) ([]byte, error) {
	buf, err := mapAnon(size)
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
			_ = unmapAnon(buf)
			return readall.AppendRest(f, out)
		}
	}
	if err != nil {
		_ = unmapAnon(buf)
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
		_ = unmapAnon(b)
	}
	a.maps = nil
}

// streamChunk is the size of the pieces readStream reads a large stream
// of unknown size into before it joins them.
const streamChunk = 4 << 20

// readStream reads r (standard input) to its end, as io.ReadAll does, but
// a large input outside the heap as read does for a file: a regular file
// given as standard input (`check - < plan.md`) is read as a file; a pipe,
// whose size is unknown, is read onto the heap up to minArenaFile bytes,
// then in mapped pieces of streamChunk bytes, which are copied into one
// mapped buffer of the exact size and freed one by one, so the input is
// resident about once (plus one piece) and never counted in the heap
// (TestCheckPeakMemory's stdin case). Without memory maps it is read onto
// the heap.
func (a *inputArena) readStream(r io.Reader) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if off, err := f.Seek(0, io.SeekCurrent); err == nil && st.Size()-off >= minArenaFile && int64(int(st.Size()-off)) == st.Size()-off {
				return a.readOpen(f, int(st.Size()-off))
			}
		}
	}
	head := make([]byte, minArenaFile+1)
	n, err := io.ReadFull(r, head)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return head[:n:n], nil
	}
	if err != nil {
		return nil, err
	}
	var pieces [][]byte
	free := func() {
		for _, p := range pieces {
			_ = unmapAnon(p[:cap(p)])
		}
	}
	total := len(head)
	for {
		p, err := mapAnon(streamChunk)
		if err != nil { // no maps: the rest onto the heap
			out := make([]byte, 0, total+streamChunk)
			out = append(out, head...)
			for _, p := range pieces {
				out = append(out, p...)
			}
			free()
			rest, err := io.ReadAll(r)
			return append(out, rest...), err
		}
		readall.AdviseHuge(p)
		m, err := io.ReadFull(r, p)
		pieces = append(pieces, p[:m])
		total += m
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			free()
			return nil, err
		}
	}
	buf, err := mapAnon(total)
	if err != nil {
		out := make([]byte, 0, total)
		out = append(out, head...)
		for _, p := range pieces {
			out = append(out, p...)
		}
		free()
		return out, nil
	}
	readall.AdviseHuge(buf)
	k := copy(buf, head)
	for i, p := range pieces {
		k += copy(buf[k:], p)
		_ = unmapAnon(p[:cap(p)])
		pieces[i] = nil
	}
	a.mu.Lock()
	a.maps = append(a.maps, buf)
	a.mu.Unlock()
	return buf[:total:total], nil
}
