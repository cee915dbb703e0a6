/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osn_arch.h - every architecture difference osn (and its test injector)
 * depends on, in one place, as osn_compat.h is for kernel versions.
 * Supported: x86-64 and arm64 (Documentation/kernels.md says what each
 * measures and what it cannot).
 *
 * NMIs.
 *  x86-64  a module can register a handler on the NMI_LOCAL chain
 *          (register_nmi_handler(), exported), which runs on every local
 *          NMI, and see nmi:nmi_handler, which reports the duration of
 *          every other handler; the per-CPU NMI count tells one NMI from
 *          the next (osn_account.c explains the accounting).
 *  arm64   pseudo-NMIs (irqchip.gicv3_pseudo_nmi=1: GICv3 priority
 *          masking) have no handler chain and no nmi tracepoint, and
 *          irq_cpustat_t has no NMI count.  The only thing a module sees
 *          is that the flow handlers of NMI-delivered interrupts
 *          (handle_fasteoi_nmi(), handle_percpu_devid_fasteoi_nmi(): the
 *          "CPU stop NMIs" IPI, the PMU with pseudo-NMIs) still fire
 *          irq:irq_handler_entry/exit, in NMI context, while the NMI's
 *          own entry and exit are not traced.  So osn does not measure
 *          NMIs on arm64: the class is listed as "nmi" in the unmeasured
 *          parameter (and by osn top), its count and time stay 0, and the
 *          IRQ probes ignore what runs in NMI context
 *          (osn_irq_probe_in_nmi()) rather than open an IRQ inside the
 *          IRQ the NMI interrupted.  Time spent in NMIs shows as hardware
 *          noise, as on an x86 kernel without nmi:nmi_handler.
 *
 * Hard IRQs.
 *  x86-64  device IRQs through irq:irq_handler_entry/exit; the system
 *          vectors (local timer, IPIs, irq_work, APIC errors...) have
 *          tracepoints of their own, irq_vectors:<name>_entry/_exit,
 *          hooked one by one (OSN_ARCH_IRQ_HOOKS).
 *  arm64   every interrupt is a Linux IRQ behind the GIC, the per-CPU
 *          timer ("arch_timer") and the IPIs too (one IRQ per IPI type,
 *          all named "IPI": the irq_noise event's vector field, the IRQ
 *          number, tells them apart as /proc/interrupts' IPIn lines do),
 *          so irq:irq_handler_entry/exit see them all and there is no
 *          vector tracepoint to hook.
 *
 * TLB shootdowns.
 *  x86-64  a remote TLB flush is an IPI served on the target CPU
 *          (tlb:tlb_flush, reason TLB_REMOTE_SHOOTDOWN): the "tlb" cause.
 *  arm64   TLB invalidation is broadcast in hardware (TLBI ...IS): no
 *          IPI, no tlb:tlb_flush, and the "tlb" cause never occurs (the
 *          invalidation's cost on the measured CPU is hardware noise).
 */
#ifndef _OSN_ARCH_H
#define _OSN_ARCH_H

#include <linux/errno.h>
#include <linux/hardirq.h>

#if defined(CONFIG_X86)

#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/irq_vectors.h>
#include <asm/nmi.h>

#define OSN_HAVE_NMI_HANDLER		1
#define OSN_NMI_DONE			NMI_DONE
#define OSN_NMI_HANDLED			NMI_HANDLED

/*
 * x86's per-CPU NMI count, incremented at every NMI entry.
 *  [7.0, ...)   irq_stat.counts[IRQ_COUNT_NMI]: x86 turned irq_cpustat_t's
 *               named counters into an array indexed by enum
 *               irq_stat_counts (checked in Debian's 7.2.12 headers; the
 *               release that made the change was not pinned down: 6.12 is
 *               the newest checked with the old layout).
 *  [..., 7.0)   irq_stat.__nmi_count.
 */
#if OSN_KERNEL_FROM(7, 0, 0)
# define osn_nmi_seq()			this_cpu_read(irq_stat.counts[IRQ_COUNT_NMI])
#else
# define osn_nmi_seq()			this_cpu_read(irq_stat.__nmi_count)
#endif

/* A handler on the NMI_LOCAL chain; fn must be a function's name. */
#define osn_nmi_register(fn, name)	register_nmi_handler(NMI_LOCAL, fn, 0, name)
#define osn_nmi_unregister(name)	unregister_nmi_handler(NMI_LOCAL, name)

/* Test injector only: an NMI IPI to one CPU (APIC delivery mode NMI). */
#define osn_send_nmi(cpu)		apic->send_IPI(cpu, NMI_VECTOR)

/* Test injector only: a reschedule IPI (an inline on x86, via smp_ops). */
#define OSN_HAVE_SEND_RESCHEDULE	1
#define osn_send_reschedule(cpu)	smp_send_reschedule(cpu)

/* irq:irq_handler_entry/exit never run in NMI context on x86. */
#define osn_irq_probe_in_nmi()		false

/*
 * The rows of osn_probes.c's table that only x86 has: the system vectors
 * (OSN_VECTOR, optional: a kernel may lack some) and nmi:nmi_handler.
 */
#define OSN_ARCH_IRQ_HOOKS						\
	OSN_VECTOR(local_timer),					\
	OSN_VECTOR(reschedule),						\
	OSN_VECTOR(call_function),					\
	OSN_VECTOR(call_function_single),				\
	OSN_VECTOR(irq_work),						\
	OSN_VECTOR(thermal_apic),					\
	OSN_VECTOR(threshold_apic),					\
	OSN_VECTOR(deferred_error_apic),				\
	OSN_VECTOR(x86_platform_ipi),					\
	OSN_VECTOR(error_apic),						\
	OSN_VECTOR(spurious_apic),
#define OSN_ARCH_NMI_HOOKS						\
	OSN_HOOK_ONE("nmi_handler", osn_probe_nmi_handler, OSN_HOOK_OPTIONAL),

#elif defined(CONFIG_ARM64)

/* No NMI a module can measure: see above. */
#define OSN_HAVE_NMI_HANDLER		0
#define OSN_NMI_DONE			0
#define OSN_NMI_HANDLED			1
#define osn_nmi_seq()			0U
#define osn_nmi_register(fn, name)	({ (void)(fn); -EOPNOTSUPP; })
#define osn_nmi_unregister(name)	do { } while (0)
#define osn_send_nmi(cpu)		((void)(cpu))

/*
 * Test injector only: arm64's smp_send_reschedule() is not exported
 * (6.1.0-56-arm64's Module.symvers), so the injector's "resched" context
 * is not available there.
 */
#define OSN_HAVE_SEND_RESCHEDULE	0
#define osn_send_reschedule(cpu)	((void)(cpu))

/* Pseudo-NMI IRQs run their handlers' tracepoints in NMI context. */
#define osn_irq_probe_in_nmi()		in_nmi()

#define OSN_ARCH_IRQ_HOOKS
#define OSN_ARCH_NMI_HOOKS

#else
# error "osn supports x86-64 and arm64 only"
#endif

#endif /* _OSN_ARCH_H */
