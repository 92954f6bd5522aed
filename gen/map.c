// SPDX-License-Identifier: GPL-2.0
/*
 * A map from 64-bit keys to array indexes: the CIE cache of cfi.c (by
 * offset) and the rule dictionary of table.c (by the rule's 8 bytes).
 * Open addressing with linear probing, at most half full.
 */
#include <stdlib.h>
#include "stages.h"

/* Fibonacci hashing: the product's high bits depend on every key bit. */
static size_t slot_of(u64 key, size_t slots)
{
	return ((key * 0x9e3779b97f4a7c15ULL) >> 32) & (slots - 1);
}

long kgen_map_get(const struct kgen_map *m, u64 key)
{
	size_t i;

	if (!m->slots)
		return -1;
	for (i = slot_of(key, m->slots); m->val[i]; i = (i + 1) & (m->slots - 1))
		if (m->key[i] == key)
			return m->val[i] - 1;
	return -1;
}

static void put(struct kgen_map *m, u64 key, u32 val)
{
	size_t i = slot_of(key, m->slots);

	while (m->val[i])
		i = (i + 1) & (m->slots - 1);
	m->key[i] = key;
	m->val[i] = val + 1;
}

int kgen_map_put(struct kgen_map *m, u64 key, u32 val)
{
	if (val == UINT32_MAX)
		return -1;
	if ((m->nr + 1) * 2 > m->slots) {
		struct kgen_map old = *m;
		size_t i;

		m->slots = old.slots ? old.slots * 2 : 256;
		m->key = calloc(m->slots, sizeof(*m->key));
		m->val = calloc(m->slots, sizeof(*m->val));
		if (!m->key || !m->val) {
			free(m->key);
			free(m->val);
			*m = old;
			return -1;
		}
		for (i = 0; i < old.slots; i++)
			if (old.val[i])
				put(m, old.key[i], old.val[i] - 1);
		kgen_map_free(&old);
	}
	put(m, key, val);
	m->nr++;
	return 0;
}

void kgen_map_free(struct kgen_map *m)
{
	free(m->key);
	free(m->val);
	m->key = NULL;
	m->val = NULL;
	m->slots = 0;
	m->nr = 0;
}
