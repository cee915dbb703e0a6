// SPDX-License-Identifier: GPL-2.0
/*
 * osn_params.c - the knobs of osn, as module parameters.
 *
 * Every knob has its own kernel_param_ops so that a write is validated as
 * a whole before anything changes: a bad write returns -EINVAL or -ERANGE
 * and leaves the old value.  The same ops run for "insmod osn.ko knob=..."
 * where an error fails the load.  Limits come from <osn/osn_abi.h>.
 *
 * Cross-knob rules (runtime <= period, runtime capped while interrupts or
 * preemption are disabled) are checked under osn_cfg_lock against the
 * current values of the other knobs, so they always hold at run time;
 * raising both period and runtime means writing period first.  At load
 * time the parameters come in command-line order, so the cross-knob rules
 * are checked once by osn_params_validate() from the module's init, and a
 * violation fails the load.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/spinlock.h>

#include "osn_internal.h"
#include "osn_account.h"

/* Protects every knob value below against torn multi-knob reads. */
static DEFINE_SPINLOCK(osn_cfg_lock);

static u64 osn_period_us = OSN_DEFAULT_PERIOD_US;
static u64 osn_runtime_us = OSN_DEFAULT_RUNTIME_US;
static u64 osn_threshold_us;		/* 0: OSN_DEFAULT_THRESHOLD_US */
static u64 osn_stop_us;			/* 0: off */
static u64 osn_stop_total_us;		/* 0: off */
static u64 osn_timerlat_period_us = OSN_DEFAULT_TIMERLAT_PERIOD_US;
static u64 osn_print_stack_us;		/* 0: off */
static unsigned long osn_options = OSN_DEFAULT_OPTIONS;
static enum osn_mode osn_mode = OSN_MODE_OSNOISE_RUN;
/* A run holds the mode it started with: writes get -EBUSY meanwhile. */
static bool osn_mode_held;
/* cpus: all possible CPUs until a list is written. */
static bool osn_cpus_all = true;
static struct cpumask osn_cpus_list;

/* The largest _us value that still converts to ns without overflow. */
#define OSN_MAX_US_IN_NS	(U64_MAX / NSEC_PER_USEC)

/*
 * Called when a knob that needs new threads (cpus, OSNOISE_WORKLOAD) was
 * written; set by osn_main.c at init.  Writes at load time come before it
 * and need no restart: nothing runs yet.
 */
static osn_restart_t osn_restart_cb;
/* Set once init checked the knobs together: cross-knob rules apply. */
static bool osn_params_live;

static const char * const osn_option_names[OSN_OPTION_NR] = {
	[OSN_OPTION_WORKLOAD]		= OSN_OPT_WORKLOAD,
	[OSN_OPTION_PANIC_ON_STOP]	= OSN_OPT_PANIC_ON_STOP,
	[OSN_OPTION_PREEMPT_DISABLE]	= OSN_OPT_PREEMPT_DISABLE,
	[OSN_OPTION_IRQ_DISABLE]	= OSN_OPT_IRQ_DISABLE,
};

void osn_params_init(osn_restart_t restart)
{
	WRITE_ONCE(osn_restart_cb, restart);
	if (restart)
		WRITE_ONCE(osn_params_live, true);
}

static void osn_request_restart(void)
{
	osn_restart_t restart = READ_ONCE(osn_restart_cb);

	if (restart)
		restart();
}

void osn_config_snapshot(struct osn_config *cfg)
{
	spin_lock(&osn_cfg_lock);
	cfg->period_ns = osn_period_us * NSEC_PER_USEC;
	cfg->runtime_ns = osn_runtime_us * NSEC_PER_USEC;
	cfg->threshold_ns = (osn_threshold_us ?: OSN_DEFAULT_THRESHOLD_US) *
			    NSEC_PER_USEC;
	cfg->stop_single_ns = osn_stop_us * NSEC_PER_USEC;
	cfg->stop_total_ns = osn_stop_total_us * NSEC_PER_USEC;
	cfg->timerlat_period_ns = osn_timerlat_period_us * NSEC_PER_USEC;
	cfg->print_stack_ns = osn_print_stack_us * NSEC_PER_USEC;
	cfg->options = osn_options;
	spin_unlock(&osn_cfg_lock);
}

/*
 * The stop threshold of @reason as the knob says now (0: off), for a stop
 * about to fire from a period that began under an older snapshot.
 */
u64 osn_stop_threshold_ns(unsigned int reason)
{
	u64 us = reason == OSN_STOP_SINGLE ? READ_ONCE(osn_stop_us) :
					     READ_ONCE(osn_stop_total_us);

	return us * NSEC_PER_USEC;
}

