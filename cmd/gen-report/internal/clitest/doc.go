// Package clitest holds what gen-report's command tests share: goldens
// under testdata/ rewritten with -update, a command run into buffers, and
// the checks that bad input gets one line of error and no output.
package clitest
