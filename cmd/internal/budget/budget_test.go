package budget

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"commlab/engine/cost"
)

const meminfo = "MemTotal:       24684092 kB\nMemFree:        1000 kB\n"

// status is /proc/self/status of a Go program that has allocated nothing
// yet: 1.2 GB of address space, 44 MB of data.
const status = "Name:\tgen-report\nVmPeak:\t 1227196 kB\nVmSize:\t 1227196 kB\nVmData:\t   44768 kB\n"

const gib = 1 << 30

func rlimits(as, data uint64) func(string) (uint64, bool) {
	return func(name string) (uint64, bool) {
		v := map[string]uint64{"AS": as, "DATA": data}[name]
		return v, v != 0
	}
}

// mountinfo of a host with cgroup v1's memory controller and v2 beside it
// (as on the development machine), and a container whose v2 hierarchy is
// mounted from its own cgroup.
const mountinfo = `23 1 0:21 / / rw,relatime - overlay overlay rw
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
36 31 0:33 / /sys/fs/cgroup/devices rw,relatime - cgroup cgroup rw,devices
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`

func TestLimits(t *testing.T) {
	cases := []struct {
		name  string
		fs    fstest.MapFS
		rlim  func(string) (uint64, bool)
		bytes float64
		says  string // Limit.String
	}{
		{"MemTotal only", fstest.MapFS{"proc/meminfo": {Data: []byte(meminfo)}}, nil,
			24684092 * 1024, "the 25.3 GB of MemTotal (/proc/meminfo)"},
		{"no /proc: assumed 8 GB", fstest.MapFS{}, nil, 8e9, "the 8 GB of an assumed machine (no /proc/meminfo here)"},
		{"cgroup v2, the limit on a parent", fstest.MapFS{
			"proc/meminfo":                      {Data: []byte(meminfo)},
			"proc/self/cgroup":                  {Data: []byte("0::/ci/job\n")},
			"proc/self/mountinfo":               {Data: []byte("30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n")},
			"sys/fs/cgroup/ci/job/memory.max":   {Data: []byte("max\n")},
			"sys/fs/cgroup/ci/memory.max":       {Data: []byte("4294967296\n")},
			"sys/fs/cgroup/memory.max":          {Data: []byte("max\n")},
			"sys/fs/cgroup/ci/job/memory.high":  {Data: []byte("1\n")}, // not a limit here
			"sys/fs/cgroup/ci/job/memory.swap.": {Data: []byte("1\n")},
		}, nil, 4 * gib, "the 4.29 GB of cgroup /ci's memory.max"},
		{"cgroup v2, the container's own mount", fstest.MapFS{
			"proc/meminfo":             {Data: []byte(meminfo)},
			"proc/self/cgroup":         {Data: []byte("0::/\n")},
			"proc/self/mountinfo":      {Data: []byte("30 23 0:26 / /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n")},
			"sys/fs/cgroup/memory.max": {Data: []byte("2147483648\n")},
		}, nil, 2 * gib, "the 2.15 GB of cgroup /'s memory.max"},
		{"cgroup v1 (this machine's layout), none set", fstest.MapFS{
			"proc/meminfo":        {Data: []byte(meminfo)},
			"proc/self/cgroup":    {Data: []byte("9:name=systemd:/\n5:devices:/\n4:memory:/process_api/36ce\n0::/\n")},
			"proc/self/mountinfo": {Data: []byte(mountinfo)},
			"sys/fs/cgroup/memory/process_api/36ce/memory.limit_in_bytes": {Data: []byte("9223372036854771712\n")},
			"sys/fs/cgroup/memory/process_api/memory.limit_in_bytes":      {Data: []byte("9223372036854771712\n")},
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                  {Data: []byte("9223372036854771712\n")},
		}, nil, 24684092 * 1024, "the 25.3 GB of MemTotal (/proc/meminfo)"},
		{"cgroup v1, a Slurm job's limit", fstest.MapFS{
			"proc/meminfo":        {Data: []byte(meminfo)},
			"proc/self/cgroup":    {Data: []byte("4:memory:/slurm/uid_0/job_7/step_0/task_0\n0::/\n")},
			"proc/self/mountinfo": {Data: []byte(mountinfo)},
			"sys/fs/cgroup/memory/slurm/uid_0/job_7/step_0/task_0/memory.limit_in_bytes": {Data: []byte("9223372036854771712\n")},
			"sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.limit_in_bytes":               {Data: []byte("3221225472\n")},
			"sys/fs/cgroup/memory/slurm/memory.limit_in_bytes":                           {Data: []byte("17179869184\n")},
		}, nil, 3 * gib, "the 3.22 GB of cgroup /slurm/uid_0/job_7's memory.limit_in_bytes"},
		{"cgroup v1 mounted from the container's own cgroup, a space in the mount point", fstest.MapFS{
			"proc/meminfo":                       {Data: []byte(meminfo)},
			"proc/self/cgroup":                   {Data: []byte("4:cpu,memory:/docker/abc\n")},
			"proc/self/mountinfo":                {Data: []byte("35 31 0:32 /docker/abc /sys/fs/my\\040cg rw - cgroup cgroup rw,cpu,memory\n")},
			"sys/fs/my cg/memory.limit_in_bytes": {Data: []byte("1073741824\n")},
		}, nil, gib, "the 1.07 GB of cgroup /'s memory.limit_in_bytes"},
		{"unreadable limits are none", fstest.MapFS{
			"proc/meminfo":               {Data: []byte(meminfo)},
			"proc/self/cgroup":           {Data: []byte("0::/a\n")},
			"proc/self/mountinfo":        {Data: []byte("30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n")},
			"sys/fs/cgroup/a/memory.max": {Data: []byte("lots\n")},
		}, nil, 24684092 * 1024, "the 25.3 GB of MemTotal (/proc/meminfo)"},
		{"RLIMIT_AS less what is mapped", fstest.MapFS{
			"proc/meminfo":     {Data: []byte(meminfo)},
			"proc/self/status": {Data: []byte(status)},
		}, rlimits(4*gib, 0), 4*gib - 1227196*1024, "the 4.29 GB of RLIMIT_AS (ulimit -v) less the 1.26 GB this process has mapped"},
		{"RLIMIT_DATA smaller", fstest.MapFS{
			"proc/meminfo":     {Data: []byte(meminfo)},
			"proc/self/status": {Data: []byte(status)},
		}, rlimits(8*gib, gib), gib - 44768*1024, "the 1.07 GB of RLIMIT_DATA (ulimit -d) less the 45.8 MB of data this process has mapped"},
		{"RLIMIT_AS under what is mapped", fstest.MapFS{
			"proc/meminfo":     {Data: []byte(meminfo)},
			"proc/self/status": {Data: []byte(status)},
		}, rlimits(gib, 0), 1, "the 1.07 GB of RLIMIT_AS (ulimit -v) less the 1.26 GB this process has mapped"},
		{"huge rlimits are none", fstest.MapFS{"proc/meminfo": {Data: []byte(meminfo)}}, rlimits(1<<62, 1<<63),
			24684092 * 1024, "the 25.3 GB of MemTotal (/proc/meminfo)"},
	}
	for _, c := range cases {
		l := Machine{FS: c.fs, Rlimit: c.rlim}.Memory()
		if l.Bytes != c.bytes || l.String() != c.says {
			t.Errorf("%s: %v bytes, %q; want %v, %q", c.name, l.Bytes, l.String(), c.bytes, c.says)
		}
	}
}

