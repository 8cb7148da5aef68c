#!/bin/bash
# Submit commlab's report to Slurm, from a login node, in one line:
#
#   deploy/slurm/submit.sh -shards 64 -out /shared/commlab/report
#
# It builds gen-report once into a shared directory (or takes -bin), sizes
# each array task's --time and --mem from the studies' cost estimates
# (gen-report plan -sbatch), submits the shards that have no usable part
# yet as one job array (shard.sbatch: task K runs gen-report -shard K/N)
# and the merge as a job that runs after them all (merge.sbatch, with
# --dependency=afterany): the merge names the shards that failed, and
# running this script again with the same arguments submits only those.
# `make report-slurm SHARDS=64 OUT=DIR` runs it. See docs/cluster.md.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

usage() {
	cat <<'EOF'
usage: deploy/slurm/submit.sh -out DIR [options] [-- sbatch options for both jobs]

  -out DIR          where the report is written (a shared file system)       env OUT
  -shards N         array tasks, one shard each (default 64)                 env SHARDS
  -work DIR         shared directory for the binary, parts and logs
                    (default: DIR.slurm beside the report)                   env WORK
  -bin PATH         a gen-report binary on the shared file system
                    (default: WORK/bin/gen-report, built with go the first
                    time)                                                    env GEN_REPORT
  -rebuild          build WORK/bin/gen-report again (every shard then runs
                    again: parts of different builds never merge)
  -cpus C           cores per array task (default 4)                         env CPUS
  -partition P      the partition (default: the cluster's)                   env PARTITION, SBATCH_PARTITION
  -time T           time limit per array task, as sbatch --time takes it
                    (default: gen-report plan's, from the cost estimates)    env TIME, SBATCH_TIMELIMIT
  -mem M            memory per array task, as sbatch --mem takes it
                    (default: gen-report plan's)                             env MEM, SBATCH_MEM_PER_NODE
  -merge-time T     the merge job's time limit (default 1:00:00)             env MERGE_TIME
  -merge-mem M      the merge job's memory (default 4G)                      env MERGE_MEM
  -quick, -trials N, -seed S
                    the report's flags (gen-report -h)
  -dry-run          build and plan, print the sbatch commands, submit nothing

Run it again with the same arguments after a failure: it submits only the
shards without a usable part (WORK/resubmit.sh holds the exact command).
EOF
}

die() {
	echo "submit.sh: $*" >&2
	exit 2
}

orig=("$@")
out=${OUT:-}
shards=${SHARDS:-64}
work=${WORK:-}
bin=${GEN_REPORT:-}
cpus=${CPUS:-4}
partition=${PARTITION:-${SBATCH_PARTITION:-}}
time_limit=${TIME:-${SBATCH_TIMELIMIT:-}}
mem=${MEM:-${SBATCH_MEM_PER_NODE:-}}
merge_time=${MERGE_TIME:-1:00:00}
merge_mem=${MERGE_MEM:-4G}
report_flags=()
extra=()
dry_run=false
rebuild=false
while (($# > 0)); do
	case $1 in
	-out | -shards | -work | -bin | -cpus | -partition | -time | -mem | -merge-time | -merge-mem | -trials | -seed)
		(($# >= 2)) || die "$1 needs a value (see -h)"
		case $1 in
		-out) out=$2 ;;
		-shards) shards=$2 ;;
		-work) work=$2 ;;
		-bin) bin=$2 ;;
		-cpus) cpus=$2 ;;
		-partition) partition=$2 ;;
		-time) time_limit=$2 ;;
		-mem) mem=$2 ;;
		-merge-time) merge_time=$2 ;;
		-merge-mem) merge_mem=$2 ;;
		-trials | -seed) report_flags+=("$1" "$2") ;;
		esac
		shift 2
		;;
	-quick)
		report_flags+=(-quick)
		shift
		;;
	-dry-run)
		dry_run=true
		shift
		;;
	-rebuild)
		rebuild=true
		shift
		;;
	-h | -help | --help)
		usage
		exit 0
		;;
	--)
		shift
		extra=("$@")
		break
		;;
	*) die "unknown option $1 (see -h)" ;;
	esac
done

