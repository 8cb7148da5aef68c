# commlab's verbs. New here? `make serve`, then open http://127.0.0.1:8080.
# `make help` lists the verbs; README.md explains them.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

GO ?= go
GOROOT := $(shell $(GO) env GOROOT)
# The Go-to-JavaScript glue must come from the toolchain that builds the
# wasm, so it is copied at build time and never committed.
WASM_EXEC := $(GOROOT)/lib/wasm/wasm_exec.js
WASM_RUNNER := $(GOROOT)/lib/wasm/go_js_wasm_exec

SITE := site
# The wasm's window.commlab.version() names the checkout it was built from
# (cmd/serve -build stamps it the same way).
REVISION := $(or $(shell git describe --always --dirty --abbrev=12 2>/dev/null),devel)
REPORTS := $(SITE)/reports
ADDR ?= 127.0.0.1:8080

.PHONY: help build wasm site thumbs readme report report-quick report-slurm serve test fmt vet test-go test-wasm test-slurm test-report test-long e2e bench clean vendor-echarts

## help: list the verbs
help:
	@grep -E '^## ' $(MAKEFILE_LIST) | sed 's/^## /  make /'

## build: compile everything natively (no cgo) and the visualizer for js/wasm
build:
	CGO_ENABLED=0 $(GO) build ./...
	GOOS=js GOARCH=wasm $(GO) build -o /dev/null ./wasm/

## wasm: build site/commlab.wasm and copy wasm_exec.js beside it (both untracked)
wasm:
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w -X main.revision=$(REVISION)' -o $(SITE)/commlab.wasm ./wasm/
	cp $(WASM_EXEC) $(SITE)/wasm_exec.js

## site: the whole deployable site: wasm, thumbnails and the full reports
site: wasm thumbs report

## report: regenerate the papers' full sweeps into site/reports (a few minutes)
report:
	$(GO) run ./cmd/gen-report -out $(REPORTS)

## report-quick: smaller grids and fewer trials into site/reports (seconds)
report-quick:
	$(GO) run ./cmd/gen-report -quick -out $(REPORTS)

## report-slurm: submit the full report to Slurm from a login node: SHARDS (64) array tasks and their merge into OUT (PARTITION, TIME, MEM, CPUS too; deploy/slurm/submit.sh -h, docs/cluster.md)
SHARDS ?= 64
report-slurm:
	@if [[ -z "$${OUT:-}" ]]; then echo "make report-slurm: give OUT=DIR, where the report goes (on a file system the compute nodes share)"; exit 2; fi
	deploy/slurm/submit.sh -shards $(SHARDS) -out "$$OUT"

## readme: rewrite the "paper vs commlab" table at the end of each paper's docs/PAGE.md from the full report in site/reports (run make report first; TestReadmeTables fails while one is stale)
readme:
	$(GO) run ./cmd/gen-report readme -from $(REPORTS) -docs docs

## thumbs: the index page's scene thumbnails (480x270 PNGs of each scene's last frame) and the scene pages' stills (960x540, their opening view, each theme) into site/thumbs
thumbs:
	$(GO) run ./cmd/gen-anim -thumbs $(SITE)/thumbs

## serve: serve the site on http://127.0.0.1:8080 (ADDR=...) at once, building in the background what it lacks: the wasm, the thumbnails and stills, a quick report, then the full report
# cmd/serve -build answers from its first second and builds the rest
# itself, one step at a time: commlab.wasm, the thumbnails, a quick report if there is none,
# then the full report (skipped when one is in place), which
# replaces the quick one as a whole directory. Pages whose files are not
# built yet say what is being built and reload themselves; the report pages
# say when a full report is on its way. GO is passed on for its go commands.
serve:
	GO=$(GO) $(GO) run ./cmd/serve -addr $(ADDR) -dir $(SITE) -build

# step runs one verb of `make test` and says how long it took.
define step
@echo "=== $(1)"; start=$$SECONDS; $(MAKE) $(1); echo "=== $(1): ok in $$((SECONDS - start))s"
endef

## test: everything CI checks, in order, stopping at the first failure
test:
	$(call step,fmt)
	$(call step,vet)
	$(call step,test-go)
	$(call step,test-wasm)
	$(call step,test-report)

## fmt: fail if any Go file is not gofmt-formatted
fmt:
	@files=$$(find . \( -name node_modules -o -name .git \) -prune -o -name '*.go' -print | xargs -r gofmt -l); \
	if [[ -n "$$files" ]]; then echo "gofmt needed:"; echo "$$files"; exit 1; fi