void osn_config_cpus(struct cpumask *mask)
{
	spin_lock(&osn_cfg_lock);
	if (osn_cpus_all)
		cpumask_copy(mask, cpu_possible_mask);
	else
		cpumask_copy(mask, &osn_cpus_list);
	spin_unlock(&osn_cfg_lock);
}

bool osn_option_is_set(enum osn_option opt)
{
	return test_bit(opt, &osn_options);
}

/* A knob changed: a stop condition that fired may fire again. */
static void osn_knob_written(void)
{
	osn_stop_rearm();
}

/* ---- numeric knobs ---- */

/*
 * While osn is loading, its parameters are set in command-line order
 * (insmod's, or the kernel's when built in): only check each value on its
 * own then, the combination is checked by osn_params_validate().  Not
 * THIS_MODULE->state: built in, THIS_MODULE is NULL.
 */
static bool osn_params_loading(void)
{
	return !READ_ONCE(osn_params_live);
}

/* Each numeric knob checks a candidate value against the others. */
typedef int (*osn_u64_check_t)(u64 val);

static int osn_check_period(u64 val)
{
	if (val > OSN_MAX_PERIOD_US || val < OSN_MIN_RUNTIME_US)
		return -ERANGE;
	if (!osn_params_loading() && val < osn_runtime_us)
		return -ERANGE;
	return 0;
}

static bool osn_runtime_fits(u64 runtime_us, u64 period_us,
			     unsigned long options)
{
	if (runtime_us > period_us)
		return false;
	if ((options & OSN_ATOMIC_OPTIONS) &&
	    runtime_us > OSN_MAX_ATOMIC_RUNTIME_US)
		return false;
	return true;
}

static int osn_check_runtime(u64 val)
{
	if (val < OSN_MIN_RUNTIME_US || val > OSN_MAX_PERIOD_US)
		return -ERANGE;
	if (!osn_params_loading() &&
	    !osn_runtime_fits(val, osn_period_us, osn_options))
		return -ERANGE;
	return 0;
}

static int osn_check_threshold(u64 val)
{
	return val > OSN_MAX_THRESHOLD_US ? -ERANGE : 0;
}

static int osn_check_stop(u64 val)
{
	return val > OSN_MAX_US_IN_NS ? -ERANGE : 0;
}

/* -EINVAL, not -ERANGE: what upstream's timerlat_period_us file returns. */
static int osn_check_timerlat_period(u64 val)
{
	if (val < OSN_MIN_TIMERLAT_PERIOD_US || val > OSN_MAX_TIMERLAT_PERIOD_US)
		return -EINVAL;
	return 0;
}

int osn_params_validate(void)
{
	int ret = 0;

	spin_lock(&osn_cfg_lock);
	if (!osn_runtime_fits(osn_runtime_us, osn_period_us, osn_options))
		ret = -EINVAL;
	spin_unlock(&osn_cfg_lock);

	if (ret)
		pr_err("runtime_us must be <= period_us, and <= %llu with OSNOISE_PREEMPT_DISABLE or OSNOISE_IRQ_DISABLE\n",
		       OSN_MAX_ATOMIC_RUNTIME_US);
	return ret;
}

static int osn_u64_store(const char *val, u64 *dst, osn_u64_check_t check)
{
	u64 v;
	int ret;

	/* kstrtou64 accepts one trailing newline and nothing else. */
	ret = kstrtou64(val, 10, &v);
	if (ret)
		return ret;

	spin_lock(&osn_cfg_lock);
	ret = check(v);
	if (!ret)
		*dst = v;
	spin_unlock(&osn_cfg_lock);

	if (!ret)
		osn_knob_written();
	return ret;
}

static int osn_u64_get(char *buffer, const struct kernel_param *kp)
{
	u64 v;

	spin_lock(&osn_cfg_lock);
	v = *(u64 *)kp->arg;
	spin_unlock(&osn_cfg_lock);

	return scnprintf(buffer, PAGE_SIZE, "%llu\n", v);
}

