package stats

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkTQuantile(b *testing.B) {
	for _, df := range []int{9, 99, 999, 99999} {
		b.Run("df="+itoa(df), func(b *testing.B) {
			for b.Loop() {
				TQuantile(0.975, df)
			}
		})
	}
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func sample(n int) (x, y []float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range n {
		u := rng.ExpFloat64()
		x = append(x, 1+0.8*u+rng.Float64())
		y = append(y, 1+u)
	}
	return
}

func BenchmarkMeanT1000(b *testing.B) {
	x, _ := sample(1000)
	for b.Loop() {
		if _, err := MeanT(x); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRatio1000(b *testing.B) {
	x, y := sample(1000)
	for b.Loop() {
		if _, err := RatioDelta(x, y); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFieller1000(b *testing.B) {
	x, y := sample(1000)
	for b.Loop() {
		if _, err := Fieller(x, y); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRatioBootstrap(b *testing.B) {
	for _, n := range []int{30, 1000} {
		x, y := sample(n)
		b.Run("n="+itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := RatioBootstrap(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkWilson(b *testing.B) {
	for b.Loop() {
		Wilson(3, 1000)
	}
}
