// SPDX-License-Identifier: GPL-2.0
/*
 * osn_cause.c - what ran inside each noise, and who sent it from where:
 * the osn:noise_cause event.
 *
 * Two halves, both tracepoint probes, hooked only while osn:noise_cause is
 * enabled somewhere (osn_main.c, osn_probes.c's cause table):
 *
 *  - the origin: a probe that runs in the context of whoever makes work
 *    for a measured CPU (a wake-up of a task on it, a work item queued on
 *    it, a timer armed on it, a cross-CPU call sent to it) records that
 *    task and CPU in the target CPU's origin table, keyed by the object
 *    (task, work, timer, call data);
 *  - the cause: a probe that runs on the measured CPU when that work runs
 *    (the task switched in, the work function, the timer callback, the
 *    call's function, a remote TLB flush) looks its object up in its
 *    CPU's table and emits osn:noise_cause with the function and the
 *    origin, linked to the noise being timed (its class and start).
 *
 * A record is used at most once, and only within OSN_ORIGIN_MAX_AGE_NS of
 * being made, with the same function: a stale or recycled key gives an
 * unknown origin, never a wrong one.  A cause whose origin was not
 * recorded (the table was full, the kernel has no tracepoint for that
 * link) says "unknown".
 *
 * The tables are written by any CPU, so each has a raw spinlock, taken
 * with interrupts off and never nested: a leaf lock, safe in the
 * scheduler's and the timers' tracepoints.  Nothing is recorded from NMI
 * context (no tracepoint used here fires there; the check is cheap).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/mm_types.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include "osn_compat.h"

/*
 * The kernel's declarations of the tracepoints, only to check the probes'
 * prototypes at build time (OSN_PROBE_TYPECHECK): their __tracepoint_*
 * symbols are not exported and are never referenced.
 */
#include <trace/events/sched.h>
#include <trace/events/timer.h>
#include <trace/events/tlb.h>
#include <trace/events/workqueue.h>
#if OSN_HAVE_CSD_TRACEPOINTS
#include <trace/events/csd.h>
#endif
#if OSN_HAVE_IPI_SEND_TRACEPOINT
#include <trace/events/ipi.h>
#endif

#include "osn_internal.h"
#include "osn_account.h"
#include "osn_cause.h"
#include "osn_trace.h"

/*
 * The probe must have the tracepoint's exact prototype (a mismatch would
 * be undefined behaviour, and a crash under CFI): register_trace_<tp>()
 * takes exactly that type.  sizeof() does not evaluate the call, so the
 * unexported tracepoint is not referenced.
 */