## vet: go vet natively and for js/wasm (the browser code only type-checks there)
vet:
	CGO_ENABLED=0 $(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

## test-go: the native tests, except the browser tests (make e2e runs those) and the Slurm test (make test-slurm)
# cmd/gen-report's tests run the quick report several times (about 6
# minutes on 2 cores beside the others): the timeout leaves them room
# beyond go test's default 10 minutes.
test-go:
	CGO_ENABLED=0 $(GO) test -timeout 20m $$($(GO) list ./... | grep -v '/cmd/serve/e2e$$')

## test-wasm: the engine's tests (and internal/permsort's, whose sort differs there) under js/wasm on node (same numbers as native)
test-wasm:
	@if ! command -v node >/dev/null; then \
		if [[ "$${CI:-}" == true ]]; then echo "js/wasm engine tests need node (apt-get install nodejs)"; exit 1; fi; \
		echo "skipping js/wasm engine tests: node not found (apt-get install nodejs)"; exit 0; \
	fi; \
	echo GOOS=js GOARCH=wasm $(GO) test -exec=$(WASM_RUNNER) ./engine/... ./internal/permsort/; \
	GOOS=js GOARCH=wasm $(GO) test -exec="$(WASM_RUNNER)" ./engine/... ./internal/permsort/

## test-slurm: the report through a real Slurm: a one-node cluster (slurm-wlm, munge; run as root) takes the quick report as 4 array tasks and a merge, compared byte for byte with a local one (6-7 min; not in make test)
test-slurm:
	COMMLAB_SLURM=1 $(GO) test -count=1 -v -timeout 20m -run TestReportThroughSlurm ./deploy/slurm/

## test-report: a quick report into a temporary directory, then the browser tests on it
test-report:
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	echo $(GO) run ./cmd/gen-report -quick -out "$$tmp/reports"; \
	$(GO) run ./cmd/gen-report -quick -out "$$tmp/reports"; \
	COMMLAB_REPORTS="$$tmp/reports" $(MAKE) e2e

## test-long: the long mode: every fuzz test (func FuzzX in a _test.go) fuzzed for FUZZTIME (30s) each, one after another; not part of make test, which runs their seeds
# go test -fuzz takes one target per package run, so each runs alone. The
# targets are found by name, so a new fuzz test joins without an edit here.
# -fuzzminimizetime bounds the minimization of each input that finds new
# code (60 s by default): while the fuzzer minimizes, it reports nothing,
# so a long minimization looked like a stall (engine/goal's FuzzRead). An
# input that fails is written to the package's testdata/fuzz/ (commit it
# with the fix: it then runs in every go test).
FUZZTIME ?= 30s
test-long:
	@n=0; start=$$SECONDS; \
	for file in $$(find . -name '*_test.go' -not -path './.*' -not -path '*/node_modules/*' -print0 | xargs -0 grep -lE '^func Fuzz[A-Za-z0-9_]*\(' | sort); do \
		for name in $$(grep -oE '^func Fuzz[A-Za-z0-9_]*' "$$file" | sed 's/^func //'); do \
			echo "=== $$name ($$(dirname $$file))"; \
			$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 10s "$$(dirname $$file)/" || exit 1; \
			n=$$((n + 1)); \
		done; \
	done; \
	echo "=== test-long: $$n fuzz tests, $(FUZZTIME) each: ok in $$((SECONDS - start))s"

## e2e: browser tests in headless Chromium (cmd/serve/e2e; builds its own wasm)
# They take about 5 minutes on 2 busy cores; the timeout turns a hung page into a
# failure (go test's default of ten minutes is too close to the suite's length).
e2e:
	$(GO) test -count=1 -timeout 12m ./cmd/serve/e2e/...

## bench: the Go benchmarks (engine, render, scenes), then the page's numbers in headless Chromium against the issue's targets, and the wasm size each scene costs
# The page numbers come from TestPageNumbers in cmd/serve/e2e, run in go
# test's local directory mode (no package argument) so that the table it
# prints reaches the terminal; COMMLAB_BENCH=1 is what lets it run at all.
# It also reads the display-list benchmarks from the Go benchmarks' output
# ($COMMLAB_BENCH_GO), so one table holds every number the issue sets.
# TestWasmSizePerScene then links the wasm once more per scene, without it.
bench:
	@out=$$(mktemp); trap 'rm -f "$$out"' EXIT; \
	echo "$(GO) test -run '^$$' -bench . -benchmem ./engine/... ./render/... ./scene/..."; \
	$(GO) test -run '^$$' -bench . -benchmem ./engine/... ./render/... ./scene/... | tee "$$out"; \
	echo "=== page numbers and wasm size per scene: cd cmd/serve/e2e && COMMLAB_BENCH=1 $(GO) test -run '^(TestPageNumbers|TestWasmSizePerScene)$$'"; \
	cd cmd/serve/e2e && COMMLAB_BENCH=1 COMMLAB_BENCH_GO="$$out" $(GO) test -count=1 -timeout 25m -run '^(TestPageNumbers|TestWasmSizePerScene)$$'

## clean: remove the generated site files (wasm, wasm_exec.js, thumbnails, reports)
clean:
	rm -rf $(SITE)/commlab.wasm $(SITE)/wasm_exec.js $(SITE)/thumbs $(REPORTS)

## vendor-echarts: refresh the echarts copy that cmd/gen-report embeds (needs npm)
# HOOK(gen-report): this recipe belongs to cmd/gen-report's owner; change it there.
vendor-echarts:
	sh cmd/gen-report/internal/report/vendor-echarts.sh
