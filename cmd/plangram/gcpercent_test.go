package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestTuneGC: check, apply, parse and fmt run the collector at checkGCPercent unless
// GOGC is set; other commands keep Go's default.
func TestTuneGC(t *testing.T) {
	if v, ok := os.LookupEnv("GOGC"); ok {
		t.Setenv("GOGC", v) // restored when the test ends
		os.Unsetenv("GOGC")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for cmd, want := range map[string]int{"check": checkGCPercent, "apply": checkGCPercent, "parse": checkGCPercent, "fmt": checkGCPercent, "render": 100} {
		debug.SetGCPercent(100)
		tuneGC([]string{cmd, "x.md"})
		if got := debug.SetGCPercent(100); got != want {
			t.Errorf("%s: GOGC %d, want %d", cmd, got, want)
		}
	}
	t.Setenv("GOGC", "100")
	debug.SetGCPercent(100)
	tuneGC([]string{"apply"})
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("apply with GOGC set: %d", got)
	}
}
