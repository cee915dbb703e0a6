// SPDX-License-Identifier: GPL-2.0
/*
 * upstream.c - osn upstream: a saved trace with each osn:sample record
 * printed as the upstream osnoise tracer prints its per-period summary
 * (see upstream.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "upstream.h"

/* What an osn:sample record prints, after "sample: " (kernel/osn_trace.h). */
#define SAMPLE_TAG	": sample: "
#define SAMPLE_FMT	"runtime %llu noise %llu avail %*u.%*u max %llu " \
			"min %*u samples %*u HW %llu NMI %llu IRQ %llu " \
			"SIRQ %llu THREAD %llu"

bool osn_upstream_line(const char *in, char *out, size_t len)
{
	unsigned long long rt, noise, max, hw, nmi, irq, sirq, thr;
	unsigned long long ratio = 0, dec = 0;
	const char *tag = strstr(in, SAMPLE_TAG);
	int n;

	if (!tag || in[0] == '#' ||
	    sscanf(tag + strlen(SAMPLE_TAG), SAMPLE_FMT, &rt, &noise, &max,
		   &hw, &nmi, &irq, &sirq, &thr) != 8)
		return false;
	/* upstream's entry holds microseconds, its ratio is computed on them */
	rt /= 1000;
	noise /= 1000;
	max /= 1000;
	if (rt) {
		ratio = (rt - (noise < rt ? noise : rt)) * 10000000ULL / rt;
		dec = ratio % 100000;
		ratio /= 100000;
	}
	/* the prefix up to the timestamp's ": ", then trace_osnoise_print()'s */
	n = snprintf(out, len, "%.*s: %llu %10llu %3llu.%05llu %7llu %6llu %6llu %6llu %6llu %6llu\n",
		     (int)(tag - in), in, rt, noise, ratio, dec, max, hw, nmi,
		     irq, sirq, thr);
	return n > 0 && (size_t)n < len;
}

int osn_upstream_filter(FILE *in, FILE *out)
{
	char *line = NULL, conv[4096];
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	while ((n = getline(&line, &cap, in)) > 0) {
		if (osn_upstream_line(line, conv, sizeof(conv)))
			fputs(conv, out);
		else
			fwrite(line, 1, (size_t)n, out);
		/* a live trace_pipe: each line as it comes */
		if (fflush(out)) {
			ret = -1;
			break;
		}
	}
	if (ferror(in))
		ret = -1;
	free(line);
	return ret;
}