#define OSN_PROBE_TYPECHECK(tp, probe)					\
	static_assert(sizeof(register_trace_##tp(probe, NULL)) == sizeof(int))

/* Origins per measured CPU: enough for the objects in flight to it. */
#define OSN_ORIGINS		16
/* A record older than this is stale (a wake-up latency under TCG < 1 s). */
#define OSN_ORIGIN_MAX_AGE_NS	NSEC_PER_SEC

struct osn_origin_table {
	raw_spinlock_t		lock;
	struct osn_origin	slot[OSN_ORIGINS];	/* key NULL: free */
};

static DEFINE_PER_CPU(struct osn_origin_table, osn_origins);

/* The last cross-CPU call's origin on this CPU, for a TLB flush in it. */
struct osn_cause_ipi {
	u64			start_ns;	/* the noise it ran in */
	bool			known;
	struct osn_origin	origin;
};

static DEFINE_PER_CPU(struct osn_cause_ipi, osn_cause_last_ipi);

/*
 * The work item running on this CPU: a kworker preempted in the middle of
 * one continues it when switched back in, and that thread noise has the
 * same cause (between workqueue_execute_start and _end).
 */
struct osn_cause_work {
	struct task_struct	*worker;	/* NULL: none running */
	unsigned long		function;
	bool			known;
	struct osn_origin	origin;
};

static DEFINE_PER_CPU(struct osn_cause_work, osn_cause_cur_work);

/*
 * The last tasks woken onto this CPU, with their wakers: preempted before
 * it sleeps again (by a thread of a higher priority, an interrupt's
 * thread, the stopper), a task resumes the same wake-up, and that thread
 * noise has the same cause.  Its count of voluntary switches tells: one
 * more, and it has slept since (on any CPU), so its next run needs a
 * wake-up of its own.  A task is only compared, with its pid (a recycled
 * task_struct), until it is switched in again.  Only sched_switch on this
 * CPU uses the table: no lock.  Slots: the woken task and the threads
 * that preempt it, a few deep.
 */
#define OSN_WOKEN		4

struct osn_cause_woken {
	struct task_struct	*task;	/* NULL: free */
	pid_t			pid;
	unsigned long		nvcsw;
	struct osn_origin	origin;
};

struct osn_cause_woken_table {
	struct osn_cause_woken	slot[OSN_WOKEN];
	unsigned int		next;	/* the slot to reuse */
};

static DEFINE_PER_CPU(struct osn_cause_woken_table, osn_cause_woken);

void osn_cause_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		raw_spin_lock_init(&per_cpu(osn_origins, cpu).lock);
}

/* Forget every origin: at the start of a run, nothing hooked. */
void osn_cause_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct osn_origin_table *t = &per_cpu(osn_origins, cpu);
		unsigned long flags;

		raw_spin_lock_irqsave(&t->lock, flags);
		memset(t->slot, 0, sizeof(t->slot));
		raw_spin_unlock_irqrestore(&t->lock, flags);
		memset(per_cpu_ptr(&osn_cause_last_ipi, cpu), 0,
		       sizeof(struct osn_cause_ipi));
		memset(per_cpu_ptr(&osn_cause_cur_work, cpu), 0,
		       sizeof(struct osn_cause_work));
		memset(per_cpu_ptr(&osn_cause_woken, cpu), 0,
		       sizeof(struct osn_cause_woken_table));
	}
}

/* ---- origins: recorded by the sender, on any CPU ---- */

/*
 * Whether osn measures @cpu: only then is an origin worth keeping.  With a
 * workload, between two of its windows too: a work item queued (a task
 * woken) just before a window opens runs in it, and its noise is timed.
 */
static bool osn_cause_cpu_measured(unsigned int cpu)
{
	struct osn_cpu *oc;

	if (cpu >= nr_cpu_ids)
		return false;
	oc = per_cpu_ptr(&osn_cpu_state, cpu);
	return READ_ONCE(oc->workload) || osn_cpu_active(oc);
}

/* Who is sending: the current task, or the interrupt it is in. */
static void osn_origin_fill(struct osn_origin *o)
{
	o->cpu = raw_smp_processor_id();
	if (in_hardirq() || in_serving_softirq()) {
		o->pid = -1;
		strscpy(o->comm, in_hardirq() ? "[irq]" : "[softirq]",
			sizeof(o->comm));
		return;
	}
	o->pid = current->pid;
	memcpy(o->comm, current->comm, sizeof(o->comm));
}

/* The same sender: the same task, or the same kind of interrupt, and CPU. */
static bool osn_origin_same_sender(const struct osn_origin *a,
				   const struct osn_origin *b)
{
	return a->cpu == b->cpu && a->pid == b->pid &&
	       (a->pid != -1 || !strcmp(a->comm, b->comm));
}

/*
 * Record that the current context sends @key (running @function) to @cpu.
 * A record of the same @key is replaced; with @per_sender, only one of the
 * same sender (a key that stands for a kind of request, not an object).
 */
