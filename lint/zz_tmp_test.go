package lint

import (
	"context"
	"os"
	"runtime"
	"testing"
)

func TestZZMem(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Run(context.Background(), []string{os.Getenv("ZZ_FILE")}, Options{})
	runtime.ReadMemStats(&after)
	t.Log(err, after.TotalAlloc-before.TotalAlloc, after.HeapInuse)
}
