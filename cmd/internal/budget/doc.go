// Package budget is the commands' budget for one run (gen-report's eval
// and topology commands, gen-anim): half of the memory this process may
// use and 10 minutes of engine time, checked against a model's estimate
// (engine/cost) before the run allocates anything; -force lifts it. It also
// gives the commands the byte limit for reading an input of unknown size
// (ReadLimit, for internal/boundedio).
//
// The memory this process may use is the smallest of
//
//   - MemTotal of /proc/meminfo (8 GB assumed where there is none);
//   - the memory limit of its cgroup and of every cgroup above it (v2
//     memory.max, v1 memory.limit_in_bytes), found from /proc/self/cgroup
//     and /proc/self/mountinfo: containers, CI runners, Slurm's tasks;
//   - RLIMIT_AS (ulimit -v) less the address space the process has mapped
//     already (a Go program maps about 1.2 GB of address space before it
//     allocates anything);
//   - RLIMIT_DATA (ulimit -d) less the data mapped already (Linux counts
//     the Go heap there).
//
// Every refusal names the one used and its size. A limit of "max", or one
// of 2^62 bytes or more (cgroup v1 writes 9223372036854771712 for none),
// is no limit. The machine is read once, when the budget is first asked
// for (Machine makes the reading testable on any file system).
//
// The package sits in cmd/internal, above the engine: it imports
// engine/cost and reads the machine; nothing under engine/ or internal/
// imports it.
package budget
