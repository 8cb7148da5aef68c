// Package goal is gen-report's side of LogGOPSim's GOAL schedules:
// `gen-report eval goal` runs a schedule from elsewhere with LogGOPSim's
// rules (commlab/engine/goal) and prints the maximum finishing time, its
// rank, the counts and the critical path as JSON. The scene is
// scene/schedule.
package goal
