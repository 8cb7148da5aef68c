package overlay

import (
	"commlab/engine/cost"
	eoverlay "commlab/engine/overlay"
	"commlab/scene"
)

// Estimate is what Build will take for v (parsed): the traced Integer Sort
// (eoverlay.Estimate); the membership change after it is small beside it.
func (Scene) Estimate(v scene.Values) (cost.Cost, error) { return checked.Estimate(v) }

// Cost is Estimate once the values are checked.
func (m *model) Cost(scene.Values) (cost.Cost, error) { return eoverlay.Estimate(m.p, true), nil }
