package startpages

import (
	"os"
	"strings"
	"testing"
)

const sample = `00400000-00ad7000 r-xp 00000000 08:01 1234                               /tmp/my prog (deleted)
Size:               6972 kB
Rss:                3996 kB
Shared_Dirty:          0 kB
Private_Dirty:      3996 kB
Anonymous:             0 kB
Swap:                  0 kB
VmFlags: rd ex mr mw me dw
00ad7000-011e0000 r--p 006d7000 08:01 1234                               /tmp/my prog (deleted)
Rss:                3940 kB
Private_Dirty:         8 kB
Anonymous:             0 kB
Swap:                  8 kB
011e0000-0122e000 rw-p 00de0000 08:01 1234                               /tmp/my prog (deleted)
Rss:                 248 kB
Anonymous:           200 kB
7f0000000000-7f0000021000 rw-p 00000000 00:00 0 
Rss:                   4 kB
Anonymous:             4 kB
7f1000000000-7f1000001000 r--p 00000000 08:01 99                         /usr/lib/x.so
Rss:                 bad kB
`

func TestParseSmaps(t *testing.T) {
	ms := parseSmaps([]byte(sample))
	if len(ms) != 5 {
		t.Fatalf("got %d mappings, want 5: %+v", len(ms), ms)
	}
	type want struct {
		path  string
		rss   int
		clean bool
	}
	for i, w := range []want{
		{"/tmp/my prog (deleted)", 3996, true},  // text: the file's pages (dirty in the page cache: just written)
		{"/tmp/my prog (deleted)", 3940, false}, // relocated read-only data: a copy-on-write page, swapped out
		{"/tmp/my prog (deleted)", 248, false},  // writable
		{"", 4, false},                          // anonymous
		{"/usr/lib/x.so", 0, false},             // unreadable field: left alone
	} {
		m := ms[i]
		if m.path != w.path || m.rss != w.rss || m.cleanReadOnly() != w.clean {
			t.Errorf("mapping %d: path %q rss %d clean %v, want %q %d %v", i, m.path, m.rss, m.cleanReadOnly(), w.path, w.rss, w.clean)
		}
	}
	if ms[0].start != 0x400000 || ms[0].end != 0xad7000 || ms[0].perms != "r-xp" {
		t.Errorf("header: %+v", ms[0])
	}
}

// initialised is set at start-up by code in the executable: it must keep
// its value, and the code must still run, after Release.
var initialised = strings.Repeat("x", 3)

func TestReleaseKeepsTheProgram(t *testing.T) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Skip("no /proc/self/exe:", err)
	}
	r := Release()
	if r.Mappings == 0 {
		t.Fatalf("Release released no mapping of %s", exe)
	}
	if initialised != "xxx" {
		t.Fatalf("a start-up value changed: %q", initialised)
	}
	// Work after Release maps back what it needs and sees the same bytes.
	if got := strings.ToUpper(initialised) + strings.Repeat("y", 2); got != "XXXyy" {
		t.Fatalf("code after Release computed %q", got)
	}
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	after := 0
	for _, m := range parseSmaps(data) {
		if m.path == exe && m.cleanReadOnly() {
			after += m.rss
		}
	}
	t.Logf("released %d mappings, %d KiB resident before, %d KiB after", r.Mappings, r.KiB, after)
	if r.KiB > 0 && after >= r.KiB {
		t.Errorf("resident pages of the executable did not drop: %d KiB before, %d after", r.KiB, after)
	}
}
