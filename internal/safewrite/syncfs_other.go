//go:build !(linux && (amd64 || arm64))

package safewrite

// syncFS is not available here: the caller syncs each file.
func syncFS(string) error { return errNoSyncfs }
