// SPDX-License-Identifier: GPL-2.0
/*
 * osn_trace.c - instantiates the osn:* trace events.
 */
#include <osn/osn_abi.h>
#include "osn_compat.h"

#define CREATE_TRACE_POINTS
#include "osn_trace.h"
