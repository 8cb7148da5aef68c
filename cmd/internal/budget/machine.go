package budget

import (
	"bufio"
	"bytes"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"commlab/engine/cost"
	"commlab/internal/boundedio"
)

// Limit is one bound on the memory this process may use.
type Limit struct {
	// Bytes is what the limit leaves this process: Total less Used, at
	// least 1 when something limits it (a zero Bytes would mean no limit
	// to cost.Budget).
	Bytes float64
	Total float64 // the limit as set, bytes
	Used  float64 // what the process had mapped against it already (RLIMIT_AS, RLIMIT_DATA), bytes
	// Name says which limit it is, as a user sets it: "MemTotal
	// (/proc/meminfo)", "RLIMIT_AS (ulimit -v)", "cgroup /ci/job's
	// memory.max".
	Name string
	// UsedWhat names Used: "this process has mapped".
	UsedWhat string
}

// String is the limit in a message: "the 25.3 GB of MemTotal
// (/proc/meminfo)", "the 4.29 GB of RLIMIT_AS (ulimit -v) less the 1.24 GB
// this process has mapped".
func (l Limit) String() string {
	s := "the " + cost.Bytes(l.Total) + " of " + l.Name
	if l.Used > 0 {
		s += " less the " + cost.Bytes(l.Used) + " " + l.UsedWhat
	}
	return s
}

// Machine is where the limits are read from.
type Machine struct {
	// FS is the root file system: proc/meminfo, proc/self/status,
	// proc/self/cgroup, proc/self/mountinfo and the cgroup files below
	// the mount points mountinfo names (os.DirFS("/") natively).
	FS fs.FS
	// Rlimit is the process's soft limit "AS" or "DATA" in bytes; false
	// when there is none (RLIM_INFINITY) or it cannot be read.
	Rlimit func(name string) (uint64, bool)
}

// noLimit is where a limit stops meaning anything: cgroup v1 writes
// 9223372036854771712 for none, and no machine has 2^62 bytes.
const noLimit = 1 << 62

// maxProcFile bounds a read of one /proc or cgroup file (mountinfo in a
// container with thousands of mounts is a few hundred kB).
const maxProcFile = 16 << 20

// Memory is the smallest of the limits found (Limits); without any, an
// assumed FallbackMemory.
func (m Machine) Memory() Limit {
	best := Limit{Bytes: FallbackMemory, Total: FallbackMemory, Name: "an assumed machine (no /proc/meminfo here)"}
	for i, l := range m.Limits() {
		if i == 0 || l.Bytes < best.Bytes {
			best = l
		}
	}
	return best
}

// Limits are the limits on this process's memory that are set: MemTotal,
// the cgroups', RLIMIT_AS and RLIMIT_DATA, in that order.
func (m Machine) Limits() []Limit {
	var out []Limit
	if b, err := m.read("proc/meminfo"); err == nil {
		if kb, ok := field(b, "MemTotal:"); ok && kb > 0 {
			out = append(out, limit(kb*1024, 0, "MemTotal (/proc/meminfo)", ""))
		}
	}
	out = append(out, m.cgroupLimits()...)
	status, _ := m.read("proc/self/status")
	for _, r := range []struct{ name, what, status, used string }{
		{"AS", "RLIMIT_AS (ulimit -v)", "VmSize:", "this process has mapped"},
		{"DATA", "RLIMIT_DATA (ulimit -d)", "VmData:", "of data this process has mapped"},
	} {
		if m.Rlimit == nil {
			break
		}
		cur, ok := m.Rlimit(r.name)
		if !ok || cur >= noLimit {
			continue
		}
		used, _ := field(status, r.status)
		out = append(out, limit(float64(cur), used*1024, r.what, r.used))
	}
	return out
}

func limit(total, used float64, name, usedWhat string) Limit {
	return Limit{Bytes: max(total-used, 1), Total: total, Used: used, Name: name, UsedWhat: usedWhat}
}

func (m Machine) read(name string) ([]byte, error) {
	if m.FS == nil {
		return nil, fs.ErrNotExist
	}
	f, err := m.FS.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return boundedio.ReadAll("/"+name, f, maxProcFile)
}

// field reads "Key:   24576000 kB" (meminfo, status): the number, in kB.
func field(b []byte, key string) (float64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[0] == key && f[2] == "kB" {
			kb, err := strconv.ParseFloat(f[1], 64)
			if err != nil || !(kb >= 0) {
				return 0, false
			}
			return kb, true
		}
	}
	return 0, false
}

// cgroupLimits are the memory limits of this process's cgroups: for the
// v2 hierarchy ("0::/path" in /proc/self/cgroup) and v1's memory
// controller ("N:memory:/path"), the smallest of memory.max (v2) or
// memory.limit_in_bytes (v1) of its cgroup and of every cgroup above it up
// to the hierarchy's mount, since a parent's limit holds for its children.
func (m Machine) cgroupLimits() []Limit {
	cg, err := m.read("proc/self/cgroup")
	if err != nil {
		return nil
	}
	mi, err := m.read("proc/self/mountinfo")
	if err != nil {
		return nil
	}
	mounts := parseMountinfo(mi)
	var out []Limit
	for _, line := range strings.Split(string(cg), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var fstype, file string
		switch {
		case parts[0] == "0" && parts[1] == "":
			fstype, file = "cgroup2", "memory.max"
		case hasWord(parts[1], "memory"):
			fstype, file = "cgroup", "memory.limit_in_bytes"
		default:
			continue
		}
		for _, mt := range mounts {
			if mt.fstype != fstype || fstype == "cgroup" && !hasWord(mt.super, "memory") {
				continue
			}
			if l, ok := m.cgroupLimit(mt, parts[2], file); ok {
				out = append(out, l)
			}
			break
		}
	}
	return out
}

// cgroupLimit is the smallest limit in file of cgroup cg and its parents,
// under mount mt.
func (m Machine) cgroupLimit(mt mount, cg, file string) (Limit, bool) {
	rel := cg
	if mt.root != "/" {
		var ok bool
		if rel, ok = strings.CutPrefix(cg, mt.root); !ok || rel != "" && rel[0] != '/' {
			return Limit{}, false // the cgroup is not under this mount
		}
	}
	rel = path.Clean("/" + rel)
	var best Limit
	found := false
	for {
		dir := path.Join(mt.point, rel)
		if b, err := m.read(strings.TrimPrefix(path.Join(dir, file), "/")); err == nil {
			s := strings.TrimSpace(string(b))
			if v, err := strconv.ParseUint(s, 10, 64); err == nil && v < noLimit && (!found || float64(v) < best.Bytes) {
				best, found = limit(float64(v), 0, "cgroup "+rel+"'s "+file, ""), true
			}
		}
		if rel == "/" {
			break
		}
		rel = path.Dir(rel)
	}
	return best, found
}

type mount struct {
	root, point, fstype, super string
}

// parseMountinfo reads /proc/self/mountinfo: "36 35 98:0 /root /mnt
// rw,noatime master:1 - cgroup2 none rw" (proc(5)); paths escape spaces and
// the like as \040.
func parseMountinfo(b []byte) []mount {
	var out []mount
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		sep := -1
		for i, w := range f {
			if w == "-" && i >= 6 {
				sep = i
				break
			}
		}
		if sep < 0 || len(f) < sep+4 {
			continue
		}
		out = append(out, mount{root: unescape(f[3]), point: unescape(f[4]), fstype: f[sep+1], super: f[sep+3]})
	}
	return out
}

// unescape undoes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func hasWord(list, w string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == w {
			return true
		}
	}
	return false
}
