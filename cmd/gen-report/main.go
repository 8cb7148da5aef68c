package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"commlab/cmd/gen-report/internal/study"
	"commlab/cmd/gen-report/internal/study/allreduce"
	"commlab/cmd/gen-report/internal/study/goal"
	"commlab/cmd/gen-report/internal/study/logp"
	"commlab/cmd/gen-report/internal/study/mmdl"
	"commlab/cmd/gen-report/internal/study/nbc"
	"commlab/cmd/gen-report/internal/study/overlay"
	"commlab/internal/outfile"
)

// studies is the registry: every paper's study, in the order of the
// report's index. A new study is one line here.
var studies = []study.Study{
	allreduce.Study{},
	nbc.Study{},
	logp.Study{},
	mmdl.Study{},
	overlay.Study{},
	goal.Study{},
}

func main() {
	outfile.CleanOnSignal() // Ctrl-C leaves no temporary report behind
	if err := run(os.Stdout, os.Stderr, os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "gen-report") { // name the command once
			msg = "gen-report: " + msg
		}
		fmt.Fprintln(os.Stderr, msg)
		os.Exit(2)
	}
}

// run is the whole command, testable: args without the program name.
func run(stdout, stderr io.Writer, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "eval":
			return runEval(stdout, stderr, args[1:])
		case "merge":
			return runMerge(stdout, stderr, args[1:])
		case "topology":
			return overlay.RunTopology(stdout, stderr, args[1:])
		case "plan":
			return runPlan(stdout, stderr, args[1:])
		case "status":
			return runStatus(stdout, stderr, args[1:])
		case "readme":
			return runReadme(stdout, stderr, args[1:])
		}
	}
	return runReport(stdout, stderr, args)
}

// runEval dispatches `gen-report eval MODEL` to the study of that name.
func runEval(stdout, stderr io.Writer, args []string) error {
	var names []string
	for _, s := range studies {
		names = append(names, s.Name())
	}
	models := strings.Join(names, ", ")
	if len(args) == 0 {
		return fmt.Errorf("eval: name a model: %s", models)
	}
	for _, s := range studies {
		if s.Name() == args[0] {
			return s.Eval(stdout, stderr, args[1:])
		}
	}
	return fmt.Errorf("eval: unknown model %q (models: %s)", args[0], models)
}
