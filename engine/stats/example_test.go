package stats_test

import (
	"encoding/json"
	"fmt"

	"commlab/engine/stats"
)

// A mean with its Student-t interval.
func ExampleMeanT() {
	iv, err := stats.MeanT([]float64{2.51, 2.62, 2.48, 2.70, 2.55, 2.59})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(iv)
	fmt.Printf("relative half-width %.1f %%\n", 100*iv.Relative())
	// Output:
	// 2.575 [2.491, 2.659] (95 % t, n = 6)
	// relative half-width 3.2 %
}

// Common random numbers: trial i of both variants draws the same noise,
// so the ratio of their means is known far better than either mean. The
// three intervals differ where the ratio is skewed: Fieller's leans to the
// side the denominator's own spread allows.
func ExamplePaired_Ratio() {
	proposed := []float64{2.1, 2.9, 2.2, 4.0, 2.4, 3.1, 2.0, 2.6}
	conventional := []float64{3.0, 4.4, 3.1, 6.2, 3.5, 4.6, 2.9, 3.8}
	var p stats.Paired
	for i := range proposed {
		p.Add(proposed[i], conventional[i])
	}
	delta, _ := p.Ratio()
	fieller, _ := p.Fieller()
	boot, _ := stats.RatioBootstrap(proposed, conventional)
	fmt.Println(delta)
	fmt.Println(fieller)
	fmt.Println(boot)
	// Output:
	// 0.6762 [0.6562, 0.6962] (95 % ratio-delta-t, n = 8)
	// 0.6762 [0.6598, 0.702] (95 % fieller, n = 8)
	// 0.6762 [0.6622, 0.6932] (95 % bootstrap-percentile, n = 8)
}

// A hit rate: how often a window met a run, 0 times in 200 trials, is not
// "never": the Wilson interval says up to 1.9 %.
func ExampleWilson() {
	iv, _ := stats.Wilson(0, 200)
	fmt.Printf("%.4f [%.4f, %.4f]\n", iv.Mean, iv.Lo, iv.Hi)
	// Output:
	// 0.0000 [0.0000, 0.0188]
}

// The interval as the reports' CSV and JSON carry it.
func ExampleInterval() {
	iv, _ := stats.MeanT([]float64{10, 12, 11, 13})
	b, _ := json.Marshal(iv)
	fmt.Println(string(b))
	// Output:
	// {"mean":11.5,"n":4,"lo":9.445739743239479,"hi":13.554260256760521,"level":0.95,"method":"t"}
}

func ExampleTQuantile() {
	fmt.Printf("%.4f %.4f %.4f\n", stats.TQuantile(0.975, 9), stats.TQuantile(0.975, 29), stats.TQuantile(0.995, 999))
	// Output:
	// 2.2622 2.0452 2.5808
}
