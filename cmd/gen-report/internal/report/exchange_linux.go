package report

import "golang.org/x/sys/unix"

// exchange swaps the directories a and b in one step (renameat2 with
// RENAME_EXCHANGE), so a server reading the report never finds it missing,
// not even between two renames. It reports false when the file system
// cannot (then swap falls back to two renames).
func exchange(a, b string) bool {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE) == nil
}