static void osn_origin_record(unsigned int cpu, const void *key,
			      unsigned long function, bool per_sender)
{
	struct osn_origin_table *t;
	struct osn_origin *o = NULL, *victim = NULL;
	struct osn_origin me;
	unsigned long flags;
	unsigned int i;

	if (in_nmi() || !osn_cause_cpu_measured(cpu))
		return;
	osn_origin_fill(&me);
	t = per_cpu_ptr(&osn_origins, cpu);
	raw_spin_lock_irqsave(&t->lock, flags);
	for (i = 0; i < OSN_ORIGINS; i++) {
		struct osn_origin *s = &t->slot[i];

		if (s->key == key &&
		    (!per_sender || osn_origin_same_sender(s, &me))) {
			o = s;
			break;
		}
		/*
		 * Else a free slot, or the oldest record: records that are
		 * never taken (a timer cancelled, a task woken elsewhere)
		 * age out before the ones still in flight.
		 */
		if (!victim || (victim->key &&
				(!s->key || s->stamp_ns < victim->stamp_ns)))
			victim = s;
	}
	if (!o)
		o = victim;
	*o = me;
	o->key = key;
	o->function = function;
	o->stamp_ns = ktime_get_mono_fast_ns();
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

/*
 * On the measured CPU: take the records of @key, and copy the fresh ones
 * for @function (0: any, the record names it) into @o, at most @max; the
 * others are dropped.  Returns how many were copied.  An object's key has
 * one record; a kind of request's (osn_origin_record()'s @per_sender) one
 * per sender.
 */
static unsigned int osn_origin_take_all(const void *key,
					unsigned long function,
					struct osn_origin *o, unsigned int max)
{
	struct osn_origin_table *t = this_cpu_ptr(&osn_origins);
	u64 now = ktime_get_mono_fast_ns();
	unsigned int i, n = 0;
	unsigned long flags;

	raw_spin_lock_irqsave(&t->lock, flags);
	for (i = 0; i < OSN_ORIGINS; i++) {
		struct osn_origin *s = &t->slot[i];

		if (s->key != key)
			continue;
		if (n < max && (!function || s->function == function) &&
		    now - s->stamp_ns < OSN_ORIGIN_MAX_AGE_NS)
			o[n++] = *s;
		s->key = NULL;
	}
	raw_spin_unlock_irqrestore(&t->lock, flags);
	return n;
}

/* The same for an object's key: whether its record was fresh, in *@o. */
static bool osn_origin_take(const void *key, unsigned long function,
			    struct osn_origin *o)
{
	return osn_origin_take_all(key, function, o, 1) == 1;
}

/* ---- causes: emitted on the measured CPU ---- */

/*
 * The noise being timed on this CPU in the current context, innermost
 * first: the hard IRQ, the softirq (not a source on PREEMPT_RT, where
 * softirqs are threads: then the thread), the thread.  NULL when none is
 * timed (not measuring, an NMI, or sampling began inside it).
 */
static struct osn_source *osn_cause_source(struct osn_cpu *oc, int *class)
{
	if (!osn_cpu_active(oc) || in_nmi())
		return NULL;
	if (in_hardirq()) {
		*class = OSN_CLASS_IRQ;
		return oc->irq.delta_start_ns ? &oc->irq : NULL;
	}
	if (in_serving_softirq() && oc->softirq.delta_start_ns) {
		*class = OSN_CLASS_SOFTIRQ;
		return &oc->softirq;
	}
	*class = OSN_CLASS_THREAD;
	return oc->thread.delta_start_ns ? &oc->thread : NULL;
}

/*
 * @function of @kind ran in this CPU's current noise (0: the one @key's
 * record names); @key's origin, also copied to *@origin (if not NULL)
 * with whether it is known.
 */
static bool osn_cause_emit(int kind, const void *key, unsigned long function,
			   struct osn_origin *origin)
{
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);
	struct osn_source *src;
	struct osn_origin o;
	bool known;
	int class;

	src = osn_cause_source(oc, &class);
	if (!src)
		return false;
	known = key && osn_origin_take(key, function, &o);
	if (known && origin)
		*origin = o;
	if (known && !function)
		function = o.function;
	trace_noise_cause(kind, class, src->arrival_ns, function,
			  known ? &o : NULL);
	if (kind == OSN_CAUSE_IPI) {
		struct osn_cause_ipi *ipi = this_cpu_ptr(&osn_cause_last_ipi);

		ipi->start_ns = src->arrival_ns;
		ipi->known = known;
		if (known)
			ipi->origin = o;
	}
	return known;
}

static struct osn_cause_woken *osn_cause_woken_find(struct osn_cause_woken_table *t,
						    struct task_struct *p)
{
	unsigned int i;

	for (i = 0; i < OSN_WOKEN; i++)
		if (t->slot[i].task == p)
			return &t->slot[i];
	return NULL;
}

/*
 * sched_switch (osn_probes.c): @next, a noise thread, was just switched in
 * on this CPU and its thread noise started: who woke it, if anyone did
 * (or, back from a preemption, who woke it before).
 */
