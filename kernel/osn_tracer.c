// SPDX-License-Identifier: GPL-2.0
/*
 * osn_tracer.c - osn as an ftrace tracer, when it is built into a kernel
 * (CONFIG_OSN_TRACER=y, the sources dropped into kernel/trace/osn/ by
 * kernel/add-to-tree.sh).  The only file that differs between the two
 * builds: a module (=m, or out of tree) cannot use register_tracer(),
 * tracefs_create_*() or the trace buffer's internals, none of which are
 * exported; built in, osn gets them, and uses them the way
 * kernel/trace/trace_osnoise.c does.
 *
 * What it adds to the module's interface, which stays as it is (events
 * under events/osn/, module parameters in /sys/module/osn/parameters/):
 *  - a tracer "osn": `echo osn > current_tracer`, in the top-level buffer
 *    or any instance, starts the measurement as enabling an osn event does
 *    (it counts as one more user, osn_event_reg()) and stops it again when
 *    another tracer replaces it;
 *  - a line per CPU and period in the buffer of every instance where osn
 *    is the current tracer, in upstream osnoise's format;
 *  - a stop condition turns tracing off in those instances too;
 *  - tracefs osn/ with the knobs as files, which go through the module
 *    parameters' own kernel_param_ops: the same validation, the same
 *    errors, the same values, whichever interface wrote them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

#include "../trace.h"

#include "osn_internal.h"
#include "osn_trace.h"

/* ---- instances where osn is the current tracer ---- */

struct osn_tracer_instance {
	struct list_head	list;
	struct trace_array	*tr;
};

/* Written under trace_types_lock (tracer init/reset), read under RCU. */
static LIST_HEAD(osn_tracer_instances);

/* ---- the per-period line ---- */

/*
 * One line per CPU and period, as upstream's TRACE_OSNOISE entry: times in
 * us, the interference counters.  Its type is given by
 * register_trace_event() at boot (the static TRACE_* types are
 * trace_entries.h's, which osn does not touch).
 */
struct osn_period_entry {
	struct trace_entry	ent;
	u64			runtime_us;
	u64			noise_us;
	u64			max_sample_us;
	u32			hw_count;
	u32			nmi_count;
	u32			irq_count;
	u32			softirq_count;
	u32			thread_count;
};

static enum print_line_t osn_period_print(struct trace_iterator *iter,
					  int flags, struct trace_event *event)
{
	struct osn_period_entry *field = (void *)iter->ent;
	struct trace_seq *s = &iter->seq;
	u64 ratio = 0, ratio_dec = 0;

	/* % of the CPU left to the workload, 5 decimals, as upstream. */
	if (field->runtime_us) {
		ratio = (field->runtime_us - min(field->noise_us,
						 field->runtime_us)) * 10000000;
		do_div(ratio, field->runtime_us);
		ratio_dec = do_div(ratio, 100000);
	}
	trace_seq_printf(s, "%llu %10llu %3llu.%05llu %7llu",
			 field->runtime_us, field->noise_us, ratio, ratio_dec,
			 field->max_sample_us);
	trace_seq_printf(s, " %6u %6u %6u %6u %6u\n", field->hw_count,
			 field->nmi_count, field->irq_count,
			 field->softirq_count, field->thread_count);
	return trace_handle_return(s);
}

static enum print_line_t osn_period_raw(struct trace_iterator *iter,
					int flags, struct trace_event *event)
{
	struct osn_period_entry *field = (void *)iter->ent;
	struct trace_seq *s = &iter->seq;

	trace_seq_printf(s, "%llu %llu %llu %u %u %u %u %u\n",
			 field->runtime_us, field->noise_us,
			 field->max_sample_us, field->hw_count,
			 field->nmi_count, field->irq_count,
			 field->softirq_count, field->thread_count);
	return trace_handle_return(s);
}

static struct trace_event_functions osn_period_funcs = {
	.trace	= osn_period_print,
	.raw	= osn_period_raw,
};

static struct trace_event osn_period_event = {
	.funcs	= &osn_period_funcs,
};

