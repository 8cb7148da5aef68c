package logp

import "math"

// The numbers papers/002 (slides) publishes, in one place: the report's
// study and the LogP scene both read them from here. All are in the
// slides' time unit, one addition, and all are read off the two plots of
// E[T] against the planning latency L_s ("平均計算時間の変化"), whose σ,
// μ, o, g and n the slides do not give.
const (
	// SlidesExcessP2 is the P = 2 plot's excess: planned with the mean
	// latency, which is optimal there (L_s* = μ), the expected time is
	// 0.7 above LogP's prediction with the mean, T_s(μ).
	SlidesExcessP2 = 0.7
	// SlidesOffsetP3 is the P = 3 plot's optimum: L_s* = μ + 0.76.
	SlidesOffsetP3 = 0.76
	// SlidesExcessP3 is the P = 3 plot's expected time at that optimum:
	// E[T](L_s*) = T_s(μ) + 0.87.
	SlidesExcessP3 = 0.87
)

// The slides' own words for the numbers above.
const (
	SlidesWordsP2 = "L_s = L_ave (Lの平均) の時が最適スケジュール; 予想計算時間は従来のLogPでLの平均を用いた場合+0.7"
	SlidesWordsP3 = "L_s がLの平均より 0.76 大きいとき最適; 平均計算時間は、従来のLogPでLの平均で計算した場合より、0.87 大きい"
)

// SlidesSigmaP2 is the σ the P = 2 plot implies, which the slides do not
// state: for P = 2, E[T](L_s) = T_s(L_s) + E[max(0, L − L_s)] is least at
// L_s = μ, where the excess over T_s(μ) is σ/√(2π) (ExpectedP2; the
// truncation at 0 is 5.7σ away on the default machine and changes
// nothing), so "+0.7" means σ = 0.7·√(2π) ≈ 1.7546.
func SlidesSigmaP2() float64 { return SlidesExcessP2 * math.Sqrt(2*math.Pi) }
