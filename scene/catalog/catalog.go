// Package catalog lists the scenes commlab ships, in the order the index
// page and the scene menu show them. The browser binary and the native
// exporter both take their scenes from here, so they cannot disagree.
package catalog

import (
	"commlab/scene"
	"commlab/scene/butterfly"
	"commlab/scene/jitter"
	"commlab/scene/logp"
	"commlab/scene/mmdl"
	"commlab/scene/nbc"
	"commlab/scene/overlay"
	"commlab/scene/schedule"
)

// All returns every scene, the default first.
func All() scene.Registry {
	return scene.Registry{butterfly.New(), jitter.New(), logp.New(), nbc.New(), mmdl.New(), overlay.New(), schedule.New()}
}
