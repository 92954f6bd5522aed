// SPDX-License-Identifier: GPL-2.0
/*
 * Functions in each text section a module has: .text, .init.text,
 * .exit.text and .text.unlikely.  tests/embed.test checks that the table
 * kunwind-gen embeds in the .ko has a segment for each, relocated against
 * the right section symbol; and a hint from inline asm.  Never loaded.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <kunwind_asm.h>
#include "embed.h"

/* Big enough for an interrupt entry frame, should one come meanwhile. */
static unsigned long kunwind_embed_stack[512];
unsigned long kunwind_embed_sink;

noinline void kunwind_embed_leaf(void)
{
	kunwind_embed_sink++;
	barrier();
}

/* .text.unlikely: by name, as 6.12 does not reorder __cold functions */
static noinline __cold __section(".text.unlikely")
void kunwind_embed_cold(unsigned long v)
{
	unsigned long a[4];

	a[v & 3] = v;
	kunwind_embed_sink += a[v & 3];
	kunwind_embed_leaf();
	barrier();
}

/*
 * The hint macros from C: the hint holds from the label to the next CFI
 * row boundary, wherever the compiler puts that (the test checks the
 * start).
 */
static noinline void kunwind_embed_inline(void)
{
	asm volatile("kunwind_embed_inline_hint:\n\t"
		     KUNWIND_HINT_CALL(24)
		     "nop\n\t");
	kunwind_embed_leaf();
}

static noinline void kunwind_embed_text(unsigned long v)
{
	kunwind_embed_inline();
	if (unlikely(v == 7))
		kunwind_embed_cold(v);
	kunwind_embed_leaf();
	kunwind_embed_regs();
	kunwind_embed_iret();
	kunwind_embed_undefined();
	kunwind_embed_nocfi();
	kunwind_embed_switch(&kunwind_embed_stack[512]);
	if (v == 9)
		kunwind_embed_end();
}

static int __init kunwind_embed_init(void)
{
	kunwind_embed_text(kunwind_embed_sink);
	return 0;
}

static void __exit kunwind_embed_exit(void)
{
	kunwind_embed_text(kunwind_embed_sink + 1);
}

module_init(kunwind_embed_init);
module_exit(kunwind_embed_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kunwind: table embedding test module");
