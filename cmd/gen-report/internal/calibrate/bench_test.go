package calibrate

import (
	"context"
	"fmt"
	"testing"

	"commlab/engine/mmdl"
)

// BenchmarkRun times the whole loop (two schedules executed) on the paper's
// ProcSet 2 / Load 2 at a few scales, at the paper's 800 Mbit/s and at
// 12 Gbit/s (the paper's network/CPU balance on this faster core), and
// reports what it measured, Table 4 style (ms), with the fitted parameters:
//
//	go test -run=^$ -bench=Run -benchtime=1x ./cmd/gen-report/internal/calibrate/
func BenchmarkRun(b *testing.B) {
	for _, c := range []struct{ bitrate, scale float64 }{{800e6, 0.002}, {800e6, 0.01}, {800e6, 0.05}, {12e9, 0.01}, {12e9, 0.05}} {
		b.Run(fmt.Sprintf("bitrate=%gM/scale=%g", c.bitrate/1e6, c.scale), func(b *testing.B) {
			in, err := mmdl.Preset(2, "2", false)
			if err != nil {
				b.Fatal(err)
			}
			in.Throughput = c.bitrate
			scale := c.scale
			var res Result
			for b.Loop() {
				if res, err = Run(context.Background(), in, 5, Options{Scale: scale}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(res.Before.Predicted*1e3, "before-predicted-ms")
			b.ReportMetric(res.Before.Measured*1e3, "before-measured-ms")
			b.ReportMetric(res.After.Predicted*1e3, "after-predicted-ms")
			b.ReportMetric(res.After.Measured*1e3, "after-measured-ms")
			b.ReportMetric(res.Before.Fitted.Compute, "fitted-compute-Mclk")
			b.ReportMetric(res.Before.Fitted.Comm*1e3, "fitted-comm-KB")
			b.ReportMetric(res.After.Fitted.Compute, "refit-compute-Mclk")
			b.ReportMetric(res.After.Fitted.Comm*1e3, "refit-comm-KB")
		})
	}
}
