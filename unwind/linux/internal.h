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

/*
 * profile.c still calls the kernel walk's state by its old name, struct
 * kunwind_walk, now struct kunwind_kstate (kwalk.h).  It neither calls
 * nor declares the function kunwind_walk(), and includes this last, so
 * the old name maps to the new one for it alone.  Goes with this file.
 */
#define kunwind_walk kunwind_kstate

#endif /* _KUNWIND_INTERNAL_H */
