// Package startpages gives back the pages of the running executable that
// its start-up touched and its work does not need.
//
// A Go program runs the initialisation of every package it links before
// main, and the kernel maps each page of the executable that this touches
// together with its neighbours (fault-around, 64 KiB by default on
// Linux). plangram is one binary for every command, so a command as
// narrow as `check` starts with about 8 MiB of the executable resident,
// most of it the initialisation of packages it never calls again
// (goldmark, the language server, the code generator): that is most of
// its fixed memory cost, and it counts in its peak resident set as much
// as the input does (docs/benchmarks.md, "check memory").
//
// Release drops those pages from the process's page tables; the ones the
// work needs are mapped again from the page cache when it touches them.
// Nothing is lost: only private, read-only mappings of the executable
// whose every resident page is still the file's (no copy-on-write page,
// as a relocated read-only segment of a PIE or externally linked binary
// has) are released, so the pages mapped again hold the same bytes.
package startpages

// Released is what Release did: how many mappings of the executable it
// released and how many KiB of them were resident before.
type Released struct {
	Mappings int
	KiB      int
}