// TestRefusalNamesTheLimit: a refusal says which limit the budget is half
// of.
func TestRefusalNamesTheLimit(t *testing.T) {
	l := Machine{FS: fstest.MapFS{
		"proc/meminfo":     {Data: []byte(meminfo)},
		"proc/self/status": {Data: []byte(status)},
	}, Rlimit: rlimits(4*gib, 0)}.Memory()
	err := (cost.Cost{Bytes: 10.7e9, Why: "512 processors with rounds = 10000"}).Check(Of(l))
	want := "512 processors with rounds = 10000 (≈ 10.7 GB, over the command's 1.52 GB, half of the 4.29 GB of RLIMIT_AS (ulimit -v) less the 1.26 GB this process has mapped); make it about 8 times smaller (-force runs it anyway)"
	if err == nil || err.Error() != want {
		t.Errorf("refusal\n%v\nwant\n%s", err, want)
	}
}

func TestCLI(t *testing.T) {
	b := CLI(false)
	if !(b.Bytes > 0) || b.Seconds != Seconds || b.Force != "-force" || !strings.HasPrefix(b.Basis, "half of the ") {
		t.Errorf("CLI(false) = %+v: want half of a limit, %v s, -force", b, float64(Seconds))
	}
	if err := (cost.Cost{Bytes: 1e30, Seconds: 1e30}).Check(CLI(true)); err != nil {
		t.Errorf("CLI(true) refused: %v", err)
	}
	err := (cost.Cost{Bytes: 2 * b.Bytes, Why: "this run"}).Check(b)
	var ce *cost.Error
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "-force runs it anyway") {
		t.Errorf("over the budget: %v, want a refusal naming -force", err)
	}
	if r, f := ReadLimit(false), ReadLimit(true); !(r > 0 && f >= 2*r-1) {
		t.Errorf("ReadLimit: %d unforced, %d forced; want the budget and the whole limit", r, f)
	}
}

// TestUnderUlimit runs this test binary under `ulimit -v` (a shell sets
// it; Go cannot for a child) and checks that the budget it reads is half
// of what RLIMIT_AS leaves it, named.
func TestUnderUlimit(t *testing.T) {
	if os.Getenv("BUDGET_CHILD") != "" {
		b := CLI(false)
		os.Stdout.WriteString(b.Basis + "\n" + cost.Bytes(b.Bytes) + "\n")
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("RLIMIT_AS is read on Linux only")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	cmd := exec.Command(sh, "-c", `ulimit -v 4194304 && exec "$0" -test.run='^TestUnderUlimit$'`, os.Args[0])
	cmd.Env = append(os.Environ(), "BUDGET_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the child under ulimit -v 4194304: %v\n%s", err, out)
	}
	lines := strings.Split(string(out), "\n")
	if !strings.HasPrefix(lines[0], "half of the 4.29 GB of RLIMIT_AS (ulimit -v) less the ") || !strings.HasSuffix(lines[0], " this process has mapped") {
		t.Errorf("under ulimit -v 4194304 the budget is %q", out)
	}
}
