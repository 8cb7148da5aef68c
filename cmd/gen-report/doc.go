// Command gen-report regenerates commlab's reports of the papers' parameter
// sweeps and evaluates single model points.
//
//	gen-report                       every report, full sweeps, into site/reports/
//	gen-report -quick -out DIR       reduced grids and trials (tests, CI)
//	gen-report -shard 2/8 -out DIR   one slice of every study's sweep, as DIR/part-2-of-8.json
//	gen-report merge -out DIR PARTS  render the reports from all the slices
//	gen-report -site-base https://commlab.example.org/ -out DIR
//	                                 the links from charts to scenes point at a hosted
//	                                 site (default ../, for reports in site/reports/)
//	gen-report eval allreduce -P 4096 -trials 30 -seed 1
//	                                 one point as JSON; every model parameter is a flag
//	gen-report eval logp -P 3 -n 1000 -L 10 -o 1 -g 1 -sigma 2 -trials 200000 -seed 1
//	                                 E[T] at L_s = μ (or -Ls X), the optimal L_s, and the
//	                                 closed forms where the plan is a star (P = 2, 3)
//	gen-report eval nbc -nodes 32 -msg 500KB -matrix 30000 -method tcc
//	                                 one non-blocking collectives case: the total time, its
//	                                 parts and the speedup over the method's own baseline
//	gen-report eval mmdl -procset 2 -load 2 -rounds 5 -compute 0.294 -comm 0.0034
//	                                 T, the formula's total, the simulated makespan, R* and
//	                                 the flows; -mhz and -tasks give any instance
//	gen-report eval overlay -nodes 64 -procs 128 -switches 6 -policy topology -cache 8
//	                                 one Integer Sort over the overlay: time, connections,
//	                                 relays, shortcuts opened and evicted, buffer memory
//	gen-report eval goal -f FILE.goal -L 2500 -o 1500 -g 1000 -G 6 -O 0 -S 65535
//	                                 a LogGOPSim GOAL schedule run with LogGOPSim's rules: the
//	                                 maximum finishing time, its rank, counts, the critical
//	                                 path; -noise-trace F [-noise-cosched], -os-*, -net-* add
//	                                 noise (-seed), -trace out.json writes the Chrome trace
//	gen-report topology measure --preset experiment --seed 1 --out DIR
//	gen-report topology infer --rtt DIR/rtt.csv --interference DIR/interference.csv
//	                                 simulated measurements, and the inferred switch tree
//
// Reports are offline and byte-stable: echarts is vendored and written
// beside the pages, chart IDs are fixed, and the same flags give the same
// bytes, but for what is measured live on the machine that writes the
// report (the MMDL calibration loop: mmdl-live.html and data/live-*). Each
// chart links to its data as CSV and JSON. docs/reports.md describes the
// pages.
package main
