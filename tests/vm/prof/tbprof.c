// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin for make profile (tests/vm/profile.sh): how many times
 * each translation block of guest kernel code ran, so that the guest
 * instructions a bench spends can be put on the functions that ran them.
 * At exit it writes "address instructions executions" per block of the
 * kernel's half of the address space to the file given as out=FILE.
 *
 * QEMU's plugin header is not packaged in Debian: the few declarations
 * used are written out below, as QEMU's plugin API version 1 (QEMU 4.2 to
 * 8.x) has them.  The guest is single-threaded TCG (make profile boots
 * one vCPU), so the counters are plain inline adds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb_t)(qemu_plugin_id_t id, void *userdata);

#define QEMU_PLUGIN_INLINE_ADD_U64	0

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      int op, void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb_t cb,
				    void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* a block: translated again (same address, same length) it counts on */
struct blk {
	uint64_t va, n, count;
	struct blk *next;
};

#define NHASH	(1u << 20)
static struct blk *tab[NHASH];
static const char *out_path = "tbprof.out";

static struct blk *blk_get(uint64_t va, uint64_t n)
{
	unsigned int h = (unsigned int)((va * 0x9E3779B97F4A7C15ull) >> 44) &
			 (NHASH - 1);
	struct blk *b;

	for (b = tab[h]; b; b = b->next)
		if (b->va == va && b->n == n)
			return b;
	b = calloc(1, sizeof(*b));
	if (!b)
		abort();
	b->va = va;
	b->n = n;
	b->next = tab[h];
	tab[h] = b;
	return b;
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct blk *b = blk_get(qemu_plugin_tb_vaddr(tb),
				qemu_plugin_tb_n_insns(tb));

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->count, 1);
}

static void on_atexit(qemu_plugin_id_t id, void *u)
{
	FILE *f = fopen(out_path, "w");
	struct blk *b;
	unsigned int i;

	(void)id;
	(void)u;
	if (!f)
		return;
	for (i = 0; i < NHASH; i++)
		for (b = tab[i]; b; b = b->next)
			if (b->count && b->va >= 0xffff800000000000ull)
				fprintf(f, "%llx %llu %llu\n",
					(unsigned long long)b->va,
					(unsigned long long)b->n,
					(unsigned long long)b->count);
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = strdup(argv[i] + 4);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
