#!/bin/sh
# timeout: 120
# matrix: shard
# Bad options, a missing module, no root, a knob the module rejects:
# one line on stderr starting with "osn: ", exit status 1, nothing left.
. "$OSN_TESTS/guest/lib.sh"
. "$OSN_TESTS/guest/cli/cli.sh"
[ -x "$OSN" ] || skip "tools/osn is not in the guest"
mod_loaded osn && fail "osn already loaded (a previous test leaked it)"
E=/tmp/osn-cli-err
on_exit rm -f "$E"

# expect_err EXPECTED_ERE ARGS...: osn ARGS fails with one matching line.
expect_err() {
	_want=$1
	shift
	"$OSN" "$@" >/dev/null 2>"$E"
	_rc=$?
	info "osn $* -> $_rc: $(cat "$E")"
	assert_eq "$_rc" 1 "exit status of osn $*"
	cli_one_line "$E" || fail "osn $*: not one 'osn: ' line: $(cat "$E")"
	grep -Eq -- "$_want" "$E" || fail "osn $*: '$(cat "$E")' !~ /$_want/"
}

# module not loaded (built into the kernel, it always is: tests/intree/)
osn_builtin ||
	expect_err "osn: module not loaded: run 'modprobe osn'" top -d 1

cli_setup
before=$(cli_knobs)

# bad option values
expect_err "cpu 99 does not exist" top -c 99
expect_err "cpu 64 does not exist" hist -c 0-64
expect_err "-d '5x': unknown unit 'x'" top -d 5x
expect_err "-d '-3' is negative" hist -d -3
expect_err "--warm-up '1y': unknown unit" top --warm-up 1y
expect_err "-b must be >= 1 us" hist -b 0
expect_err "-E must be 10..9999999" hist -E 3
expect_err "-b is an option of osn hist" top -b 5
expect_err "runtime must be >= 100 us" top -r 50
expect_err "runtime must be <= period" top -p 1000 -r 2000
expect_err "unknown option --bogus" top --bogus
expect_err "unknown command 'bottom'" bottom
expect_err "-P 'q:1' is not a priority" top -P q:1
expect_err "--filter needs a previous -e" top --filter 'x>1'

# output files that cannot be written fail before anything runs
expect_err "cannot write /nonexistent/x.json: No such file or directory" top -d 1 --json=/nonexistent/x.json
expect_err "cannot write /nonexistent/t.txt: No such file or directory" hist -d 1 -t /nonexistent/t.txt

# not root: su to a user added for the test
cp /etc/passwd /tmp/osn-cli-passwd
on_exit cp /tmp/osn-cli-passwd /etc/passwd
echo "osnuser:x:65534:65534:osn test:/:/bin/sh" >>/etc/passwd
su -s /bin/sh osnuser -c "$OSN top -d 1" >/dev/null 2>"$E"
rc=$?
assert_eq "$rc" 1 "exit status as nobody"
cli_one_line "$E" || fail "as nobody: $(cat "$E")"
grep -q "must be run as root" "$E" || fail "as nobody: $(cat "$E")"

# a knob the module rejects: a 2 s runtime with interrupts off
echo OSNOISE_IRQ_DISABLE >"$OSN_PARAMS/options" || fail "set OSNOISE_IRQ_DISABLE"
"$OSN" top -p 2000000 -r 2000000 -d 2 -q >/dev/null 2>"$E"
rc=$?
info "rejected knob -> $rc: $(cat "$E")"
assert_eq "$rc" 1 "exit status with a rejected knob"
grep -q "^osn: the module rejected runtime_us=2000000: " "$E" ||
	fail "rejected knob message: $(cat "$E")"
echo NO_OSNOISE_IRQ_DISABLE >"$OSN_PARAMS/options"

# nothing left behind by any of these
assert_eq "$(cli_knobs)" "$before" "knobs after the failed runs"
assert_eq "$(cli_instances)" "" "instances left"
assert_eq "$(cli_osn_enabled)" "" "osn events left enabled"
exit 0