void osn_cause_thread_in(struct osn_cpu *oc, struct task_struct *next)
{
	struct osn_cause_work *cw = this_cpu_ptr(&osn_cause_cur_work);
	struct osn_cause_woken_table *t = this_cpu_ptr(&osn_cause_woken);
	struct osn_cause_woken *w = osn_cause_woken_find(t, next);
	struct osn_origin o;

	if (osn_origin_take(next, (unsigned long)next->pid, &o)) {
		if (!w) {
			w = &t->slot[t->next];
			t->next = (t->next + 1) % OSN_WOKEN;
		}
		w->task = next;
		w->pid = next->pid;
		w->nvcsw = next->nvcsw;
		w->origin = o;
		trace_noise_cause(OSN_CAUSE_WAKEUP, OSN_CLASS_THREAD,
				  oc->thread.arrival_ns, 0, &o);
	} else if (w && w->pid == next->pid && w->nvcsw == next->nvcsw) {
		trace_noise_cause(OSN_CAUSE_WAKEUP, OSN_CLASS_THREAD,
				  oc->thread.arrival_ns, 0, &w->origin);
	}
	/*
	 * A kworker back in the middle of a work item: that work again.  (An
	 * unbound worker that left the CPU mid-item leaves a stale pointer:
	 * only a worker can match it.)
	 */
	if (cw->worker == next && (next->flags & PF_WQ_WORKER))
		trace_noise_cause(OSN_CAUSE_WORK, OSN_CLASS_THREAD,
				  oc->thread.arrival_ns, cw->function,
				  cw->known ? &cw->origin : NULL);
}

/* ---- the probes (osn_probes.c's cause table) ---- */

/*
 * In the waker's context; task_cpu() is where @p will run, or ran.  The
 * pid goes with the key: a record left by a task that never ran here again
 * (it exited, or was woken onto another CPU) must not match a new task
 * that got its task_struct.
 */
void osn_probe_cause_waking(void *data, struct task_struct *p)
{
	osn_origin_record(task_cpu(p), p, (unsigned long)p->pid, false);
}
OSN_PROBE_TYPECHECK(sched_waking, osn_probe_cause_waking);

/*
 * In the queuer's context.  A work queued without a CPU goes to the
 * queuer's own CPU on a per-CPU workqueue; on an unbound one it may run
 * anywhere, and then its origin is not found (unknown, not wrong).
 */
void osn_probe_cause_queue_work(void *data, OSN_WQ_QUEUE_WORK_ARGS)
{
	unsigned int cpu = (unsigned int)req_cpu;

	if (cpu >= nr_cpu_ids)
		cpu = raw_smp_processor_id();
	osn_origin_record(cpu, work, (unsigned long)work->func, false);
}
OSN_PROBE_TYPECHECK(workqueue_queue_work, osn_probe_cause_queue_work);

void osn_probe_cause_execute_work(void *data, struct work_struct *work)
{
	struct osn_cause_work *cw = this_cpu_ptr(&osn_cause_cur_work);
	unsigned long function = (unsigned long)work->func;

	cw->known = osn_cause_emit(OSN_CAUSE_WORK, work, function,
				   &cw->origin);
	cw->function = function;
	cw->worker = osn_cpu_active(this_cpu_ptr(&osn_cpu_state)) ?
		     current : NULL;
}
OSN_PROBE_TYPECHECK(workqueue_execute_start, osn_probe_cause_execute_work);

/* @work may be freed by now: only its function is passed (unused). */
void osn_probe_cause_execute_end(void *data, struct work_struct *work,
				 work_func_t function)
{
	struct osn_cause_work *cw = this_cpu_ptr(&osn_cause_cur_work);

	if (cw->worker == current)
		cw->worker = NULL;
}
OSN_PROBE_TYPECHECK(workqueue_execute_end, osn_probe_cause_execute_end);

/* In the armer's context: the timer's flags hold the CPU it will fire on. */
void osn_probe_cause_timer_start(void *data, OSN_TIMER_START_ARGS)
{
	osn_origin_record(timer->flags & TIMER_CPUMASK, timer,
			  (unsigned long)timer->function, false);
}
OSN_PROBE_TYPECHECK(timer_start, osn_probe_cause_timer_start);

