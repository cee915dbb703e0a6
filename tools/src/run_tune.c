// SPDX-License-Identifier: GPL-2.0
/*
 * run_tune.c - the measured CPUs tuned for a timerlat run, as rtla
 * timerlat's --dma-latency and --deepest-idle-state (see run.h).
 *
 * --dma-latency holds a PM QoS request on /dev/cpu_dma_latency for the
 * run: the kernel drops it when the file is closed, so a killed osn
 * leaves nothing behind.  --deepest-idle-state writes the cpuidle
 * states' "disable" files in sysfs directly (rtla uses libcpupower,
 * which only wraps the same files): each old value goes to the
 * session's journal before the write, so the end of the run, or the
 * next osn (osn cleanup) after a SIGKILL, puts it back.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run.h"

#define DMA_LATENCY_DEV	"/dev/cpu_dma_latency"
#define CPU_SYSFS	"/sys/devices/system/cpu"

static int dma_latency_hold(struct osn_tool *t)
{
	int32_t us = (int32_t)t->p->dma_latency_us;

	t->dma_fd = open(DMA_LATENCY_DEV, O_RDWR | O_CLOEXEC);
	if (t->dma_fd < 0)
		return osn_err("--dma-latency: cannot open %s: %s%s",
			       DMA_LATENCY_DEV, strerror(errno),
			       errno == ENOENT ?
			       " (this kernel has no PM QoS device)" : "");
	/* the binary form: a 32-bit value in us (Documentation/power/pm_qos_interface.rst) */
	if (write(t->dma_fd, &us, sizeof(us)) != sizeof(us))
		return osn_err("--dma-latency: cannot write %d to %s: %s", us,
			       DMA_LATENCY_DEV, strerror(errno));
	osn_debug("%s <- %d us, held until the end", DMA_LATENCY_DEV, us);
	return 0;
}

/* The number of cpuidle states of @cpu, or -1 (osn_err) without any. */
static int idle_states(int cpu)
{
	char path[128];
	struct stat st;
	int n = 0;

	for (;; n++) {
		snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/cpuidle/state%d",
			 cpu, n);
		if (stat(path, &st))
			break;
	}
	if (!n)
		return osn_err("--deepest-idle-state: CPU %d has no cpuidle states (%s/cpu%d/cpuidle is missing: no cpuidle driver, as in a VM without one); nothing was changed",
			       cpu, CPU_SYSFS, cpu);
	return n;
}

/* Every state deeper than N (-1: every state) of each measured CPU. */
static int idle_limit(struct osn_tool *t)
{
	int deepest = t->p->deepest_idle_state;
	char path[128];

	/* all CPUs checked before the first write: nothing half done */
	for (size_t i = 0; i < t->ncpus; i++)
		if (idle_states(t->cpus[i]) < 0)
			return -1;
	for (size_t i = 0; i < t->ncpus; i++) {
		int n = idle_states(t->cpus[i]);

		for (int s = deepest + 1; s < n; s++) {
			snprintf(path, sizeof(path),
				 CPU_SYSFS "/cpu%d/cpuidle/state%d/disable",
				 t->cpus[i], s);
			if (osn_session_set_file(&t->session, path, "1"))
				return osn_err("--deepest-idle-state: %s",
					       osn_last_err());
		}
	}
	return 0;
}

int osn_run_tune_set(struct osn_tool *t)
{
	if (t->p->dma_latency_us >= 0 && dma_latency_hold(t))
		return -1;
	if (t->p->have_idle_state && idle_limit(t))
		return -1;
	return 0;
}

void osn_run_tune_free(struct osn_tool *t)
{
	if (t->dma_fd >= 0)
		close(t->dma_fd);
	t->dma_fd = -1;
}
