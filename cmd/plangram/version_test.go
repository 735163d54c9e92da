package main

import "testing"

// TestVersionShort pins the version SARIF and the language server carry for
// each kind of build: a release, a pseudo-version stamped by the toolchain
// from a git checkout (clean and modified: "+dirty" once, not twice), and a
// build that names no version.
func TestVersionShort(t *testing.T) {
	const rev = "b824d0fc7ffa2a6a769ee5cf100200dd90c01a09"
	for _, tc := range []struct {
		v    buildVersion
		want string
	}{
		{buildVersion{Module: "v1.2.3"}, "v1.2.3"},
		{buildVersion{Module: "(devel)"}, "(devel)"},
		{buildVersion{Module: "(devel)", Revision: rev}, "(devel)+b824d0fc7ffa"},
		{buildVersion{Module: "(devel)", Revision: rev, Modified: true}, "(devel)+b824d0fc7ffa-dirty"},
		{buildVersion{Module: "v0.0.0-20261123170525-b824d0fc7ffa", Revision: rev}, "v0.0.0-20261123170525-b824d0fc7ffa"},
		{buildVersion{Module: "v0.0.0-20261123170525-b824d0fc7ffa+dirty", Revision: rev, Modified: true}, "v0.0.0-20261123170525-b824d0fc7ffa+dirty"},
		{buildVersion{Module: "v1.2.3", Revision: rev, Modified: true}, "v1.2.3+dirty"},
		{buildVersion{Module: "v2.0.0+incompatible", Revision: rev, Modified: true}, "v2.0.0+incompatible.dirty"},
	} {
		if got := tc.v.Short(); got != tc.want {
			t.Errorf("%+v: Short() = %q, want %q", tc.v, got, tc.want)
		}
	}
}