void osn_probe_cause_timer_expire(void *data, struct timer_list *timer,
				  unsigned long baseclk)
{
	osn_cause_emit(OSN_CAUSE_TIMER, timer, (unsigned long)timer->function,
		       NULL);
}
OSN_PROBE_TYPECHECK(timer_expire_entry, osn_probe_cause_timer_expire);

/* hrtimers: the callback only (their arming is not traced with a CPU). */
void osn_probe_cause_hrtimer_expire(void *data, OSN_HRTIMER_EXPIRE_ARGS)
{
	osn_cause_emit(OSN_CAUSE_HRTIMER, NULL,
		       (unsigned long)hrtimer->function, NULL);
}
OSN_PROBE_TYPECHECK(hrtimer_expire_entry, osn_probe_cause_hrtimer_expire);

/* A remote TLB shootdown served here: inside the call that asked for it. */
void osn_probe_cause_tlb_flush(void *data, int reason, unsigned long pages)
{
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);
	struct osn_cause_ipi *ipi = this_cpu_ptr(&osn_cause_last_ipi);
	struct osn_source *src;
	int class;

	if (reason != TLB_REMOTE_SHOOTDOWN)
		return;
	src = osn_cause_source(oc, &class);
	if (!src)
		return;
	trace_noise_cause(OSN_CAUSE_TLB, class, src->arrival_ns, 0,
			  ipi->known && ipi->start_ns == src->arrival_ns ?
			  &ipi->origin : NULL);
}
OSN_PROBE_TYPECHECK(tlb_flush, osn_probe_cause_tlb_flush);

#if OSN_HAVE_CSD_TRACEPOINTS
/* In the sender's context. */
void osn_probe_cause_csd_queue(void *data, const unsigned int cpu,
			       unsigned long callsite, smp_call_func_t func,
			       call_single_data_t *csd)
{
	osn_origin_record(cpu, csd, (unsigned long)func, false);
}
OSN_PROBE_TYPECHECK(csd_queue_cpu, osn_probe_cause_csd_queue);

void osn_probe_cause_csd_function(void *data, smp_call_func_t func,
				  call_single_data_t *csd)
{
	osn_cause_emit(OSN_CAUSE_IPI, csd, (unsigned long)func, NULL);
}
OSN_PROBE_TYPECHECK(csd_function_entry, osn_probe_cause_csd_function);
#endif

#if OSN_HAVE_IPI_SEND_TRACEPOINT
/*
 * A reschedule IPI carries no object to key its origin by: its records
 * share this key, one per sender (the last request of each).  Requests
 * sent before the target handles the first make one interrupt (the
 * vector is pending once), which served them all: it names each sender.
 */
static const char osn_resched_key;

/* Senders named per reschedule interrupt, at most. */
#define OSN_RESCHED_SENDERS	4

/*
 * In the sender's context.  A NULL callback is a reschedule IPI
 * (smp_send_reschedule()); the cross-CPU calls have theirs, and the csd
 * tracepoints name them.
 */
void osn_probe_cause_ipi_send(void *data, const unsigned int cpu,
			      unsigned long callsite, void *callback)
{
	if (!callback)
		osn_origin_record(cpu, &osn_resched_key, callsite, true);
}
OSN_PROBE_TYPECHECK(ipi_send_cpu, osn_probe_cause_ipi_send);

/*
 * The reschedule vector's entry on the measured CPU (irq_vectors): one
 * cause per sender since the last one, named by its call site; none known,
 * one with an unknown origin.  The records are taken even when no noise is
 * timed, so that a later interrupt does not name this one's senders.
 */
void osn_probe_cause_resched(void *data, int vector)
{
	struct osn_cpu *oc = this_cpu_ptr(&osn_cpu_state);
	struct osn_origin o[OSN_RESCHED_SENDERS];
	struct osn_source *src;
	unsigned int i, n;
	int class;

	if (in_nmi())
		return;
	n = osn_origin_take_all(&osn_resched_key, 0, o, ARRAY_SIZE(o));
	src = osn_cause_source(oc, &class);
	if (!src)
		return;
	if (!n)
		trace_noise_cause(OSN_CAUSE_RESCHED, class, src->arrival_ns, 0,
				  NULL);
	for (i = 0; i < n; i++)
		trace_noise_cause(OSN_CAUSE_RESCHED, class, src->arrival_ns,
				  o[i].function, &o[i]);
}
#endif
