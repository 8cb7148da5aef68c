package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"commlab/internal/outfile"
	"commlab/internal/shown"
)

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
			return runTopology(stdout, stderr, args[1:])
		case "readme":
			return runReadme(stdout, stderr, args[1:])
		}
	}
	return runReport(stdout, stderr, args)
}

// flags is a flag set that reports a bad flag as one line (the caller
// prints it) and prints the usage only when asked with -h.
type flags struct {
	*flag.FlagSet
	stderr io.Writer
	usage  string
}

func newFlagSet(name string, stderr io.Writer, usage string) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // parse prints it, for -h only
	return &flags{fs, stderr, usage}
}

// parse parses args; with allowArgs false, leftover arguments are errors.
func (f *flags) parse(args []string, allowArgs bool) error {
	err := f.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(f.stderr, "usage: %s\n", f.usage)
		f.SetOutput(f.stderr)
		f.PrintDefaults()
		f.SetOutput(io.Discard)
		return err
	}
	if err != nil {
		return fmt.Errorf("%s: %s (see -h)", f.Name(), cutLong(err.Error()))
	}
	if !allowArgs && f.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q (see -h)", f.Name(), shown.Cut(f.Arg(0)))
	}
	return nil
}