#define OSN_U64_KNOB(name, var, check, desc)				\
static int osn_##name##_set(const char *val,				\
			    const struct kernel_param *kp)		\
{									\
	return osn_u64_store(val, &var, check);				\
}									\
static const struct kernel_param_ops osn_##name##_ops = {		\
	.set = osn_##name##_set,					\
	.get = osn_u64_get,						\
};									\
module_param_cb(name, &osn_##name##_ops, &var, 0644);			\
MODULE_PARM_DESC(name, desc)

OSN_U64_KNOB(period_us, osn_period_us, osn_check_period,
	     "Measurement period in us (runtime_us..60000000, default 1000000)");
OSN_U64_KNOB(runtime_us, osn_runtime_us, osn_check_runtime,
	     "Measuring part of each period in us (100..period_us, default 1000000)");
OSN_U64_KNOB(threshold_us, osn_threshold_us, osn_check_threshold,
	     "Smallest gap reported as noise, in us (0 = 1 us, max 10000000)");
OSN_U64_KNOB(stop_tracing_us, osn_stop_us, osn_check_stop,
	     "Stop tracing when one noise sample exceeds this many us (0 = off)");
OSN_U64_KNOB(stop_tracing_total_us, osn_stop_total_us, osn_check_stop,
	     "Stop tracing when a period's noise exceeds this many us (0 = off)");
/* Read by each timerlat thread at every activation: no restart needed. */
OSN_U64_KNOB(timerlat_period_us, osn_timerlat_period_us,
	     osn_check_timerlat_period,
	     "timerlat period in us (100..1000000, default 1000)");
OSN_U64_KNOB(print_stack, osn_print_stack_us, osn_check_stop,
	     "timerlat: emit the timer IRQ's stack when the thread latency reaches this many us (0 = off)");

/* ---- mode ---- */

static const char * const osn_mode_names[] = {
	[OSN_MODE_OSNOISE_RUN]	= OSN_MODE_OSNOISE,
	[OSN_MODE_TIMERLAT_RUN]	= OSN_MODE_TIMERLAT,
};

enum osn_mode osn_mode_hold(void)
{
	enum osn_mode mode;

	spin_lock(&osn_cfg_lock);
	osn_mode_held = true;
	mode = osn_mode;
	spin_unlock(&osn_cfg_lock);
	return mode;
}

void osn_mode_release(void)
{
	spin_lock(&osn_cfg_lock);
	osn_mode_held = false;
	spin_unlock(&osn_cfg_lock);
}

/*
 * A run is either osnoise or timerlat, never both (upstream's tracers
 * exclude each other too): switching under a running reader would hand
 * it events it did not ask for, so a write during a run is refused.
 */
static int osn_mode_set(const char *val, const struct kernel_param *kp)
{
	int mode = sysfs_match_string(osn_mode_names, val);

	if (mode < 0)
		return -EINVAL;

	spin_lock(&osn_cfg_lock);
	if (osn_mode_held) {
		spin_unlock(&osn_cfg_lock);
		return -EBUSY;
	}
	osn_mode = mode;
	spin_unlock(&osn_cfg_lock);
	return 0;
}

static int osn_mode_get(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%s\n",
			 osn_mode_names[READ_ONCE(osn_mode)]);
}

static const struct kernel_param_ops osn_mode_ops = {
	.set = osn_mode_set,
	.get = osn_mode_get,
};
module_param_cb(mode, &osn_mode_ops, NULL, 0644);
MODULE_PARM_DESC(mode, "workload of the next run: osnoise or timerlat (-EBUSY while a run is active)");

/* ---- cpus ---- */

/*
 * Only digits and the cpulist separators, no empty region: the kernel's
 * parser is lenient on some kernels (blanks, ",,"), osn is the same on all.
 */
static bool osn_cpulist_well_formed(const char *list)
{
	size_t len = strlen(list);

	if (!len || len > OSN_CPUS_MAX_LEN)
		return false;
	if (strspn(list, "0123456789,-:/") != len)
		return false;
	return list[0] != ',' && list[len - 1] != ',' && !strstr(list, ",,");
}

/*
 * Parse from a bounded private copy: the input is never walked past
 * OSN_CPUS_MAX_LEN + 1 bytes (one trailing newline allowed), so an
 * unterminated or huge string is rejected without being read in full.
 */