/* Counters are u64 in struct osn_sample; a period never sees 2^32 of one. */
static u32 osn_count32(u64 count)
{
	return min_t(u64, count, U32_MAX);
}

static void osn_tracer_record(struct trace_buffer *buffer,
			      const struct osn_sample *s)
{
	struct ring_buffer_event *event;
	struct osn_period_entry *entry;

	event = trace_buffer_lock_reserve(buffer, osn_period_event.type,
					  sizeof(*entry), tracing_gen_ctx());
	if (!event)
		return;
	entry = ring_buffer_event_data(event);
	entry->runtime_us = div_u64(s->runtime, NSEC_PER_USEC);
	entry->noise_us = div_u64(s->noise, NSEC_PER_USEC);
	entry->max_sample_us = div_u64(s->max_sample, NSEC_PER_USEC);
	entry->hw_count = osn_count32(s->hw_count);
	entry->nmi_count = osn_count32(s->nmi_count);
	entry->irq_count = osn_count32(s->irq_count);
	entry->softirq_count = osn_count32(s->softirq_count);
	entry->thread_count = osn_count32(s->thread_count);
	trace_buffer_unlock_commit_nostack(buffer, event);
}

/* The end of a period on this CPU (osn_period_end()). */
void osn_tracer_sample(const struct osn_sample *s)
{
	struct osn_tracer_instance *inst;

	/* Before register_trace_event() gave the line a type: nothing. */
	if (!osn_period_event.type)
		return;
	rcu_read_lock();
	list_for_each_entry_rcu(inst, &osn_tracer_instances, list)
		osn_tracer_record(inst->tr->array_buffer.buffer, s);
	rcu_read_unlock();
}

/* A stop condition fired (osn_stop_fire()): the tracer's instances stop. */
void osn_tracer_stop(void)
{
	struct osn_tracer_instance *inst;

	rcu_read_lock();
	list_for_each_entry_rcu(inst, &osn_tracer_instances, list)
		tracer_tracing_off(inst->tr);
	rcu_read_unlock();
}

/* ---- the tracer ---- */

static int osn_tracer_init(struct trace_array *tr)
{
	struct osn_tracer_instance *inst;

	lockdep_assert_held(&trace_types_lock);
	inst = kzalloc(sizeof(*inst), GFP_KERNEL);
	if (!inst)
		return -ENOMEM;
	inst->tr = tr;
	list_add_tail_rcu(&inst->list, &osn_tracer_instances);
	/*
	 * Save the comms, as the function tracer does: the lines then say
	 * "osn/1-108" where upstream osnoise's say "<...>-108".
	 */
	tracing_start_cmdline_record();
	/* One more user: the run starts as for an enabled osn event. */
	return osn_event_reg();
}

static void osn_tracer_reset(struct trace_array *tr)
{
	struct osn_tracer_instance *inst, *found = NULL;

	lockdep_assert_held(&trace_types_lock);
	list_for_each_entry(inst, &osn_tracer_instances, list) {
		if (inst->tr == tr) {
			found = inst;
			break;
		}
	}
	/* reset() without init() on this instance: trace.c broke a rule. */
	if (WARN_ON_ONCE(!found))
		return;
	list_del_rcu(&found->list);
	/* A period's line may be going into this instance's buffer now. */
	synchronize_rcu();
	kfree(found);
	tracing_stop_cmdline_record();
	osn_event_unreg();
}

static void osn_tracer_print_header(struct seq_file *s)
{
	seq_puts(s, "#                                _-----=> irqs-off/BH-disabled\n");
	seq_puts(s, "#                               / _----=> need-resched\n");
	seq_puts(s, "#                              | / _---=> hardirq/softirq\n");
	seq_puts(s, "#                              || / _--=> preempt-depth\n");
	seq_puts(s, "#                              ||| / _-=> migrate-disable     ");
	seq_puts(s, "                    MAX\n");
	seq_puts(s, "#                              |||| /                         ");
	seq_puts(s, "                    SINGLE      Interference counters:\n");
	seq_puts(s, "#                              |||||               RUNTIME   ");
	seq_puts(s, "   NOISE   % OF CPU  NOISE    +-----------------------------+\n");
	seq_puts(s, "#           TASK-PID      CPU# |||||   TIMESTAMP    IN US    ");
	seq_puts(s, "   IN US  AVAILABLE  IN US     HW    NMI    IRQ   SIRQ THREAD\n");
	seq_puts(s, "#              | |         |   |||||      |           |      ");
	seq_puts(s, "       |    |            |      |      |      |      |      |\n");
}

