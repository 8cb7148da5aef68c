package cli

import (
	"flag"
	"fmt"

	"commlab/cmd/internal/budget"
	"commlab/engine/cost"
)

// AddForce adds -force: run even when the estimate is over the budget.
func AddForce(fs *flag.FlagSet) *bool {
	return fs.Bool("force", false, "run even when the estimate is over the budget ("+budget.Describe()+")")
}

// Budget is budget.CLI; tests put a fixed machine in its place.
var Budget = budget.CLI

// CheckCost refuses a run over the commands' budget before it allocates
// anything, with the estimate's message (the parameters that drive it and
// what would fit).
func CheckCost(cmd string, c cost.Cost, force bool) error {
	if err := c.Check(Budget(force)); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	return nil
}

// MaxTrials bounds -trials: enough for any standard error anyone needs,
// small enough that a typo does not run for a day.
const MaxTrials = 1_000_000
