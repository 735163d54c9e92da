package startpages

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// Release gives back the executable's clean read-only pages (see the
// package doc). It is best effort: where /proc cannot be read it does
// nothing, and it never fails.
func Release() Released {
	var r Released
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return r
	}
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return r
	}
	for _, m := range parseSmaps(data) {
		if m.path != exe || !m.cleanReadOnly() {
			continue
		}
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, syscall.MADV_DONTNEED); errno != 0 {
			continue
		}
		r.Mappings++
		r.KiB += m.rss
	}
	return r
}

// mapping is one mapping of /proc/self/smaps, with the fields Release
// looks at.
type mapping struct {
	start, end uintptr
	perms      string
	path       string
	// rss is its Rss; anon its Anonymous plus Swap, the pages that are
	// not the file's (copies on write, resident or swapped out), in KiB.
	// The dirty pages of the page cache (a file just written) are the
	// file's.
	rss, anon int
}

// cleanReadOnly reports whether every resident page of m is the file's own
// and stays so: a private mapping that is not writable and holds no
// anonymous (copy-on-write) page, resident or swapped out.
func (m mapping) cleanReadOnly() bool {
	return len(m.perms) == 4 && m.perms[1] == '-' && m.perms[3] == 'p' &&
		m.anon == 0 && m.end > m.start
}

// parseSmaps reads the mappings of a /proc/PID/smaps text. A mapping
// whose header or fields cannot be read is returned as not clean (anon
// set), so that Release leaves it alone.
func parseSmaps(data []byte) []mapping {
	var out []mapping
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if m, ok := header(line); ok {
			out = append(out, m)
			continue
		}
		if len(out) == 0 {
			continue
		}
		m := &out[len(out)-1]
		key, val, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		var dst *int
		switch string(key) {
		case "Rss":
			dst = &m.rss
		case "Anonymous":
			dst = &m.anon
		case "Swap":
			dst = &m.anon
		default:
			continue
		}
		f := bytes.Fields(val)
		n, err := strconv.Atoi(string(firstOr(f)))
		if err != nil || n < 0 {
			m.anon = 1 // unreadable: treat as not clean
			continue
		}
		*dst += n
	}
	return out
}

func firstOr(f [][]byte) []byte {
	if len(f) == 0 {
		return nil
	}
	return f[0]
}

// header reads a mapping's first line: "start-end perms offset dev inode
// [path]". Field lines ("Rss:   12 kB") are not headers.
func header(line []byte) (mapping, bool) {
	f := bytes.Fields(line)
	if len(f) < 5 || bytes.HasSuffix(f[0], []byte(":")) {
		return mapping{}, false
	}
	lo, hi, ok := bytes.Cut(f[0], []byte("-"))
	if !ok {
		return mapping{}, false
	}
	a, err1 := strconv.ParseUint(string(lo), 16, 64)
	b, err2 := strconv.ParseUint(string(hi), 16, 64)
	if err1 != nil || err2 != nil {
		return mapping{}, false
	}
	m := mapping{start: uintptr(a), end: uintptr(b), perms: string(f[1])}
	// The path is the rest of the line after the inode, spaces and all
	// (a deleted executable reads "/path (deleted)", as /proc/self/exe
	// does).
	rest := line
	for range 5 {
		rest = bytes.TrimLeft(rest, " \t")
		i := bytes.IndexAny(rest, " \t")
		if i < 0 {
			rest = nil
			break
		}
		rest = rest[i:]
	}
	m.path = string(bytes.TrimSpace(rest))
	return m, true
}
