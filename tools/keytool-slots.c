/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-keytool add-passphrase, change-passphrase, remove-slot,
 * remove-passphrase, test-passphrase. Each
 * opens a keyslot with an existing passphrase before it changes anything,
 * and writes the config once, atomically, at the end.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/decimal.h"
#include "crypto/secmem.h"
#include "tools/keytool.h"

/* 0 when slot is a used keyslot of cfg, else a usage error listing them */
static int check_slot_used(const char *dir, const struct volume_config *cfg,
			   int slot)
{
	char used[VOLCONF_MAX_KEYSLOTS * 4] = "";
	size_t o = 0;

	if (slot >= 0 && slot < VOLCONF_MAX_KEYSLOTS && cfg->slots[slot].used)
		return 0;
	for (int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++)
		if (cfg->slots[i].used)
			o += (size_t)snprintf(used + o, sizeof(used) - o, "%s%d",
					      o ? ", " : "", i);
	return kt_error(CLOAKFS_EXIT_USAGE, "%s: keyslot %d is not in use (used: "
			"%s)", dir, slot, used);
}

static int seal_error(const char *dir, int rc)
{
	return kt_error(CLOAKFS_EXIT_ERROR, "%s: cannot seal the master key: %s",
			dir, strerror(-rc));
}

/* the start of each command that rewrites the config: lock, then read */
static int open_locked(const struct kt_args *a, const char *dir,
		       struct volume *v)
{
	return kt_open(a, dir, KT_LOCK | KT_UNLOCKING, v);
}

/* what add- and change-passphrase seal into a new keyslot */
struct new_seal {
	uint8_t *vmk;             /* the master key (secmem) */
	int opened;               /* the slot the existing passphrase opened */
	struct passphrase pass;   /* the new passphrase */
	struct keyslot_cost cost; /* Argon2id cost of the new slot */
};

/*
 * Unlock v with the existing passphrase in keyslot want (-1: any), read
 * the new one and choose the new slot's cost (by default the opened
 * slot's).
 * ns starts zeroed; new_seal_free(ns) afterwards, whatever this returns.
 */
static int new_seal_prepare(const struct kt_args *a, struct volume *v,
			    int want, struct new_seal *ns)
{
	int rc = kt_unlock(a, v, want, &ns->vmk);

	if (!rc) {
		ns->opened = v->slot;
		rc = kt_new_passphrase(&a->newpass, v->dir, &ns->pass);
	}
	if (!rc) {
		struct keyslot_cost reuse = { v->cfg.slots[ns->opened].opslimit,
					      v->cfg.slots[ns->opened].memlimit };

		rc = kt_choose_cost(a, &reuse, &ns->cost);
	}
	return rc;
}

static void new_seal_free(struct new_seal *ns)
{
	passphrase_free(&ns->pass);
	secmem_free(ns->vmk);
}

static int run_add(const struct kt_args *a)
{
	const char *dir = a->args[0];
	struct volume v;
	struct new_seal ns = { 0 };
	int rc, added;

	rc = open_locked(a, dir, &v);
	if (rc)
		return rc;
	if (volconf_slot_count(&v.cfg) >= VOLCONF_MAX_KEYSLOTS)
		rc = kt_error(CLOAKFS_EXIT_REFUSED, "%s: all %d keyslots are in "
			      "use (remove one first)", dir, VOLCONF_MAX_KEYSLOTS);
	if (!rc)
		rc = new_seal_prepare(a, &v, -1, &ns);
	if (rc)
		goto out;
	added = keyslot_add(&v.cfg, ns.pass.text, ns.pass.len, &ns.cost, ns.vmk);
	if (added < 0) {
		rc = seal_error(dir, added);
		goto out;
	}
	rc = kt_write_config(dir, v.confpath, &v.cfg, ns.vmk);
	if (!rc)
		printf("%s: added keyslot %d (%u in use)\n", dir, added,
		       volconf_slot_count(&v.cfg));
out:
	new_seal_free(&ns);
	volume_close(&v);
	return rc;
}

