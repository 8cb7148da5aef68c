//go:build unix

package outfile

import (
	"os"
	"syscall"
)

// cleanSignals end a command and leave no temporary file: Ctrl-C, kill,
// the terminal closing (SIGHUP) and Ctrl-\ (SIGQUIT).
var cleanSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

const quitSignal = syscall.SIGQUIT
