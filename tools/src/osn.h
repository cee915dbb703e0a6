/* SPDX-License-Identifier: GPL-2.0 */
/* osn.h - the commands of the osn CLI, run by osn_tool_main(). */
#ifndef OSN_OSN_H
#define OSN_OSN_H

#include "tool.h"

extern const struct osn_tool_ops osn_top_ops;
extern const struct osn_tool_ops osn_hist_ops;
extern const struct osn_tool_ops osn_hwnoise_ops;
extern const struct osn_tool_ops osn_monitor_ops;
extern const struct osn_tool_ops osn_tlat_top_ops;
extern const struct osn_tool_ops osn_tlat_hist_ops;

#endif