const struct kt_command kt_cmd_add = {
	.name = "add-passphrase",
	.synopsis = "[--kdf-time S] [--kdf-memory MiB] CIPHERDIR",
	.summary = "add a keyslot for a new passphrase",
	.help =
		"Open the volume with an existing passphrase, then seal its master key\n"
		"under a new passphrase in the lowest free keyslot (up to 8).\n"
		"\n"
		"  --passfile FILE      the existing passphrase: first line of FILE\n"
		"  --extpass CMD        the existing passphrase: first line CMD prints\n"
		"  --new-passfile FILE  the new passphrase: first line of FILE\n"
		"  --new-extpass CMD    the new passphrase: first line CMD prints\n"
		"  --kdf-time S         calibrate Argon2id to S seconds (default: the\n"
		"                       cost of the slot that opened)\n"
		"  --kdf-memory MiB     Argon2id memory for that calibration\n",
	.opts = KT_OPT_PASS | KT_OPT_NEWPASS | KT_OPT_KDF | KT_OPT_CONFIG,
	.min_args = 1,
	.max_args = 1,
	.run = run_add,
};

static int run_change(const struct kt_args *a)
{
	const char *dir = a->args[0];
	struct volume_config scratch;
	struct volume v;
	struct new_seal ns = { 0 };
	int rc;

	rc = open_locked(a, dir, &v);
	if (rc)
		return rc;
	if (a->slot >= 0)
		rc = check_slot_used(dir, &v.cfg, a->slot);
	if (!rc)
		rc = new_seal_prepare(a, &v, a->slot, &ns);
	if (rc)
		goto out;
	/* seal into an empty copy, then put the new slot in the old one's
	 * place: slot numbers stay as info showed them */
	scratch = v.cfg;
	memset(scratch.slots, 0, sizeof(scratch.slots));
	rc = keyslot_add(&scratch, ns.pass.text, ns.pass.len, &ns.cost, ns.vmk);
	if (rc < 0) {
		rc = seal_error(dir, rc);
		goto out;
	}
	v.cfg.slots[ns.opened] = scratch.slots[0];
	rc = kt_write_config(dir, v.confpath, &v.cfg, ns.vmk);
	if (!rc)
		printf("%s: changed the passphrase of keyslot %d\n", dir,
		       ns.opened);
out:
	new_seal_free(&ns);
	volume_close(&v);
	return rc;
}

const struct kt_command kt_cmd_change = {
	.name = "change-passphrase",
	.synopsis = "[--slot N] [--kdf-time S] [--kdf-memory MiB] CIPHERDIR",
	.summary = "replace the passphrase of a keyslot",
	.help =
		"Open the volume with the existing passphrase and reseal the slot that\n"
		"opened (or slot N, which that passphrase must open) under a new\n"
		"passphrase. The slot keeps its number.\n"
		"\n"
		"  --slot N             change keyslot N (as info numbers them)\n"
		"  --passfile FILE      the existing passphrase: first line of FILE\n"
		"  --extpass CMD        the existing passphrase: first line CMD prints\n"
		"  --new-passfile FILE  the new passphrase: first line of FILE\n"
		"  --new-extpass CMD    the new passphrase: first line CMD prints\n"
		"  --kdf-time S         calibrate Argon2id to S seconds (default: keep\n"
		"                       the slot's cost)\n"
		"  --kdf-memory MiB     Argon2id memory for that calibration\n",
	.opts = KT_OPT_PASS | KT_OPT_NEWPASS | KT_OPT_KDF | KT_OPT_SLOT |
		KT_OPT_CONFIG,
	.min_args = 1,
	.max_args = 1,
	.run = run_change,
};

/* a slot number: decimal digits only */
static int parse_slot(const char *s, int *slot)
{
	unsigned long long v;
	int err = decimal_parse(s, INT_MAX, &v);

	if (!err)
		*slot = (int)v;
	return err;
}

/* the end of remove-slot and remove-passphrase: free slot, write */
static int remove_and_write(const char *dir, const char *path,
			    struct volume_config *cfg, int slot,
			    const uint8_t *vmk)
{
	int rc = keyslot_remove(cfg, (unsigned int)slot);

	if (rc)
		return kt_error(CLOAKFS_EXIT_ERROR, "%s: cannot remove keyslot %d: "
				"%s", dir, slot, strerror(-rc));
	rc = kt_write_config(dir, path, cfg, vmk);
	if (rc)
		return rc;
	printf("%s: removed keyslot %d (%u left; the others keep their "
	       "numbers)\n", dir, slot, volconf_slot_count(cfg));
	return 0;
}

static int last_slot(const char *dir, int slot)
{
	return kt_error(CLOAKFS_EXIT_REFUSED, "%s: keyslot %d is the last one; "
			"removing it would lose the volume", dir, slot);
}

