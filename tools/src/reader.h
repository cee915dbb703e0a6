/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reader.h - the tool's instance read through its CPUs' trace_pipe_raw,
 * kept open across reads (reader.c says why).
 */
#ifndef OSN_READER_H
#define OSN_READER_H

#include <sched.h>
#include <stdint.h>

#include "trace.h"

struct osn_reader;
struct osn_decoder;
struct tracefs_instance;

/*
 * Consume every record in @inst (trace_pipe_raw of each CPU in @cpus, a
 * cpu_set_t of @cpus_size bytes, or of every CPU if NULL), calling @cb for
 * the osn events, in time-stamp order across CPUs.  The files are opened
 * at the first call into *@r and kept open; another instance or set opens
 * them again.  Returns the number of osn events, -1 on error.  *@missed is
 * increased by the events the ring buffer reported missing.  A non-zero
 * @budget_ns ends the read after about that long even if the buffer is
 * not empty: a kernel that writes events faster than they are parsed
 * would otherwise keep the read going (the rest is read next time, or
 * overwritten and counted as lost by the ring buffer).
 */
long osn_reader_read(struct osn_reader **r, struct tracefs_instance *inst,
		     struct osn_decoder *d, cpu_set_t *cpus, size_t cpus_size,
		     osn_event_cb cb, void *ctx, uint64_t *missed,
		     uint64_t budget_ns);
/*
 * The events the CPUs' ring buffers lost since the instance was made
 * (overrun and dropped events of each CPU's stats), 0 before the first
 * read.
 */
uint64_t osn_reader_lost(const struct osn_reader *r);
/* Close the files (before the instance is removed: rmdir says EBUSY). */
void osn_reader_free(struct osn_reader **r);

#endif
