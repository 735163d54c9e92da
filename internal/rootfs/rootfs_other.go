//go:build !linux

package rootfs

// openNativeRoot: only Linux has one (openat2).
func openNativeRoot(string) (Root, error) { return nil, errNoNative }
