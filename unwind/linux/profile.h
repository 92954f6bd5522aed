/* SPDX-License-Identifier: GPL-2.0 */
/* profile.c: the sampling profiler (debugfs kunwind/profile/), for main.c. */
#ifndef _KUNWIND_PROFILE_H
#define _KUNWIND_PROFILE_H

struct dentry;

int kunwind_profile_init(void);
void kunwind_profile_debugfs(struct dentry *parent);
void kunwind_profile_exit(void);

#endif /* _KUNWIND_PROFILE_H */
