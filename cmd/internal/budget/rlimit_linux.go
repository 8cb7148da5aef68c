package budget

import "syscall"

// rlimit reads the process's soft limit on its address space ("AS") or
// its data ("DATA").
func rlimit(name string) (uint64, bool) {
	res := syscall.RLIMIT_AS
	if name == "DATA" {
		res = syscall.RLIMIT_DATA
	}
	var r syscall.Rlimit
	if err := syscall.Getrlimit(res, &r); err != nil || r.Cur == ^uint64(0) {
		return 0, false
	}
	return r.Cur, true
}
