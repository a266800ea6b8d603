/* SPDX-License-Identifier: MIT */
/*
 * A QEMU TCG plugin that counts the guest instructions a program executes:
 * in total, and for each function named with sym=NAME (its own
 * instructions, not those of its callees). At exit it writes, through
 * QEMU's log (-d plugin, -D FILE):
 *
 *     insns total N
 *     insns sym NAME N
 *
 * bench/arm-insns.sh divides the difference of two totals by the
 * difference of the bytes processed (docs/performance.md, "Instruction
 * counts"). The counts are exact and the same on every run of the same
 * program and arguments.
 *
 * At translation each block's count is fixed; a callback per executed
 * block adds it. The count rides in the callback's user pointer, so
 * nothing is allocated per block and the callback is one atomic add
 * (qemu-user runs each guest thread on a host thread).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef CLOAKFS_HAVE_QEMU_PLUGIN_H
#include <qemu-plugin.h>
#else
#include "qemu-plugin-v1.h"
#endif

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* functions counted apart; the index rides in the low bits of the user
 * pointer of a symbol's callback, the count above them */
#define INSNCOUNT_MAX_SYMS 16
#define INSNCOUNT_SYM_BITS 4

static uint64_t insns_total;
static unsigned int nsyms;
static const char *sym_name[INSNCOUNT_MAX_SYMS];
static uint64_t sym_insns[INSNCOUNT_MAX_SYMS];

static void insncount_total_exec(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	__atomic_fetch_add(&insns_total, (uint64_t)(uintptr_t)udata,
			   __ATOMIC_RELAXED);
}

static void insncount_sym_exec(unsigned int vcpu, void *udata)
{
	uintptr_t v = (uintptr_t)udata;

	(void)vcpu;
	__atomic_fetch_add(&sym_insns[v & (INSNCOUNT_MAX_SYMS - 1)],
			   (uint64_t)(v >> INSNCOUNT_SYM_BITS), __ATOMIC_RELAXED);
}

static void insncount_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	uintptr_t per_sym[INSNCOUNT_MAX_SYMS] = { 0 };

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, insncount_total_exec,
					     QEMU_PLUGIN_CB_NO_REGS,
					     (void *)(uintptr_t)n);
	if (nsyms == 0)
		return;
	/* a block may run from one function into the next (no call) */
	for (size_t i = 0; i < n; i++) {
		const char *s = qemu_plugin_insn_symbol(qemu_plugin_tb_get_insn(tb, i));

		if (s == NULL)
			continue;
		for (unsigned int k = 0; k < nsyms; k++)
			if (strcmp(s, sym_name[k]) == 0)
				per_sym[k]++;
	}
	for (unsigned int k = 0; k < nsyms; k++)
		if (per_sym[k] != 0)
			qemu_plugin_register_vcpu_tb_exec_cb(tb, insncount_sym_exec,
				QEMU_PLUGIN_CB_NO_REGS,
				(void *)(per_sym[k] << INSNCOUNT_SYM_BITS | k));
}

/* one line to QEMU's log: the total when name is NULL, else name's count */
static void insncount_out(const char *name, uint64_t count)
{
	char line[512];
	int len;

	if (name == NULL)
		len = snprintf(line, sizeof line, "insns total %" PRIu64 "\n", count);
	else
		len = snprintf(line, sizeof line, "insns sym %s %" PRIu64 "\n",
			       name, count);
	if (len < 0 || (size_t)len >= sizeof line) {
		qemu_plugin_outs("insncount: output line too long\n");
		return;
	}
	qemu_plugin_outs(line);
}

static void insncount_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	insncount_out(NULL, __atomic_load_n(&insns_total, __ATOMIC_RELAXED));
	for (unsigned int k = 0; k < nsyms; k++)
		insncount_out(sym_name[k],
			      __atomic_load_n(&sym_insns[k], __ATOMIC_RELAXED));
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "sym=", 4) != 0 || argv[i][4] == '\0') {
			fprintf(stderr, "insncount: unknown argument '%s' "
				"(only sym=FUNCTION)\n", argv[i]);
			return -1;
		}
		if (nsyms == INSNCOUNT_MAX_SYMS) {
			fprintf(stderr, "insncount: more than %d sym= arguments\n",
				INSNCOUNT_MAX_SYMS);
			return -1;
		}
		sym_name[nsyms++] = argv[i] + 4;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, insncount_tb_trans);
	qemu_plugin_register_atexit_cb(id, insncount_exit, NULL);
	return 0;
}
