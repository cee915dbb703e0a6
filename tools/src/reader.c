// SPDX-License-Identifier: GPL-2.0
/*
 * reader.c - the tool's instance read through its CPUs' trace_pipe_raw,
 * opened once and kept open from the first read to the end of the run.
 *
 * Why not tracefs_iterate_raw_events(): it opens every CPU's
 * trace_pipe_raw (and reads events/header_page) on every call, and closes
 * them again.  osn reads its instance every second (ten times a second in
 * places), so on a machine measured on 128 CPUs that is hundreds of opens
 * a second for nothing; under TCG at 16 vCPUs each of those system calls
 * costs a round of every busy vCPU (issue 35).  The per-CPU files come
 * from libtracefs (tracefs_cpu_open(), tracefs_cpu_read()), the records
 * from libtraceevent's kbuffer, merged across CPUs by time stamp as
 * tracefs_iterate_raw_events() does.  tracefs_cpu_open() itself reads
 * and parses events/header_page for each CPU it opens: the sub-buffer
 * size is read once here instead, each CPU's file opened with
 * tracefs_instance_file_open() and handed to tracefs_cpu_alloc_fd(),
 * one system call a CPU where there were five.  A read cut short by its budget
 * keeps the sub-buffer it was in: the next read goes on from there.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>
#include <kbuffer.h>

#include "osn.h"
#include "decode.h"
#include "reader.h"
#include "util.h"

struct rcpu {
	int cpu;
	struct tracefs_cpu *tcpu;
	int stats_fd;			/* per_cpu/cpuN/stats, -1: none */
	struct kbuffer *kbuf;
	void *subbuf;			/* the sub-buffer being read */
	bool loaded;			/* it has records left */
	bool have_rec;			/* rec is the CPU's next record */
	bool drained;			/* nothing more in this read */
	struct tep_record rec;
};

struct osn_reader {
	struct tracefs_instance *inst;
	cpu_set_t *cpus;		/* a copy of the set; NULL: every CPU */
	size_t cpus_size;
	int n;
	struct rcpu *c;
};

void osn_reader_free(struct osn_reader **rp)
{
	struct osn_reader *r = *rp;

	if (!r)
		return;
	for (int i = 0; i < r->n; i++) {
		if (r->c[i].tcpu)
			tracefs_cpu_close(r->c[i].tcpu);
		if (r->c[i].stats_fd >= 0)
			close(r->c[i].stats_fd);
		if (r->c[i].kbuf)
			kbuffer_free(r->c[i].kbuf);
		free(r->c[i].subbuf);
	}
	free(r->c);
	free(r->cpus);
	free(r);
	*rp = NULL;
}

/* The CPUs a set names, or every configured CPU without a set. */
static bool wanted(const struct osn_reader *r, int cpu)
{
	return !r->cpus || CPU_ISSET_S(cpu, r->cpus_size, r->cpus);
}

/*
 * The ring buffer's sub-buffer size in bytes, from events/header_page as
 * tracefs_cpu_open() finds it; 0 when it cannot be read.
 */
static int subbuf_size(void)
{
	struct tep_handle *tep = tep_alloc();
	int len = 0, size = 0;
	char *buf = tep ? tracefs_instance_file_read(NULL, "events/header_page",
						     &len) : NULL;

	if (buf && tep_parse_header_page(tep, buf, len, sizeof(long)) == 0)
		size = tep_get_sub_buffer_size(tep);
	free(buf);
	tep_free(tep);
	return size;
}

static int open_cpu(struct osn_reader *r, int cpu, int size)
{
	struct tracefs_cpu *tcpu;
	struct rcpu *c;
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	fd = tracefs_instance_file_open(r->inst, path, O_RDONLY | O_NONBLOCK);
	/* no such file (a CPU tracing does not know): nothing to read */
	if (fd < 0)
		return 0;
	tcpu = tracefs_cpu_alloc_fd(fd, size, true);
	if (!tcpu) {
		close(fd);
		return osn_err("out of memory");
	}
	c = &r->c[r->n++];
	c->cpu = cpu;
	c->tcpu = tcpu;
	/* read once, at the end: osn_reader_lost() */
	snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
	c->stats_fd = tracefs_instance_file_open(r->inst, path, O_RDONLY);
	c->subbuf = malloc(tracefs_cpu_read_size(tcpu));
	c->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST,
				KBUFFER_ENDIAN_SAME_AS_HOST);
	return c->subbuf && c->kbuf ? 0 : osn_err("out of memory");
}

static struct osn_reader *reader_open(struct tracefs_instance *inst,
				      const cpu_set_t *cpus, size_t cpus_size)
{
	int nr = (int)sysconf(_SC_NPROCESSORS_CONF), size = subbuf_size();
	struct osn_reader *r = calloc(1, sizeof(*r));

	if (size <= 0) {
		osn_err("cannot read the ring buffer's events/header_page");
		return NULL;
	}

	if (!r || nr < 1 || !(r->c = calloc(nr, sizeof(*r->c))))
		goto nomem;
	r->inst = inst;
	if (cpus) {
		r->cpus = malloc(cpus_size);
		if (!r->cpus)
			goto nomem;
		memcpy(r->cpus, cpus, cpus_size);
		r->cpus_size = cpus_size;
	}
	for (int cpu = 0; cpu < nr; cpu++)
		if (wanted(r, cpu) && open_cpu(r, cpu, size))
			goto fail;
	return r;
nomem:
	osn_err("out of memory");
fail:
	osn_reader_free(&r);
	return NULL;
}

