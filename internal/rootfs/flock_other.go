//go:build !unix

package rootfs

import "os"

// flock does nothing where there is no flock: two applies in one root at
// once are not kept apart there.
func flock(*os.File) error { return nil }
