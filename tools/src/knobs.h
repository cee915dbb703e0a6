/* SPDX-License-Identifier: GPL-2.0 */
/*
 * knobs.h - the module's knobs (module parameters): read, write with a
 * clear error, save and restore.  Works on any directory, so the unit
 * tests run it on a temporary one.
 */
#ifndef OSN_KNOBS_H
#define OSN_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "osn/osn_abi.h"

enum osn_knob_id {
	OSN_K_CPUS,
	OSN_K_PERIOD,
	OSN_K_RUNTIME,
	OSN_K_THRESHOLD,
	OSN_K_STOP,
	OSN_K_STOP_TOTAL,
	OSN_K_OPTIONS,			/* every option, as it reads back */
	OSN_K_MODE,			/* osnoise or timerlat */
	OSN_K_TLAT_PERIOD,		/* timerlat_period_us */
	OSN_K_PRINT_STACK,		/* timerlat's print_stack (us) */
	OSN_NR_KNOBS
};

extern const char * const osn_knob_names[OSN_NR_KNOBS];

#define OSN_KNOB_LEN	(OSN_CPUS_MAX_LEN + 2)

struct osn_knobs {
	char dir[256];
	char saved[OSN_NR_KNOBS][OSN_KNOB_LEN];
	bool have_saved[OSN_NR_KNOBS];
	bool changed[OSN_NR_KNOBS];
};

/* Errors: -1 with the message as the last error (osn_err, util.h). */
/* A one-line file into @buf, without trailing newline and blanks. */
int osn_read_str(const char *path, char *buf, size_t len);
/* Write @val to @path ("cannot write VAL to PATH: strerror"). */
int osn_write_str(const char *path, const char *val);
void osn_knobs_init(struct osn_knobs *k, const char *dir);
/* Read one knob (trailing newline removed). */
int osn_knob_read(const struct osn_knobs *k, enum osn_knob_id id, char *buf,
		  size_t len);
/*
 * Write one knob (shown with -D); on error the message says "the module
 * rejected NAME=VALUE: strerror".
 */
int osn_knob_write(const struct osn_knobs *k, enum osn_knob_id id,
		   const char *val);
/* Remember the current value of every knob. */
int osn_knobs_save(struct osn_knobs *k);
/* Set a knob (no write when it already has that value); marks it changed. */
int osn_knobs_set(struct osn_knobs *k, enum osn_knob_id id, const char *val);
/*
 * Set the mode knob; while the module still stops a run of the other mode
 * (-EBUSY: the events were just disabled), retry for up to 2 s.
 */
int osn_knobs_set_mode(struct osn_knobs *k, const char *mode);
/*
 * Set period and runtime in an order the module accepts whatever the
 * current values are (runtime <= period holds after each write).
 */
int osn_knobs_set_period_runtime(struct osn_knobs *k, unsigned long long period,
				 unsigned long long runtime);
/*
 * Write back every changed knob: stop knobs first (so nothing stops while
 * restoring), then threshold, period/runtime and options in the order the
 * module accepts (runtime_us > 1 s only without an atomic option), cpus,
 * timerlat's period and, last, the mode (retried while the run that the
 * removed instances ended is still stopping: -EBUSY).  Continues after an
 * error; returns -1 if any write failed (the last error is the first).
 */
int osn_knobs_restore(struct osn_knobs *k);

struct osn_cpuset;
/*
 * @set as the cpus knob takes it: its compact list ("0-255", however the
 * user listed the CPUs) into @buf, OSN_CPUS_MAX_LEN + 1 bytes.  -1 with
 * a clear error when the compact list itself is longer than one sysfs
 * write carries (a sparse set of thousands of CPUs).
 */
int osn_knob_cpulist(const struct osn_cpuset *set, char *buf);

/* Lock-file persistence: "knob NAME VALUE" lines for the changed knobs. */
void osn_knobs_dump(const struct osn_knobs *k, FILE *f);
/* Parse one "knob NAME VALUE" line into saved[] (marks it changed). */
int osn_knobs_load_line(struct osn_knobs *k, const char *line);

#endif
