//go:build !linux

package apply

// openNativeRoot: only Linux has one (openat2).
func openNativeRoot(string) (rootFS, error) { return nil, errNoNative }
