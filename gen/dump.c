// SPDX-License-Identifier: GPL-2.0
/*
 * A table as text: `SECTION START END CFA RBP RA`, one row a line, in the
 * notation of `readelf --debug-dump=frames-interp` (see Documentation/).
 */
#include "gen.h"

static const char *reg_name(unsigned int reg, const struct kgen_arch *a)
{
	return reg == KUNWIND_REG_SP ? a->sp_name :
	       reg == KUNWIND_REG_BP ? a->fp_name : NULL;
}

static void dump_cfa(FILE *f, const struct kunwind_rule *r, const char *prefix,
		     const struct kgen_arch *a)
{
	const char *reg = reg_name(r->reg, a);

	if (r->reg == KUNWIND_REG_SP_INDIRECT)
		fprintf(f, "%s*rsp%+d", prefix, r->cfa_off);
	else if (r->reg == KUNWIND_REG_BP_INDIRECT)
		fprintf(f, "%s*(rbp%+d)", prefix, r->cfa_off);
	else if (reg)
		fprintf(f, "%s%s%+d", prefix, reg, r->cfa_off);
	else
		fputs("u", f);
}

static void dump_bp(FILE *f, const struct kunwind_rule *r)
{
	if (r->reg == KUNWIND_REG_BP_INDIRECT)
		fputs(" *rbp", f);
	else if (r->bp_off)
		fprintf(f, " c%+d", r->bp_off);
	else
		fputs(" u", f);
}

void dump_rule(FILE *f, const struct kunwind_rule *r, const struct kgen_arch *a)
{
	switch (r->type) {
	case KUNWIND_TYPE_CALL:
		dump_cfa(f, r, "", a);
		dump_bp(f, r);
		if (a == &kgen_arch_arm64)	/* the record's second word */
			fprintf(f, " c%+d", r->bp_off + 8);
		else
			fputs(" c-8", f);
		break;
	case KUNWIND_TYPE_END:
		dump_cfa(f, r, "", a);
		dump_bp(f, r);
		fputs(" u", f);
		break;
	case KUNWIND_TYPE_LR:	/* still in x30: readelf's "u", no rule */
		dump_cfa(f, r, "", a);
		dump_bp(f, r);
		fputs(" x30", f);
		break;
	case KUNWIND_TYPE_PLT:
		fputs("exp:plt u c-8", f);
		break;
	case KUNWIND_TYPE_SIGNAL:
		fputs("exp:signal exp exp", f);
		break;
	case KUNWIND_TYPE_REGS:
		dump_cfa(f, r, "regs:", a);
		fputs(" regs regs", f);
		break;
	case KUNWIND_TYPE_IRET:
		dump_cfa(f, r, "iret:", a);
		fputs(" u regs", f);
		break;
	case KUNWIND_TYPE_UNSUPPORTED:
		fputs("unsupported u u", f);
		break;
	default:			/* UNDEFINED */
		fputs("u u u", f);
		break;
	}
}

void dump_table(FILE *f, const struct kunwind_hdr *t)
{
	const struct kunwind_rule *rules = kunwind_rules(t);
	unsigned int i;

	for (i = 0; i < t->nr_segs; i++) {
		const struct kunwind_seg *seg = &kunwind_segs(t)[i];
		const char *name = kunwind_seg_name(t, seg);
		struct kunwind_row_iter it;

		kunwind_row_iter_init(&it, t, seg);
		while (kunwind_row_next(&it)) {
			if (it.rule == KUNWIND_RULE_NONE)
				continue;	/* a gap between FDEs */
			fprintf(f, "%s 0x%llx 0x%llx ", name,
				(unsigned long long)(seg->base + it.start),
				(unsigned long long)(seg->base + it.end));
			dump_rule(f, &rules[it.rule],
				  kgen_arch_of_table(kunwind_table_arch(t)));
			fputc('\n', f);
		}
	}
}
