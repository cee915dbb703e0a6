/* SPDX-License-Identifier: GPL-2.0 */
/*
 * upstream.h - osn upstream: osn:sample records as the upstream osnoise
 * tracer's per-period summary line, for parsers written for that tracer
 * (pure: FILE * in and out; Documentation/usage.md has the field mapping).
 *
 * Upstream prints (kernel/trace/trace_output.c, trace_osnoise_print()):
 *   "%llu %10llu %3llu.%05llu %7llu %6u %6u %6u %6u %6u"
 *   RUNTIME IN US, NOISE IN US, % OF CPU AVAILABLE, MAX SINGLE NOISE IN US,
 *   HW NMI IRQ SIRQ THREAD counts
 * after the usual "TASK-PID [CPU] flags TIMESTAMP: " prefix, which is kept.
 */
#ifndef OSN_UPSTREAM_H
#define OSN_UPSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * @in (one line of a trace, with its newline) is an osn:sample record:
 * true, and @out holds upstream's line (newline included).  False (@out
 * undefined) for any other line.
 */
bool osn_upstream_line(const char *in, char *out, size_t len);

/*
 * Copy @in to @out line by line, osn:sample records converted, every
 * other line (header, other events) as it is.  -1 on a read or write
 * error.
 */
int osn_upstream_filter(FILE *in, FILE *out);

#endif
