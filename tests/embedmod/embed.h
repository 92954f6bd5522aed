/* SPDX-License-Identifier: GPL-2.0 */
/* embed_hints.S, and what it calls */
#ifndef _KUNWIND_EMBED_H
#define _KUNWIND_EMBED_H

void kunwind_embed_leaf(void);
void kunwind_embed_regs(void);
void kunwind_embed_iret(void);
void kunwind_embed_end(void);
void kunwind_embed_undefined(void);
void kunwind_embed_nocfi(void);
void kunwind_embed_switch(void *stack_top);

#endif
