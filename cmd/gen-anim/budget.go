//go:build !(js && wasm)

package main

import "commlab/cmd/internal/budget"

// cliBudget is the budget of the runs gen-anim builds: the commands' (half
// the machine's memory, 10 minutes of engine time; none with -force), in
// place of the page's. Tests put a fixed machine in its place.
var cliBudget = budget.CLI