/*
 * remove-slot N (slot) and remove-passphrase (slot -1: the slot the
 * passphrase opens). Either way a passphrase must open the volume, and
 * the last slot stays.
 */
static int remove_slot(const struct kt_args *a, int slot)
{
	const char *dir = a->args[0];
	struct volume v;
	uint8_t *vmk = NULL;
	int rc;

	rc = open_locked(a, dir, &v);
	if (rc)
		return rc;
	/* refused before the passphrase is asked for */
	if (slot >= 0)
		rc = check_slot_used(dir, &v.cfg, slot);
	if (!rc && slot >= 0 && volconf_slot_count(&v.cfg) == 1)
		rc = last_slot(dir, slot);
	if (!rc)
		rc = kt_unlock(a, &v, -1, &vmk);
	if (!rc && slot < 0)
		slot = v.slot;
	if (!rc && volconf_slot_count(&v.cfg) == 1)
		rc = last_slot(dir, slot);
	else if (!rc)
		rc = remove_and_write(dir, v.confpath, &v.cfg, slot, vmk);
	secmem_free(vmk);
	volume_close(&v);
	return rc;
}

static int run_remove(const struct kt_args *a)
{
	int slot;

	if (parse_slot(a->args[1], &slot))
		return kt_error(CLOAKFS_EXIT_USAGE, "remove-slot: '%s' is not a "
				"slot number", a->args[1]);
	return remove_slot(a, slot);
}

const struct kt_command kt_cmd_remove = {
	.name = "remove-slot",
	.synopsis = "CIPHERDIR N",
	.summary = "remove keyslot N (never the last one)",
	.help =
		"Open the volume with an existing passphrase (any slot's), then remove\n"
		"keyslot N. The other slots keep their numbers; slot N stays free until\n"
		"add-passphrase reuses it. The last slot is never removed.\n"
		"\n"
		"  --passfile FILE      the existing passphrase: first line of FILE\n"
		"  --extpass CMD        the existing passphrase: first line CMD prints\n",
	.opts = KT_OPT_PASS | KT_OPT_CONFIG,
	.min_args = 2,
	.max_args = 2,
	.run = run_remove,
};

static int run_remove_pass(const struct kt_args *a)
{
	return remove_slot(a, -1);
}

const struct kt_command kt_cmd_remove_pass = {
	.name = "remove-passphrase",
	.synopsis = "CIPHERDIR",
	.summary = "remove the keyslot a passphrase opens (never the last one)",
	.help =
		"Ask for a passphrase and remove the keyslot it opens (the lowest one,\n"
		"when it opens several). The other slots keep their numbers. The last\n"
		"slot is never removed. Exit status 2 when the passphrase opens none.\n"
		"\n"
		"  --passfile FILE      the passphrase to remove: first line of FILE\n"
		"  --extpass CMD        the passphrase to remove: first line CMD prints\n",
	.opts = KT_OPT_PASS | KT_OPT_CONFIG,
	.min_args = 1,
	.max_args = 1,
	.run = run_remove_pass,
};

static int run_test(const struct kt_args *a)
{
	const char *dir = a->args[0];
	struct volume v;
	uint8_t *vmk = NULL;
	int rc;

	rc = kt_open(a, dir, KT_UNLOCKING, &v);
	if (rc)
		return rc;
	if (a->slot >= 0)
		rc = check_slot_used(dir, &v.cfg, a->slot);
	if (!rc)
		rc = kt_unlock(a, &v, a->slot, &vmk);
	secmem_free(vmk);
	if (!rc)
		printf("%s: the passphrase opens keyslot %d\n", dir, v.slot);
	volume_close(&v);
	return rc;
}

const struct kt_command kt_cmd_test = {
	.name = "test-passphrase",
	.synopsis = "[--slot N] CIPHERDIR",
	.summary = "check a passphrase and say which keyslot it opens",
	.help =
		"Try the passphrase on every keyslot (or only on slot N) and print the\n"
		"first slot it opens; changes nothing. Exit status 2 when none opens.\n"
		"\n"
		"  --slot N             try keyslot N only\n"
		"  --passfile FILE      the passphrase: first line of FILE\n"
		"  --extpass CMD        the passphrase: first line CMD prints\n",
	.opts = KT_OPT_PASS | KT_OPT_SLOT | KT_OPT_CONFIG,
	.min_args = 1,
	.max_args = 1,
	.run = run_test,
};
