// Package prefetch asks the CPU to bring a cache line in ahead of its use
// (PREFETCHT0 on amd64, nothing elsewhere), and the kernel to back a
// large array with huge pages (Huge).
//
// It is a hint with no effect on any result, so the engine may call it
// while staying pure; it lives here, outside engine/, because the engine's
// import policy bans unsafe (engine/deps_test.go) and a hint needs an
// address. engine/goal's executor uses it on schedules too large for the
// cache, where each message is a chain of dependent loads; its
// TestPinnedRuns runs every pinned schedule with and without it.
package prefetch
