package des

import (
	"errors"
	"testing"
)

// chain schedules the next event until n have run.
type chain struct{ n, seen int }

func (c *chain) Handle(s *Sim, e Event) {
	c.seen++
	if c.seen < c.n {
		s.Schedule(s.Now()+1, 0, 0)
	}
}

func TestCheckpoint(t *testing.T) {
	var s Sim
	calls := 0
	s.Checkpoint = func() error { calls++; return nil }
	c := &chain{n: 3*CheckEvery + 5}
	s.Schedule(0, 0, 0)
	if n := s.Run(c); n != c.n || calls != 3 || s.Err() != nil {
		t.Fatalf("Run = %d events, %d checkpoints, err %v; want %d, 3, nil", n, calls, s.Err(), c.n)
	}

	stop := errors.New("stop")
	s.Reset()
	s.Checkpoint = func() error { return stop }
	c = &chain{n: 3 * CheckEvery}
	s.Schedule(0, 0, 0)
	if n := s.Run(c); n != CheckEvery || !errors.Is(s.Err(), stop) {
		t.Fatalf("stopped Run = %d events, err %v; want %d, stop", n, s.Err(), CheckEvery)
	}
	s.Reset()
	if s.Err() != nil {
		t.Error("Reset kept the error")
	}
}
