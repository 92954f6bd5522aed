/* SPDX-License-Identifier: GPL-2.0 */
/* debugfs.c: /sys/kernel/debug/kunwind/, made and removed by main.c. */
#ifndef _KUNWIND_DEBUGFS_H
#define _KUNWIND_DEBUGFS_H

void kunwind_debugfs_init(void);
void kunwind_debugfs_exit(void);

#endif /* _KUNWIND_DEBUGFS_H */
