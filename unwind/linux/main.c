// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind.ko: kernel stack walks with tables compiled from DWARF CFI at
 * build time.  See Documentation/kunwind.rst.
 *
 * Init order: resolve the kernel internals walks need (symbols.c), the
 * walks' lookup caches (kwalk.c), then register tables and the module
 * notifier (discovery.c), then the die and panic notifiers (oops.c), then
 * debugfs.  A missing piece
 * degrades the module (a message says which), it never fails the load:
 * only the notifiers' registrations can.
 *
 * Built in (CONFIG_KUNWIND=y) kunwind_init() is a postcore initcall: the
 * first level after debugfs_init() (core), which it needs, and long
 * before the first module can load.  Neither request_module() nor
 * anything else can run a program before populate_rootfs() (rootfs
 * initcall, after fs) enables user-mode helpers, and init's own insmods
 * come after all initcalls: so the module notifier sees every module,
 * and the die and panic notifiers cover the initcalls of every later
 * level.  In a module postcore_initcall() is module_init()
 * (<linux/module.h>), and kunwind_exit() is discarded when built in.
 */
#include <linux/module.h>
#include "debugfs.h"
#include "kwalk.h"
#include "oops.h"
#include "registry.h"
#include "symbols.h"

static int __init kunwind_init(void)
{
	int err;

	kunwind_symbols_init();
	if (kunwind_walk_caches_init())
		pr_warn("no memory for the lookup caches: walks look up without\n");
	err = kunwind_registry_init();
	if (err)
		return err;
	err = kunwind_oops_init();
	if (err)
		goto out_registry;
	kunwind_debugfs_init();
	return 0;
out_registry:
	kunwind_registry_exit();
	kunwind_walk_caches_exit();
	return err;
}

static void __exit kunwind_exit(void)
{
	kunwind_debugfs_exit();
	kunwind_oops_exit_notifiers();
	kunwind_registry_exit();
	kunwind_walk_caches_exit();
}

postcore_initcall(kunwind_init);
module_exit(kunwind_exit);

MODULE_DESCRIPTION("kunwind: kernel stack unwinding with build-time DWARF tables");
MODULE_LICENSE("GPL");
