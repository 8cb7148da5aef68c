package schedule

import (
	"commlab/engine/cost"
	"commlab/engine/goal"
	"commlab/scene"
)

// What the scene adds per operation beside the recorded run (its bar, its
// share of the gaps and heat strips): measured natively on butterfly
// schedules of 4,096 to 32,768 ranks (0.3 to 3 M operations), whose builds
// took 1.2-1.7 µs and allocated 113-118 bytes per operation in all.
const (
	barBytes = 10
	nsBar    = 800
)

// Estimate is what Build will take for v (parsed): each side's recorded
// run of its schedule (goal.EstimateRun) and its bars. A file the page
// does not know is Build's error, not the estimate's.
func (Scene) Estimate(v scene.Values) (cost.Cost, error) {
	files := []string{v[KeyFile]}
	switch v[KeyCompare] {
	case CompareParams:
		files = append(files, v[KeyFile])
	case CompareFile:
		files = append(files, v[KeyFile2])
	}
	var c cost.Cost
	for _, f := range files {
		s, err := lookup(f)
		if err != nil {
			continue
		}
		e := goal.EstimateRun(s.NumOps(), true)
		e.Bytes += barBytes * float64(s.NumOps())
		e.Seconds += nsBar * float64(s.NumOps()) * 1e-9
		if c.Why == "" {
			c = e
			continue
		}
		c.Events += e.Events
		c.Spans += e.Spans
		c.Bytes += e.Bytes
		c.Seconds += e.Seconds
	}
	return c, nil
}
