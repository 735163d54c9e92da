//go:build !unix

package safewrite

import (
	"io/fs"
	"os"
)

// links reports the number of hard links; unknown here, so 1.
func links(fs.FileInfo) uint64 { return 1 }

// keepOwner does nothing where files have no Unix owner.
func keepOwner(*os.File, fs.FileInfo) error { return nil }
