package render

import (
	"image/color"
	"math"
	"testing"
)

// TestPlayheadStandsOut: the playhead's colour is none of the colours a
// legend or a bar can have (issue 14: it was the OS-jitter stall's
// vermilion in light and nearly the stall's orange in dark), at least 80
// apart in RGB from every other colour of its theme and the heat ramp.
func TestPlayheadStandsOut(t *testing.T) {
	for _, name := range ThemeNames {
		th, _ := ThemeByName(name)
		others := map[string]color.RGBA{
			"Background": th.Background, "Panel": th.Panel, "Ink": th.Ink, "Muted": th.Muted, "Rule": th.Rule,
			"Compute": th.Compute, "Send": th.Send, "Receive": th.Receive, "Stall": th.Stall, "Idle": th.Idle,
			"Butterfly": th.Butterfly, "Redundant": th.Redundant, "Adopted": th.Adopted, "Noise": th.Noise, "Critical": th.Critical,
		}
		for i, c := range th.Heat {
			others["Heat["+string(rune('0'+i))+"]"] = c
		}
		for k, c := range others {
			d := math.Sqrt(sq(th.Playhead.R, c.R) + sq(th.Playhead.G, c.G) + sq(th.Playhead.B, c.B))
			if d < 80 {
				t.Errorf("%s: Playhead %v is %.0f from %s %v, want at least 80", name, th.Playhead, d, k, c)
			}
		}
	}
}

func sq(a, b uint8) float64 { d := float64(a) - float64(b); return d * d }