static struct tracer osn_tracer __read_mostly = {
	.name		= "osn",
	.init		= osn_tracer_init,
	.reset		= osn_tracer_reset,
	.print_header	= osn_tracer_print_header,
	.allow_instances = true,
};

/* ---- tracefs osn/: the knobs as files ---- */

/*
 * Each file's private data is the knob's kernel_param: read and write call
 * its ops under the parameter lock, as sysfs does for
 * /sys/module/osn/parameters/, so both interfaces see one value and one
 * set of rules.
 */
static ssize_t osn_knob_read(struct file *filp, char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	const struct kernel_param *kp = filp->private_data;
	ssize_t ret;
	char *buf;
	int len;

	buf = (char *)__get_free_page(GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	kernel_param_lock(THIS_MODULE);
	len = kp->ops->get(buf, kp);
	kernel_param_unlock(THIS_MODULE);
	if (len < 0)
		ret = len;
	else
		ret = simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
	free_page((unsigned long)buf);
	return ret;
}

static ssize_t osn_knob_write(struct file *filp, const char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	const struct kernel_param *kp = filp->private_data;
	char *buf;
	int ret;

	/*
	 * One write is one value, cut at a page as kernfs cuts it for the
	 * parameters' sysfs files: the same input, the same result.
	 */
	if (!cnt)
		return 0;
	cnt = min_t(size_t, cnt, PAGE_SIZE);
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	kernel_param_lock(THIS_MODULE);
	ret = kp->ops->set(buf, kp);
	kernel_param_unlock(THIS_MODULE);
	kfree(buf);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations osn_knob_fops = {
	.open		= tracing_open_generic,
	.read		= osn_knob_read,
	.write		= osn_knob_write,
	.llseek		= generic_file_llseek,
};

/* "osn.period_us" built in: the file is named after the part past the dot. */
static const char *osn_knob_file_name(const struct kernel_param *kp)
{
	const char *dot = strrchr(kp->name, '.');

	return dot ? dot + 1 : kp->name;
}

static int __init osn_tracer_tracefs_init(void)
{
	const struct kernel_param *const *kp;
	struct dentry *dir;
	int ret;

	ret = tracing_init_dentry();
	if (ret)
		return ret;
	dir = tracefs_create_dir("osn", NULL);
	if (IS_ERR_OR_NULL(dir))
		return dir ? PTR_ERR(dir) : -ENOMEM;
	for (kp = osn_knob_params; *kp; kp++) {
		if (!trace_create_file(osn_knob_file_name(*kp),
				       TRACE_MODE_WRITE, dir, (void *)*kp,
				       &osn_knob_fops))
			goto err;
	}
	return 0;
err:
	tracefs_remove(dir);
	return -ENOMEM;
}

static __init int osn_tracer_register(void)
{
	int ret;

	if (!register_trace_event(&osn_period_event)) {
		pr_warn("no trace event type left for the per-period line\n");
		return -ENOSPC;
	}
	ret = osn_tracer_tracefs_init();
	if (ret) {
		pr_warn("cannot create tracefs osn/: %d\n", ret);
		goto err_event;
	}
	ret = register_tracer(&osn_tracer);
	if (ret) {
		pr_warn("cannot register the tracer: %d\n", ret);
		goto err_event;
	}
	return 0;

err_event:
	/* The osn/ files, if any, stay: they work without the tracer. */
	unregister_trace_event(&osn_period_event);
	return ret;
}
/* After the tracing core and tracefs are up, as trace_osnoise.c does. */
late_initcall(osn_tracer_register);
