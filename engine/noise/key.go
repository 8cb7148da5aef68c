package noise

import "math/rand/v2"

// Key names one trial's noise: all of that trial's random numbers are
// hashes of the key and their coordinates.
type Key struct{ k0, k1 uint64 }

// NewKey draws a key from the caller's source (two Uint64 draws).
func NewKey(rng *rand.Rand) Key { return Key{rng.Uint64(), rng.Uint64()} }

// KeyOf builds a key from two words, for tests and for scenes that pin one.
func KeyOf(k0, k1 uint64) Key { return Key{k0, k1} }

// mix is SplitMix64's output function (Steele, Lea, Flood 2014): a
// bijection whose output bits each depend on every input bit.
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Uint64 returns the stream's word at coordinates (a, b, c). Distinct
// coordinates give independent-looking words; the same ones give the same
// word, whatever was asked before.
//
// It is SplitMix64 with the counter k0 + a·γa + b·γb + c·γc: for a fixed
// (a, b) the words along c are one SplitMix64 stream (γc odd), and streams
// of different (a, b) start at offsets no coordinates in range can reach
// (b < 2^26 processes, c < 2^40 buckets). One mix per word keeps the noise
// cheap enough for the butterfly's inner loop.
func (k Key) Uint64(a, b, c uint64) uint64 {
	return mix(k.k0 + a*0xd1b54a32d192ed03 + b*0xaef17502108ef2d9 + c*0x9e3779b97f4a7c15 + k.k1)
}

// Float64 returns a uniform number in [0, 1) with 53 random bits.
func (k Key) Float64(a, b, c uint64) float64 {
	return float64(k.Uint64(a, b, c)>>11) * 0x1p-53
}

// Stream tags keep the coordinates of the two models apart.
const (
	streamPhase uint64 = 1 + iota
	streamNetCount
	streamNetPos
)
