package render

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
)

func TestZZProf(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("ZZ_FILE"))
	if err != nil {
		t.Skip()
	}
	runtime.MemProfileRate = 4096
	if _, err := Markdown(src, Options{}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Create("/tmp/zz.mem")
	pprof.Lookup("allocs").WriteTo(f, 0)
	f.Close()
}
