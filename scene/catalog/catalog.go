package catalog

import (
	"commlab/engine/cost"
	"commlab/scene"
	"commlab/scene/butterfly"
	"commlab/scene/jitter"
	"commlab/scene/logp"
	"commlab/scene/mmdl"
	"commlab/scene/nbc"
	"commlab/scene/overlay"
	"commlab/scene/schedule"
)

// All returns every scene, the default first, each refusing a build over
// the page's budget (cost.Page: about 500 MB and 2 s of engine time) with a
// message on the parameter that drives it.
func All() scene.Registry { return Unchecked().Within(cost.Page) }

// Unchecked returns every scene with no budget: a command gives them its
// own with scene.Within (gen-anim: half the machine's memory, or none with
// -force).
func Unchecked() scene.Registry {
	return scene.Registry{butterfly.New(), jitter.New(), logp.New(), nbc.New(), mmdl.New(), overlay.New(), schedule.New()}
}