/* Opened for this instance and this set of CPUs? */
static bool reader_for(const struct osn_reader *r,
		       const struct tracefs_instance *inst,
		       const cpu_set_t *cpus, size_t cpus_size)
{
	if (r->inst != inst || !r->cpus != !cpus)
		return false;
	return !cpus || (r->cpus_size == cpus_size &&
			 !memcmp(r->cpus, cpus, cpus_size));
}

/*
 * The CPU's next record, reading its next sub-buffer when the current
 * one is done: false when the ring buffer has nothing more now.
 */
static bool next_record(struct rcpu *c)
{
	unsigned long long ts;
	void *data;

	for (;;) {
		if (c->loaded) {
			data = kbuffer_read_event(c->kbuf, &ts);
			if (data) {
				memset(&c->rec, 0, sizeof(c->rec));
				c->rec.ts = ts;
				c->rec.size = kbuffer_event_size(c->kbuf);
				c->rec.record_size = kbuffer_curr_size(c->kbuf);
				c->rec.missed_events = kbuffer_missed_events(c->kbuf);
				c->rec.cpu = c->cpu;
				c->rec.data = data;
				c->rec.ref_count = 1;
				kbuffer_next_event(c->kbuf, NULL);
				return true;
			}
			c->loaded = false;
		}
		if (tracefs_cpu_read(c->tcpu, c->subbuf, true) <= 0 ||
		    kbuffer_load_subbuffer(c->kbuf, c->subbuf) < 0)
			return false;
		c->loaded = true;
	}
}

/*
 * The CPU whose next record is the oldest, or NULL if none has one.  A
 * CPU found empty is not asked again in the same read (osn_reader_read()):
 * each ask is a read() of its trace_pipe_raw, and asking every empty CPU
 * again for each record taken from another multiplied the system calls
 * of a read by the records it took (4187 reads in an 8 s osn top of 15
 * CPUs under TCG, where rtla made 3765).
 */
static struct rcpu *oldest(struct osn_reader *r)
{
	struct rcpu *min = NULL;

	for (int i = 0; i < r->n; i++) {
		struct rcpu *c = &r->c[i];

		if (!c->have_rec && !c->drained) {
			c->have_rec = next_record(c);
			c->drained = !c->have_rec;
		}
		if (c->have_rec && (!min || c->rec.ts < min->rec.ts))
			min = c;
	}
	return min;
}

/*
 * The events each CPU's ring buffer lost (its stats' overrun and dropped
 * events), with one pread() of the stats file opened with the CPU's
 * trace_pipe_raw: at the end of a run, when each system call on a big
 * machine under TCG costs a round of every busy vCPU, opening, reading
 * and closing every CPU's file there took four (issue 35).
 */
uint64_t osn_reader_lost(const struct osn_reader *r)
{
	uint64_t lost = 0;
	char text[1024], *p;

	for (int i = 0; r && i < r->n; i++) {
		ssize_t n = r->c[i].stats_fd < 0 ? -1 :
			pread(r->c[i].stats_fd, text, sizeof(text) - 1, 0);

		if (n <= 0)
			continue;
		text[n] = '\0';
		p = strstr(text, "overrun:");
		if (p)
			lost += strtoull(p + 8, NULL, 10);
		p = strstr(text, "dropped events:");
		if (p)
			lost += strtoull(p + 15, NULL, 10);
	}
	return lost;
}

long osn_reader_read(struct osn_reader **rp, struct tracefs_instance *inst,
		     struct osn_decoder *d, cpu_set_t *cpus, size_t cpus_size,
		     osn_event_cb cb, void *ctx, uint64_t *missed,
		     uint64_t budget_ns)
{
	uint64_t deadline = budget_ns ? osn_mono_ns() + budget_ns : 0;
	uint64_t records = 0;
	struct rcpu *c;
	long n = 0;

	if (*rp && !reader_for(*rp, inst, cpus, cpus_size))
		osn_reader_free(rp);
	if (!*rp && !(*rp = reader_open(inst, cpus, cpus_size)))
		return -1;
	for (int i = 0; i < (*rp)->n; i++)
		(*rp)->c[i].drained = false;
	while ((c = oldest(*rp))) {
		struct tep_event *event = tep_find_event_by_record(d->tep, &c->rec);
		struct osn_event ev;

		c->have_rec = false;
		if (c->rec.missed_events > 0 && missed)
			*missed += c->rec.missed_events;
		/* a record of an event tracefs no longer has (osn.ko unloaded) */
		if (event && !osn_decode(d, event, &c->rec, &ev)) {
			n++;
			cb(&ev, ctx);
		}
		/* the clock is read once every 1024 records: cheap enough */
		if (deadline && !(++records & 1023) && osn_mono_ns() >= deadline)
			break;
	}
	return n;
}
