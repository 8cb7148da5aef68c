package overlay

import "testing"

// TestPinned pins small seeded runs to the bit. It runs natively and under
// js/wasm (GOOS=js GOARCH=wasm go test -exec=…/go_js_wasm_exec): the model
// uses only + − × / and integer draws, so both must give these values.
// Do not edit: a change here is a change of the model's results.
func TestPinned(t *testing.T) {
	for _, c := range []struct {
		pol                      Policy
		hs                       Handshake
		time                     float64
		relayed, opened, evicted int
	}{
		{"topology", HandshakeKernel, 0.006315429333333327, 577, 537, 531},
		{"all", HandshakeKernel, 0.0023853299145299186, 0, 0, 0},
		{"random", HandshakeKernel, 0.008171663692307683, 641, 598, 591},
		// The model before the kernel's handshake (issue 22).
		{"topology", HandshakeApplication, 0.006225940957264952, 578, 523, 515},
		{"random", HandshakeApplication, 0.0077355043418803416, 645, 593, 585},
	} {
		p := small()
		p.Policy, p.Handshake = c.pol, c.hs
		p.Nodes, p.Procs, p.Switches, p.Cache, p.RandomDegree = 8, 16, 3, 2, 6
		// The select() and set-up costs these values were pinned at (the
		// defaults became 0.5 µs and 60 µs with their sources,
		// CostSources).
		p.PollPerConn, p.HandshakeCPU = 0.3e-6, 50e-6
		r, err := RunIS(p, rng(11), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Time != c.time || r.Relayed != c.relayed || r.ShortcutsOpened != c.opened || r.Evicted != c.evicted {
			t.Errorf("%s, %s handshake: time %v, relayed %d, opened %d, evicted %d; want %v, %d, %d, %d",
				c.pol, c.hs, r.Time, r.Relayed, r.ShortcutsOpened, r.Evicted, c.time, c.relayed, c.opened, c.evicted)
		}
	}
}
