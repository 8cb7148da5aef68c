package overlay

import (
	"fmt"
	"io"

	"commlab/cmd/gen-report/internal/cli"
	engine "commlab/engine/overlay"
	"commlab/engine/sweep"
)

// overlayEval is the JSON that `eval overlay` prints: one Integer Sort run
// (engine/overlay.RunIS). Times in seconds, memory in bytes.
type overlayEval struct {
	Model  string        `json:"model"`
	Params engine.Params `json:"params"`
	Seed   uint64        `json:"seed"`
	engine.Result
}

func evalOverlay(stdout, stderr io.Writer, args []string) error {
	p := engine.Default()
	fs := cli.NewFlagSet("eval overlay", stderr, "gen-report eval overlay [flags]")
	cli.BindParams(fs.FlagSet, &p)
	seed := fs.Uint64("seed", 1, "random seed (keys, random connections); the same seed gives the same output byte for byte")
	force := cli.AddForce(fs.FlagSet)
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return fs.ParamError(err)
	}
	if err := cli.CheckCost("eval overlay", engine.Estimate(p, false), *force); err != nil {
		return err
	}
	r, err := engine.RunIS(p, sweep.RNG(*seed, 0, 0), nil)
	if err != nil {
		return fmt.Errorf("eval overlay: %w", err)
	}
	return fs.WriteJSON(stdout, overlayEval{Model: "overlay", Params: p, Seed: *seed, Result: r})
}
