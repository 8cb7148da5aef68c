package font

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestWasmLinksOnlyTheSubsets fails when the browser's wasm links the
// whole Go fonts again (any golang.org/x/image/font/gofont package), which
// would cost it about 140 KB gzip: the subsets are what it should carry.
func TestWasmLinksOnlyTheSubsets(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "../../wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./wasm for js/wasm: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list found %d packages: not the wasm program", len(deps))
	}
	found := false
	for _, d := range deps {
		if strings.Contains(d, "/gofont") {
			t.Errorf("the wasm links %s", d)
		}
		found = found || d == "commlab/render/font"
	}
	if !found {
		t.Error("the wasm does not link commlab/render/font: the test looks at the wrong program")
	}
}