static int osn_parse_cpus(const char *val, struct cpumask *mask, bool *all)
{
	size_t len = strnlen(val, OSN_CPUS_MAX_LEN + 2);
	char *copy, *list;
	int ret = 0;

	if (len > OSN_CPUS_MAX_LEN + 1)
		return -EINVAL;

	copy = kmemdup_nul(val, len, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;

	list = strim(copy);
	*all = !strcmp(list, "all");
	if (*all)
		goto out;

	if (!osn_cpulist_well_formed(list) ||
	    cpulist_parse(list, mask) || cpumask_empty(mask)) {
		ret = -EINVAL;
		goto out;
	}

	/* Only CPUs that exist and are online now. */
	cpus_read_lock();
	if (!cpumask_subset(mask, cpu_online_mask))
		ret = -EINVAL;
	cpus_read_unlock();
out:
	kfree(copy);
	return ret;
}

static int osn_cpus_set(const char *val, const struct kernel_param *kp)
{
	cpumask_var_t mask;
	bool all;
	int ret;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;

	ret = osn_parse_cpus(val, mask, &all);
	if (!ret) {
		spin_lock(&osn_cfg_lock);
		osn_cpus_all = all;
		if (!all)
			cpumask_copy(&osn_cpus_list, mask);
		spin_unlock(&osn_cfg_lock);

		osn_knob_written();
		osn_request_restart();
	}

	free_cpumask_var(mask);
	return ret;
}

static int osn_cpus_get(char *buffer, const struct kernel_param *kp)
{
	cpumask_var_t mask;
	int len;

	if (!alloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;

	osn_config_cpus(mask);
	len = scnprintf(buffer, PAGE_SIZE, "%*pbl\n", cpumask_pr_args(mask));

	free_cpumask_var(mask);
	return len;
}

static const struct kernel_param_ops osn_cpus_ops = {
	.set = osn_cpus_set,
	.get = osn_cpus_get,
};
module_param_cb(cpus, &osn_cpus_ops, NULL, 0644);
MODULE_PARM_DESC(cpus, "CPUs to measure, as a cpulist or \"all\" (default all)");

/* ---- options ---- */

/* Longest options write accepted: every name, prefixed NO_, and spaces. */
#define OSN_OPTIONS_MAX_LEN	256

/* Apply one option word to *opts; false if the word is not an option. */
static bool osn_option_word(const char *word, unsigned long *opts)
{
	bool clear = false;
	int i;

	if (!strcmp(word, OSN_OPT_DEFAULTS)) {
		*opts = OSN_DEFAULT_OPTIONS;
		return true;
	}
	if (!strncmp(word, "NO_", 3)) {
		clear = true;
		word += 3;
	}
	for (i = 0; i < OSN_OPTION_NR; i++) {
		if (strcmp(word, osn_option_names[i]))
			continue;
		if (clear)
			__clear_bit(i, opts);
		else
			__set_bit(i, opts);
		return true;
	}
	return false;
}

static int osn_options_set(const char *val, const struct kernel_param *kp)
{
	size_t len = strnlen(val, OSN_OPTIONS_MAX_LEN + 1);
	unsigned long opts, old;
	char *copy, *cur, *word;
	int ret = 0;

	if (len > OSN_OPTIONS_MAX_LEN)
		return -EINVAL;

	copy = kmemdup_nul(val, len, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;

	spin_lock(&osn_cfg_lock);
	old = osn_options;
	opts = old;
	cur = strim(copy);
	if (!*cur)
		ret = -EINVAL;
	while (!ret && (word = strsep(&cur, " \t\n"))) {
		if (*word && !osn_option_word(word, &opts))
			ret = -EINVAL;
	}
	/* Interrupts or preemption off for a whole long runtime: refuse. */
	if (!ret && !osn_params_loading() &&
	    !osn_runtime_fits(osn_runtime_us, osn_period_us, opts))
		ret = -ERANGE;
	if (!ret)
		osn_options = opts;
	spin_unlock(&osn_cfg_lock);
	kfree(copy);

	if (ret)
		return ret;

	osn_knob_written();
	/* The workload option decides whether threads exist: restart. */
	if ((old ^ opts) & BIT(OSN_OPTION_WORKLOAD))
		osn_request_restart();
	return 0;
}

static int osn_options_get(char *buffer, const struct kernel_param *kp)
{
	unsigned long opts = READ_ONCE(osn_options);
	int i, len = 0;

	for (i = 0; i < OSN_OPTION_NR; i++)
		len += scnprintf(buffer + len, PAGE_SIZE - len, "%s%s%s",
				 i ? " " : "", test_bit(i, &opts) ? "" : "NO_",
				 osn_option_names[i]);
	len += scnprintf(buffer + len, PAGE_SIZE - len, "\n");
	return len;
}

static const struct kernel_param_ops osn_options_ops = {
	.set = osn_options_set,
	.get = osn_options_get,
};
module_param_cb(options, &osn_options_ops, NULL, 0644);
MODULE_PARM_DESC(options,
		 "OSNOISE_WORKLOAD PANIC_ON_STOP OSNOISE_PREEMPT_DISABLE OSNOISE_IRQ_DISABLE; NO_<name> clears, DEFAULTS resets");

/*
 * The knobs in the order tracefs osn/ lists them when osn is built into a
 * kernel (osn_tracer.c): the files call these very parameters' ops.
 */
const struct kernel_param *const osn_knob_params[] = {
	&__param_cpus,
	&__param_period_us,
	&__param_runtime_us,
	&__param_threshold_us,
	&__param_stop_tracing_us,
	&__param_stop_tracing_total_us,
	&__param_options,
	&__param_mode,
	&__param_timerlat_period_us,
	&__param_print_stack,
	NULL
};
