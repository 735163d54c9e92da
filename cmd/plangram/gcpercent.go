package main

import (
	"os"
	"runtime/debug"

	"github.com/plangram/plangram/internal/startpages"
)

// checkGCPercent is the garbage collector's target percentage (GOGC) for
// `plangram check`, `plangram apply`, `plangram parse` and `plangram fmt`
// when the GOGC environment variable does not set one. parse writes a document's JSON as
// the actions are read (parseStreamed) and keeps the rest (prose, blocks,
// diagnostics), less than the input: at 50 a 10 MB plan peaks at 45 MB
// instead of 55, 10 MB of SEARCH/REPLACE blocks at 47 instead of 59, for
// the same user CPU. apply holds a state per file it writes (the
// change, its undo record), so its live heap grows with the plan; at 50
// a 4 MB plan of 60k files peaks at 79 MB instead of 97, for about 8% more
// CPU (docs/benchmarks.md, "apply memory"). fmt holds at most one
// document tree (format.Canonical), about 30× a plan of small sections:
// at 50 a 4.3 MB error-heavy plan peaks at 364 MB instead of 437–479,
// 10 MB of small acts at 64 instead of 70, for up to 12% more CPU.
// check reads its input outside the heap (inputArena) and keeps one action
// at a time, so its live heap is about 1 MiB whatever the input size, and
// most of its heap is the collector's headroom: at GOGC 100 the heap may
// grow to 4 MiB before the first collection and twice the live heap after.
// At 50 that minimum is 2 MiB and the goal 1.5× the live heap: 1.2–2.8 MB
// less peak memory on 10 MB inputs, user CPU within the noise (one to two
// more collections of a 1 MiB heap per 100 MB of garbage). See
// docs/benchmarks.md, "check memory".
const checkGCPercent = 50

// tuneGC sets the collector for the command line args, as main runs it:
// checkGCPercent for check, apply, parse and fmt, unless GOGC is set. It changes the process's
// collector, so only main (and the memory test's child process, which
// stands for it) calls it, never run.
func tuneGC(args []string) {
	if len(args) == 0 || (args[0] != "check" && args[0] != "apply" && args[0] != "parse" && args[0] != "fmt") {
		return
	}
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(checkGCPercent)
}

// releaseStartupPages gives back, for check, apply and lsp, the pages of
// the executable that start-up touched (internal/startpages): the
// initialisation of every package the CLI links leaves about 8 MiB of the
// executable resident, most of which these commands never touch again;
// check's peak on a 10 MB plan drops by about 2.5 MiB (docs/benchmarks.md,
// "check memory"). Like tuneGC it acts on the process, so only main calls
// it.
func releaseStartupPages(args []string) {
	if len(args) == 0 {
		return
	}
	switch args[0] {
	case "check", "apply", "lsp":
		startpages.Release()
	}
}
