//go:build !linux

package workspace

// nameMax returns the longest name, in bytes, the file system of dir
// allows: defaultNameMax, the limit of the file systems in common use
// (ext4, XFS, APFS, NTFS), where the system offers no portable way to ask.
func nameMax(dir string) int { return defaultNameMax }
