#!/bin/sh
# timeout: 90
# matrix: shard
# osn reads its instance through the measured CPUs' trace_pipe_raw,
# opened once and kept open (tools/src/reader.c): while osn top -c 1
# collects, it holds CPU 1's file and no other CPU's, the same open file
# from one read to the next (its descriptor and inode), and at the end
# it lets it go, so that its instance is removed.  (libtracefs'
# tracefs_iterate_raw_events() opened and closed every CPU's file at
# each read: between reads osn held none.)
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
require_cpus 2
cli_setup
# pipes PID: "FD:INODE:CPU" of each trace_pipe_raw PID has open
pipes() {
	for _f in /proc/"$1"/fd/*; do
		_l=$(readlink "$_f" 2>/dev/null) || continue
		case $_l in
		*/per_cpu/cpu*/trace_pipe_raw)
			_c=${_l%/trace_pipe_raw}
			echo "${_f##*/}:$(stat -L -c %i "$_f"):${_c##*/cpu}" ;;
		esac
	done | sort
}
# Ended by SIGINT once both looks are taken: under arm64 TCG the looks
# themselves (a readlink and a stat a descriptor) took so long that a
# -d 6 run had ended before the second (trixie-arm64, 29 November).
cli_start "$CLI_OUT/top.txt" top -c 1 -d 120 -q -D
cli_wait_counting
sleep 1.5
p1=$(pipes "$CLI_PID")
sleep 2.2
p2=$(pipes "$CLI_PID")
alive=0
kill -0 "$CLI_PID" 2>/dev/null && alive=1
kill -INT "$CLI_PID" 2>/dev/null
info "trace_pipe_raw held: '$(echo $p1)', then '$(echo $p2)'"
assert_eq "$alive" 1 "osn still running after the second look"
[ -n "$p1" ] || fail "osn holds no trace_pipe_raw between reads"
assert_eq "$(echo "$p1" | wc -l)" 1 "trace_pipe_raw files held for -c 1"
assert_eq "${p1##*:}" 1 "the CPU of the file held"
assert_eq "$p2" "$p1" "the file held two reads later"
cli_wait_end
assert_eq "$RC" 0 "exit status (SIGINT)"
assert_eq "$(cli_instances)" "" "instances left"
exit 0