[[ -n $out ]] || die "give -out DIR, where the report goes (on a file system the compute nodes share)"
[[ $shards =~ ^[1-9][0-9]*$ ]] || die "-shards = $shards: want a whole number of array tasks ≥ 1"
[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "-cpus = $cpus: want a whole number of cores ≥ 1"
out=$(realpath -m -- "$out")
work=$(realpath -m -- "${work:-$out.slurm}")
mkdir -p "$work/bin" "$work/parts" "$work/logs"

# Built once per WORK: a binary built again from changed code is another
# build, whose merge refuses every part written so far.
if [[ -z $bin ]]; then
	bin=$work/bin/gen-report
	if $rebuild || [[ ! -x $bin ]]; then
		command -v go >/dev/null || die "go is not on PATH here: build gen-report where it is (CGO_ENABLED=0 go build -o DIR/gen-report ./cmd/gen-report) and give -bin DIR/gen-report"
		echo "building $bin"
		# A new file renamed over the old one: tasks still running keep theirs.
		(cd "$repo" && CGO_ENABLED=0 go build -o "$bin.new" ./cmd/gen-report)
		mv -f "$bin.new" "$bin"
	else
		echo "using $bin, built before (-rebuild builds it again from this checkout: then every shard runs again)"
	fi
fi
[[ -x $bin ]] || die "-bin $bin: not an executable gen-report"
bin=$(realpath -- "$bin")

# The per-task limits the studies' cost estimates give (and the report
# directory's check, as the merge will do it), unless given.
sizing=$("$bin" plan -shards "$shards" -cpus "$cpus" -out "$out" "${report_flags[@]}" -sbatch) || exit
read -r plan_time plan_mem <<<"$sizing"
time_opt=${time_limit:+--time=$time_limit}
mem_opt=${mem:+--mem=$mem}

# The command that submits what is still missing, for the merge job to
# name and for the user to run: the same run, this binary.
resubmit=("$here/submit.sh" -out "$out" -shards "$shards" -work "$work" -bin "$bin" -cpus "$cpus"
	${partition:+-partition "$partition"} ${time_limit:+-time "$time_limit"} ${mem:+-mem "$mem"}
	-merge-time "$merge_time" -merge-mem "$merge_mem" "${report_flags[@]}")
((${#extra[@]} == 0)) || resubmit+=(-- "${extra[@]}")
printf '%q ' "${resubmit[@]}" >"$work/resubmit.sh"
echo >>"$work/resubmit.sh"
export RESUBMIT="bash $work/resubmit.sh"

missing=$("$bin" status -shards "$shards" "${report_flags[@]}" -missing "$work/parts")

common=(--parsable ${partition:+--partition="$partition"} "${extra[@]}")
shard_cmd=(sbatch "${common[@]}" --array="$missing" --cpus-per-task="$cpus" "${time_opt:-$plan_time}" "${mem_opt:-$plan_mem}"
	--output="$work/logs/shard-%A_%a.out" "$here/shard.sbatch" "$bin" "$work/parts" "$shards" "${report_flags[@]}")
merge_cmd=(sbatch "${common[@]}" --cpus-per-task=1 --time="$merge_time" --mem="$merge_mem"
	--output="$work/logs/merge-%j.out" "$here/merge.sbatch" "$bin" "$work/parts" "$shards" "$out" "${report_flags[@]}")

if $dry_run; then
	[[ -z $missing ]] || printf '%q ' "${shard_cmd[@]}"
	[[ -z $missing ]] || echo
	[[ -z $missing ]] || merge_cmd=("${merge_cmd[@]:0:1}" --dependency=afterany:SHARDS_JOB_ID "${merge_cmd[@]:1}")
	printf '%q ' "${merge_cmd[@]}"
	echo
	exit 0
fi

if [[ -z $missing ]]; then
	echo "every shard of $shards has its part in $work/parts: submitting the merge only"
else
	job=$("${shard_cmd[@]}")
	job=${job%%;*}
	echo "submitted the shards: job $job, array $missing of $shards ($cpus cores, ${time_opt:-$plan_time}, ${mem_opt:-$plan_mem} each)"
	merge_cmd=("${merge_cmd[@]:0:1}" --dependency=afterany:"$job" "${merge_cmd[@]:1}")
fi
merge=$("${merge_cmd[@]}")
merge=${merge%%;*}
echo "submitted the merge: job $merge, into $out (its log: $work/logs/merge-$merge.out)"
echo "progress: $bin status -shards $shards ${report_flags[*]} $work/parts"
echo "after a failure, this submits only the missing shards: $RESUBMIT"
