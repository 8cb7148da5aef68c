package overlay

import (
	"commlab/engine/cost"
	"commlab/engine/overlay"
	"commlab/scene"
)

// Estimate is what Build will take for v (parsed): the traced Integer Sort
// (overlay.Estimate); the membership change after it is small beside it.
func (Scene) Estimate(v scene.Values) (cost.Cost, error) {
	p, err := Params(v)
	if err != nil {
		return cost.Cost{}, err
	}
	return overlay.Estimate(p, true), nil
}
