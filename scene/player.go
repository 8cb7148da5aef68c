package scene

import (
	"fmt"
	"math"
	"slices"
)

// PlaySeconds is how long a whole run takes to play at speed 1, whatever
// its simulated length: runs span microseconds to seconds, and a viewer
// needs a few seconds to follow one.
const PlaySeconds = 8.0

// LoopHold is how long a looping animation rests on its last frame before
// it starts again, so that a slide shows the outcome.
const LoopHold = 1.5

// Player paces a Run in real time. It is plain state advanced by Tick, so
// that the game loop owns the clock and tests can drive it exactly.
type Player struct {
	End     float64   // the run's End
	Steps   []float64 // the run's Steps
	T       float64   // playhead, simulated seconds in [0, End]
	Playing bool
	Speed   float64 // one of Speeds
	Loop    bool

	hold float64 // real seconds spent resting at the end while looping
}

// NewPlayer returns a paused player for r at speed 1.
func NewPlayer(r Run) *Player {
	return &Player{End: r.End(), Steps: r.Steps(), Speed: 1}
}

// Tick advances the playhead by dt real seconds if playing. At the end it
// stops, or with Loop rests LoopHold seconds and starts again.
func (p *Player) Tick(dt float64) {
	if !p.Playing || !(dt > 0) || !(p.End > 0) {
		return
	}
	if p.T >= p.End {
		if !p.Loop {
			p.Playing = false
			return
		}
		p.hold += dt
		if p.hold >= LoopHold {
			p.T, p.hold = 0, 0
		}
		return
	}
	p.T = min(p.End, p.T+dt*p.Speed*p.End/PlaySeconds)
	if p.T >= p.End && !p.Loop {
		p.Playing = false
	}
}

// Play starts playing; from the end it restarts.
func (p *Player) Play() {
	if p.T >= p.End {
		p.T = 0
	}
	p.Playing, p.hold = true, 0
}

// Pause stops at the current playhead.
func (p *Player) Pause() { p.Playing = false }

// Toggle plays or pauses.
func (p *Player) Toggle() {
	if p.Playing {
		p.Pause()
	} else {
		p.Play()
	}
}

// Restart goes back to 0, keeping play or pause.
func (p *Player) Restart() { p.T, p.hold = 0, 0 }

// Seek moves the playhead to t, which must lie in [0, End].
func (p *Player) Seek(t float64) error {
	if !(t >= 0 && t <= p.End) {
		return &FieldError{Key: KeyT, Value: fmtNum(t), Want: fmt.Sprintf("a time in [0, %s] s (this run's length)", fmtNum(p.End))}
	}
	p.T, p.hold = t, 0
	return nil
}

// Step pauses and moves the playhead to the next step after it (dir > 0)
// or the previous one before it (dir < 0), or to the end or start when
// there is none.
func (p *Player) Step(dir int) {
	p.Pause()
	// A small tolerance, so that a playhead sitting on a step moves on.
	eps := p.End * 1e-9
	switch {
	case dir > 0:
		i, _ := slices.BinarySearch(p.Steps, p.T+eps)
		for i < len(p.Steps) && p.Steps[i] <= p.T+eps {
			i++
		}
		if i < len(p.Steps) {
			p.T = p.Steps[i]
		} else {
			p.T = p.End
		}
	case dir < 0:
		i, _ := slices.BinarySearch(p.Steps, p.T-eps)
		if i > 0 {
			p.T = p.Steps[i-1]
		} else {
			p.T = 0
		}
	}
	p.hold = 0
}

// Faster and Slower move along Speeds, staying at the ends.
func (p *Player) Faster() { p.Speed = nextSpeed(p.Speed, +1) }

// Slower: see Faster.
func (p *Player) Slower() { p.Speed = nextSpeed(p.Speed, -1) }

func nextSpeed(s float64, dir int) float64 {
	i := slices.IndexFunc(Speeds, func(x float64) bool { return math.Abs(x-s) < 1e-12 })
	if i < 0 {
		return 1
	}
	return Speeds[min(max(i+dir, 0), len(Speeds)-1)]
}
