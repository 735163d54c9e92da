package main

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
)

// buildVersion is the version plangram reports, from the build information
// the Go toolchain embeds: the module version (v1.2.3 when installed with
// `go install …@v1.2.3`, "(devel)" when built from a checkout) and the VCS
// revision, its time and whether the tree was modified.
type buildVersion struct {
	Module   string // module version, "(devel)" when unknown
	Revision string // VCS revision, "" when unknown
	Time     string // VCS commit time (RFC 3339), "" when unknown
	Modified bool   // the working tree had uncommitted changes
	Go       string // the Go toolchain that built the binary
}

func readVersion() buildVersion {
	v := buildVersion{Module: "(devel)"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Go = bi.GoVersion
	if bi.Main.Version != "" {
		v.Module = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// Short is the version written into SARIF's tool.driver.version and the
// language server's serverInfo.version. The Go toolchain (1.24 and later)
// stamps a binary built from a git checkout with a pseudo-version naming the
// revision (v0.0.0-20261123170525-b824d0fc7ffa, "+dirty" when the tree was
// modified): that version is already exact and is kept as it is. Only a
// version that names no revision — "(devel)" from a toolchain or build
// that stamps none — gets "+" and the first 12 digits of the revision, and
// a modified tree "-dirty" after it (or "+dirty" after a module version
// without it), so that a modified build never passes for a release.
func (v buildVersion) Short() string {
	s := v.Module
	if v.Revision != "" && s == "(devel)" {
		s += "+" + v.Revision[:min(len(v.Revision), 12)]
		if v.Modified {
			s += "-dirty"
		}
		return s
	}
	if v.Modified && !strings.HasSuffix(s, "+dirty") {
		if strings.Contains(s, "+") {
			return s + ".dirty"
		}
		return s + "+dirty"
	}
	return s
}

// String is the line `plangram version` prints.
func (v buildVersion) String() string {
	s := "plangram " + v.Module
	if v.Revision != "" {
		s += " revision " + v.Revision
		if v.Time != "" {
			s += " (" + v.Time + ")"
		}
		if v.Modified {
			s += " modified"
		}
	}
	if v.Go != "" {
		s += " " + v.Go
	}
	return s
}

// cmdVersion prints the version line: `plangram MODULE-VERSION [revision
// REV (TIME) [modified]] GO-VERSION`.
func cmdVersion(_ context.Context, e *env, args []string) int {
	fs := newFlags(e, "version", "")
	if code, ok := parseNoArgs(e, fs, args); !ok {
		return code
	}
	fmt.Fprintln(e.stdout, readVersion())
	return exitOK
}
