#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# abi-check.sh - include/osn/osn_abi.h is the one list of osn's names; the
# module spells them as C identifiers, which the header cannot generate,
# so this host test of `make check` compares them:
#   - events: the TRACE_EVENT_FN()s of kernel/osn_trace.h, and TRACE_SYSTEM,
#     against OSN_EV_* and OSN_EVENT_SYSTEM;
#   - fields: each event's __field/__string/__array/__dynamic_array names,
#     in order, against its OSN_FIELDS_<EVENT>;
#   - parameters: every module_param_cb/_named/_string and OSN_U64_KNOB of
#     kernel/*.c against OSN_KNOB_* and OSN_PARAM_* (but OSN_PARAM_DIR).
# The header's values are read by compiling it (string concatenation and
# all), not by parsing it.  Ends with "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
hdr=$root/include/osn/osn_abi.h
kdir=${OSN_ABI_KERNEL_DIR:-$root/kernel}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RESULT_PREFIX=abi/
. "$root/tests/result.sh"

# "NAME value" for every string macro of the header whose name matches $1.
header_values() {
	local names
	names=$(gcc -E -dM -x c "$hdr" | awk -v re="$1" '$1 == "#define" && $2 ~ re { print $2 }')
	{
		echo '#include <stdio.h>'
		echo "#include \"$hdr\""
		echo 'int main(void) {'
		for n in $names; do echo "printf(\"%s %s\\n\", \"$n\", $n);"; done
		echo 'return 0; }'
	} >"$tmp/v.c"
	gcc -o "$tmp/v" "$tmp/v.c" && "$tmp/v"
}

# ---- events and fields -----------------------------------------------------
awk '
/^TRACE_EVENT(_FN)?\(/ { ev = $0; sub(/^TRACE_EVENT(_FN)?\(/, "", ev); sub(/,.*/, "", ev); order[++n] = ev; next }
/__field\(|__string\(|__array\(|__dynamic_array\(/ && ev != "" {
	l = $0
	if (l ~ /__field\(/)  { sub(/.*__field\([^,]*,[ \t]*/, "", l) }
	if (l ~ /__string\(/) { sub(/.*__string\([ \t]*/, "", l) }
	if (l ~ /__array\(/)  { sub(/.*__array\([^,]*,[ \t]*/, "", l) }
	if (l ~ /__dynamic_array\(/) { sub(/.*__dynamic_array\([^,]*,[ \t]*/, "", l) }
	sub(/[,) \t].*/, "", l)
	fields[ev] = fields[ev] (fields[ev] == "" ? "" : " ") l
}
END { for (i = 1; i <= n; i++) print order[i] " " fields[order[i]] }
' "$kdir/osn_trace.h" >"$tmp/module-events"
header_values '^OSN_FIELDS_' >"$tmp/header-fields" || { echo "abi-check: cannot compile $hdr"; exit 2; }
header_values '^OSN_EV_' | awk '{ print $2 }' | sort >"$tmp/header-events"

awk '{ print $1 }' "$tmp/module-events" | sort >"$tmp/module-event-names"
if cmp -s "$tmp/header-events" "$tmp/module-event-names"; then
	result events ok
else
	result events "osn_trace.h and OSN_EV_* differ: $(diff "$tmp/header-events" "$tmp/module-event-names" | grep '^[<>]' | tr '\n' ' ')"
fi

sys=$(sed -n 's/^#define TRACE_SYSTEM[ \t]*//p' "$kdir/osn_trace.h")
hsys=$(header_values '^OSN_EVENT_SYSTEM$' | awk '{ print $2 }')
[ "$sys" = "$hsys" ] && result system ok ||
	result system "TRACE_SYSTEM is '$sys', OSN_EVENT_SYSTEM '$hsys'"

while read -r ev fields; do
	macro=OSN_FIELDS_$(echo "$ev" | tr a-z A-Z)
	want=$(awk -v m="$macro" '$1 == m { $1 = ""; sub(/^ /, ""); print }' "$tmp/header-fields")
	if [ -z "$want" ]; then
		result "fields/$ev" "no $macro in the header"
	elif [ "$want" = "$fields" ]; then
		result "fields/$ev" ok
	else
		result "fields/$ev" "osn_trace.h has '$fields', $macro '$want'"
	fi
done <"$tmp/module-events"

# ---- parameters ------------------------------------------------------------
cat "$kdir"/*.c | sed -n \
	-e 's/^module_param_cb(\([a-z_0-9]*\),.*/\1/p' \
	-e 's/^module_param_named(\([a-z_0-9]*\),.*/\1/p' \
	-e 's/^module_param_string(\([a-z_0-9]*\),.*/\1/p' \
	-e 's/^OSN_U64_KNOB(\([a-z_0-9]*\),.*/\1/p' | grep -vx name | sort >"$tmp/module-params"
header_values '^OSN_(KNOB|PARAM)_' | awk '$1 != "OSN_PARAM_DIR" { print $2 }' | sort >"$tmp/header-params"
if cmp -s "$tmp/header-params" "$tmp/module-params"; then
	result params ok
else
	result params "kernel/ and OSN_KNOB_*/OSN_PARAM_* differ: $(diff "$tmp/header-params" "$tmp/module-params" | grep '^[<>]' | tr '\n' ' ')"
fi

result_end
