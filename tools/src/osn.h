/* SPDX-License-Identifier: GPL-2.0 */
/* osn.h - the commands of the osn CLI. */
#ifndef OSN_OSN_H
#define OSN_OSN_H

int osn_top_main(int argc, char **argv, int nr_cpus);
int osn_hist_main(int argc, char **argv, int nr_cpus);

#endif
