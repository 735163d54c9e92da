package linediff

import (
	"fmt"
	"io"
)

// File writes the diff of one file's change as `plangram apply -d` prints
// it and `patch -p1` and `git apply` read it: the unified diff of old and
// new under `--- a/path` and `+++ b/path`, `/dev/null` standing for the
// side where the file is absent (existed, exists). A move is a deletion
// and a creation, each written by a call of its own. An empty file created
// or deleted has no line to show: git's header says it (`diff --git`,
// `new file mode` or `deleted file mode`). It writes nothing for a file
// whose content does not change.
func File(w io.Writer, path string, existed, exists bool, old, new string) error {
	a, b := "a/"+path, "b/"+path
	if !existed {
		a = "/dev/null"
	}
	if !exists {
		b = "/dev/null"
	}
	if old == new && existed != exists {
		how := "new"
		if !exists {
			how = "deleted"
		}
		_, err := fmt.Fprintf(w, "diff --git a/%s b/%s\n%s file mode 100644\n", path, path, how)
		return err
	}
	return Unified(w, a, b, []byte(old), []byte(new), 3)
}
