//go:build !unix

package benchutil

import "time"

// cpuTime returns the CPU time the process has used, and whether it is
// known: not on this system.
func cpuTime() (time.Duration, bool) { return 0, false }
