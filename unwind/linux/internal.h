/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.c's one include, until the profiler moves out of kunwind.ko:
 * the layers it uses.  Nothing else includes this; new code includes the
 * header of each layer it uses.
 */
#ifndef _KUNWIND_INTERNAL_H
#define _KUNWIND_INTERNAL_H

#include "kwalk.h"
#include "profile.h"
#include "registry_lookup.h"
#include "symbols.h"

#endif /* _KUNWIND_INTERNAL_H */
