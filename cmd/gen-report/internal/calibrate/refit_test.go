package calibrate

import (
	"errors"
	"math"
	"testing"

	"commlab/engine/mmdl"
	"commlab/engine/param"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }

// TestRefitByHand is the paper's Table 3 worked backwards: 1000 tasks
// computed in 0.1225 s at 2400 MHz are 0.294 M clocks each (eq. 1); 1000
// tasks moved in one message of 0.0341 s, 100 µs of it latency, at
// 800 Mbit/s = 100 MB/s are 0.0034 MB each (eq. 2).
func TestRefitByHand(t *testing.T) {
	in := mmdl.Instance{MHz: []float64{2400, 2000}, Tasks: []float64{1000, 0}, Compute: 0.1, Comm: 0.003, Latency: 100e-6, Throughput: 800e6}
	ops := []Record{
		{Planned: mmdl.Op{Proc: 0, Kind: mmdl.Compute, Peer: -1}, Vectors: 1000, Duration: 0.1225},
		{Planned: mmdl.Op{Proc: 0, Kind: mmdl.Send, Peer: 1}, Vectors: 1000, Duration: 0.0341},
		{Planned: mmdl.Op{Proc: 1, Kind: mmdl.Recv, Peer: 0}, Vectors: 1000, Duration: 0.0341},
	}
	f, err := Refit(in, ops)
	if err != nil {
		t.Fatal(err)
	}
	if !near(f.Compute, 0.294) || !near(f.Comm, 0.0034) {
		t.Errorf("Refit = %+v, want compute 0.294, comm 0.0034", f.Params)
	}
	if f.ComputeVectors != 1000 || f.TransferVectors != 1000 || f.Transfers != 1 {
		t.Errorf("Refit counted %+v, want 1000 computed, 1000 moved in 1 transfer", f)
	}
}

// TestRefitRecoversParams builds records whose durations are exactly the
// model's, γ_i·n for a compute and α + β·n for a transfer, on the operations
// of a real schedule (heterogeneous clocks, tasks moving): eq. (1) and (2)
// must give back the parameters they were made with, whatever the counts.
func TestRefitRecoversParams(t *testing.T) {
	for _, calibrated := range []bool{false, true} {
		in, err := mmdl.Preset(2, "2", calibrated)
		if err != nil {
			t.Fatal(err)
		}
		st, err := mmdl.SteadyState(in)
		if err != nil {
			t.Fatal(err)
		}
		s, err := mmdl.Rounds(in, st, 5, mmdl.Overlap)
		if err != nil {
			t.Fatal(err)
		}
		ops := make([]Record, len(s.Ops))
		for k, op := range s.Ops {
			n := 1 + k%7
			ops[k] = Record{Planned: op, Vectors: n}
			if op.Kind == mmdl.Compute {
				ops[k].Duration = float64(n) * in.Gamma(op.Proc)
			} else {
				ops[k].Duration = in.Latency + float64(n)*in.Beta()
			}
		}
		f, err := Refit(in, ops)
		if err != nil {
			t.Fatal(err)
		}
		if f.Transfers == 0 {
			t.Fatal("Load 2 moves no task: the test checks nothing of eq. (2)")
		}
		if !near(f.Compute, in.Compute) || !near(f.Comm, in.Comm) {
			t.Errorf("calibrated=%v: Refit = %+v, want compute %v, comm %v", calibrated, f.Params, in.Compute, in.Comm)
		}
	}
}

func TestRefitErrors(t *testing.T) {
	in := mmdl.Instance{MHz: []float64{2400, 2400}, Tasks: []float64{10, 0}, Compute: 0.1, Comm: 0.003, Latency: 100e-6, Throughput: 800e6}
	send := Record{Planned: mmdl.Op{Proc: 0, Kind: mmdl.Send, Peer: 1}, Vectors: 10, Duration: 50e-6}
	comp := Record{Planned: mmdl.Op{Proc: 1, Kind: mmdl.Compute, Peer: -1}, Vectors: 10, Duration: 1e-3}
	if _, err := Refit(in, []Record{send}); err == nil {
		t.Error("Refit without computes: no error")
	}
	if _, err := Refit(in, []Record{send, comp}); err == nil {
		t.Error("Refit of a transfer shorter than its latency: no error")
	}
	bad := comp
	bad.Planned.Proc = 2
	if _, err := Refit(in, []Record{bad}); err == nil {
		t.Error("Refit of processor 2 of 2: no error")
	}
	// No transfer: Comm is carried over, and says so.
	f, err := Refit(in, []Record{comp})
	if err != nil || f.Comm != in.Comm || f.TransferVectors != 0 {
		t.Errorf("Refit without transfers = %+v, %v; want comm %v carried over", f, err, in.Comm)
	}
	var oe *param.Error
	if _, err := Run(t.Context(), in, -1, Options{}); !errors.As(err, &oe) || oe.Field != "rounds" {
		t.Errorf("Run rounds -1: %v, want a *param.Error on rounds", err)
	}
	for _, scale := range []float64{-0.5, 1.5, math.NaN(), 1e-9} {
		if _, err := Run(t.Context(), in, 1, Options{Scale: scale}); !errors.As(err, &oe) || oe.Field != "scale" {
			t.Errorf("Run scale %v: %v, want a *param.Error on scale", scale, err)
		}
	}
	var re *param.Error
	bin := in
	bin.MHz = []float64{0, 2400}
	if _, err := Run(t.Context(), bin, 1, Options{}); !errors.As(err, &re) || re.Field != "mhz[0]" {
		t.Errorf("Run mhz 0: %v, want the instance's *param.Error on mhz[0]", err)
	}
}
