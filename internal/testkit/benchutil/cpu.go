package benchutil

import "testing"

// ReportCPU reports, when the returned function runs after the loop, the
// CPU time the process used per op (cpu-ns/op: the work and the garbage
// collector's work it causes). On a machine shared with other work, wall
// time per op swings with the load while CPU time moves much less, so
// compare both within one run.
func ReportCPU(b *testing.B) func() {
	start, ok := cpuTime()
	return func() {
		if end, ok2 := cpuTime(); ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
