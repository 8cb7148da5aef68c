//go:build !unix

package outfile

import (
	"os"
	"syscall"
)

// cleanSignals end a command and leave no temporary file: Ctrl-C and kill.
var cleanSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// quitSignal: no SIGQUIT to keep the meaning of here.
var quitSignal os.Signal = nil
