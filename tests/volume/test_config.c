/* SPDX-License-Identifier: MIT */
/*
 * volume/keys/volconf.h: format/parse round trip, every validation error with the
 * file, line and field in its message, atomic rewrite with a simulated
 * crash after each step (the volume must still open with the passphrases
 * of the old or of the new config, whole), backup and restore.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/volume/voltest.h"
#include "volume/keys/volconf.h"
#include "base/confint.h"
#include "volume/keys/keyslot.h"
#include "volume/names/namemode.h"
#include "volume/names/vname.h"
#include "volume/volume.h"

static const struct keyslot_cost fast = { 1, 8u << 20 };

static void fake_config(struct volume_config *c, unsigned int nslots)
{
	CHECK(volconf_new(c, VOLUME_CIPHER_SPECK128_XTS, 4096, 255) == 0, "new");
	test_random_bytes(c->key_id, sizeof(c->key_id));
	for (unsigned int i = 0; i < nslots; i++) {
		struct volconf_keyslot *s = &c->slots[i];

		s->used = 1;
		test_random_bytes(s->salt, sizeof(s->salt));
		test_random_bytes(s->sealed, sizeof(s->sealed));
		test_random_bytes(s->nonce, sizeof(s->nonce));
		s->opslimit = 1 + test_rand_below(10);
		s->memlimit = (8 + test_rand_below(1000)) << 20;
	}
}

static void test_roundtrip(void)
{
	struct volume_config c, d;
	char text[8192], err[256];
	int n;

	for (unsigned int slots = 1; slots <= VOLCONF_MAX_KEYSLOTS; slots++) {
		fake_config(&c, slots);
		if (slots == 8)
			c.slots[7].memlimit = VOLCONF_MAX_MEMLIMIT; /* needs "L" */
		n = volconf_format(&c, text, sizeof(text));
		CHECK(n > 0, "format");
		CHECK(volconf_parse(text, (size_t)n, "t.conf", &d, err, sizeof(err)) ==
			      0,
		      "parse %u slots: %s", slots, err);
		CHECK(memcmp(&c, &d, sizeof(c)) == 0, "round trip %u slots", slots);
		CHECK(volconf_slot_count(&d) == slots, "slot count");
	}
	CHECK(volconf_format(&c, text, 100) == -ENOSPC, "small buffer");
	CHECK(volconf_new(&c, VOLUME_CIPHER_AES256_XTS, 1000, 255) == -EINVAL &&
		      volconf_new(&c, VOLUME_CIPHER_AES256_XTS, 4096, 63) == -EINVAL,
	      "new refuses bad parameters");
	/* uuids are random v4 */
	fake_config(&c, 1);
	fake_config(&d, 1);
	CHECK(strcmp(c.uuid, d.uuid) != 0 && c.uuid[14] == '4' &&
		      strchr("89ab", c.uuid[19]),
	      "uuid v4: %s", c.uuid);
	/* upper-case uuid and key_id are accepted, normalised */
	n = volconf_format(&c, text, sizeof(text));
	for (char *p = strstr(text, "uuid = \"") + 8; *p != ';'; p++)
		if (*p >= 'a' && *p <= 'f')
			*p = (char)(*p - 32);
	CHECK(volconf_parse(text, (size_t)n, "t.conf", &d, err, sizeof(err)) == 0 &&
		      strcmp(d.uuid, c.uuid) == 0,
	      "upper-case uuid: %s", err);
}

/*
 * Free slots below a used one are written as empty groups and read back
 * as free, so slot numbers survive a removal; a config without gaps (as
 * every cloakfs before stable slot numbers wrote) reads as before.
 */
static void test_slot_gaps(void)
{
	struct volume_config c, d;
	char text[8192], err[256];
	int n;

	fake_config(&c, 4);
	memset(&c.slots[0], 0, sizeof(c.slots[0]));
	memset(&c.slots[2], 0, sizeof(c.slots[2]));
	CHECK(volconf_validate(&c, err, sizeof(err)) == 0, "gaps valid: %s", err);
	n = volconf_format(&c, text, sizeof(text));
	CHECK(n > 0, "format with gaps");
	CHECK(strstr(text, "keyslots = (\n  { },\n  {\n") != NULL,
	      "slot 0 written as { }:\n%s", text);
	CHECK(strstr(text, "  { },\n  {\n    salt") != NULL, "slot 2 as { }");
	CHECK(volconf_parse(text, (size_t)n, "t.conf", &d, err, sizeof(err)) == 0,
	      "parse with gaps: %s", err);
	CHECK(memcmp(&c, &d, sizeof(c)) == 0, "gaps round trip");
	CHECK(!d.slots[0].used && d.slots[1].used && !d.slots[2].used &&
		      d.slots[3].used && volconf_slot_count(&d) == 2,
	      "slots 1 and 3 used, 0 and 2 free");
	/* a trailing free slot is not written */
	memset(&c.slots[3], 0, sizeof(c.slots[3]));
	n = volconf_format(&c, text, sizeof(text));
	CHECK(n > 0 && strstr(text, "  }\n);\n") != NULL,
	      "ends with the last used slot:\n%s", text);
	/* every slot free: refused, naming the field */
	n = snprintf(text, sizeof(text), "version = 1; uuid = \"%s\"; "
		     "cipher = \"aes256-xts\"; names = \"cts\"; sector_size = "
		     "4096; name_max = 255; key_id = \"%032d\"; features = [ ];\n"
		     "keyslots = ( { }, { } );\n", c.uuid, 0);
	CHECK(volconf_parse(text, (size_t)n, "t.conf", &d, err, sizeof(err)) ==
			      -EINVAL && strstr(err, "t.conf:2: keyslots"),
	      "only free slots refused: %s", err);
}

/* replace the first line starting with `key` by `repl` ("" deletes it) */
static int mutate(const char *text, const char *key, const char *repl,
		  char *out, size_t outlen, int *line)
{
	const char *p = text;
	int ln = 1;

	while (*p) {
		const char *eol = strchr(p, '\n');
		const char *q = p;

		while (*q == ' ')
			q++;
		if (strncmp(q, key, strlen(key)) == 0) {
			snprintf(out, outlen, "%.*s%s%s%s", (int)(p - text), text, repl,
				 *repl ? "\n" : "", eol ? eol + 1 : "");
			*line = ln;
			return 1;
		}
		if (!eol)
			break;
		p = eol + 1;
		ln++;
	}
	return 0;
}

static void test_errors(void)
{
	static const struct {
		const char *key;  /* line to replace (its first match) */
		const char *repl;
		int rc;
		const char *field; /* must appear in the message */
		const char *also;  /* and this */
		int has_line;      /* message names the replaced line */
	} cases[] = {
		{ "version", "version = 3;", -ENOTSUP, "version",
		  "unsupported format version 3", 1 },
		{ "version", "version = 0;", -ENOTSUP, "version",
		  "unsupported format version 0", 1 },
		{ "version", "version = \"1\";", -EINVAL, "version", "integer", 1 },
		{ "version", "", -EINVAL, "version", "missing", 0 },
		{ "uuid", "uuid = \"not-a-uuid\";", -EINVAL, "uuid", "RFC 4122", 1 },
		{ "uuid", "uuid = \"0f0e0d0c-0b0a-1908-8706-050403020100\";", -EINVAL,
		  "uuid", "version 4", 1 },
		{ "uuid", "uuid = \"0f0e0d0c-0b0a-4908-c706-050403020100\";", -EINVAL,
		  "uuid", "version 4", 1 },
		{ "uuid", "uuid = \"0f0e0d0c0b0a-4908-8706-050403020100-\";", -EINVAL,
		  "uuid", "RFC 4122", 1 },
		{ "uuid", "uuid = 5;", -EINVAL, "uuid", "string", 1 },
		{ "uuid", "", -EINVAL, "uuid", "missing", 0 },
		{ "cipher", "cipher = \"rot13\";", -EINVAL, "cipher",
		  "unknown cipher \"rot13\"", 1 },
		{ "cipher", "cipher = \"AES256-XTS\";", -EINVAL, "cipher", "known:", 1 },
		{ "names", "names = \"eme\";", -EINVAL, "names",
		  "unknown names mode \"eme\" (known: cts, hctr2, adiantum)", 1 },
		{ "names", "names = \"hctr2\";", -EINVAL, "names",
		  "cipher \"speck128-xts\" does not take names \"hctr2\"", 1 },
		{ "sector_size", "sector_size = 1000;", -EINVAL, "sector_size",
		  "power of two", 1 },
		{ "sector_size", "sector_size = 256;", -EINVAL, "sector_size",
		  "got 256", 1 },
		{ "sector_size", "sector_size = 131072;", -EINVAL, "sector_size",
		  "65536", 1 },
		{ "sector_size", "sector_size = -4096;", -EINVAL, "sector_size",
		  "got -4096", 1 },
		{ "name_max", "name_max = 63;", -EINVAL, "name_max", "from 64 to 255",
		  1 },
		{ "name_max", "name_max = 256;", -EINVAL, "name_max", "got 256", 1 },
		{ "key_id", "key_id = \"00112233445566778899aabbccddeef\";", -EINVAL,
		  "key_id", "32 hex digits", 1 },
		{ "key_id", "key_id = \"00112233445566778899aabbccddeefg\";", -EINVAL,
		  "key_id", "32 hex digits", 1 },
		{ "key_id", "", -EINVAL, "key_id", "missing", 0 },
		{ "features", "features = [ \"hyper-drive\", \"warp\" ];", -ENOTSUP,
		  "features", "\"hyper-drive\", \"warp\"", 1 },
		{ "features", "features = ( \"x\" );", -ENOTSUP, "features", "\"x\"", 1 },
		{ "features", "features = [ 1 ];", -EINVAL, "features",
		  "list of strings", 1 },
		{ "features", "features = \"x\";", -EINVAL, "features",
		  "list of strings", 1 },
		{ "features", "", -EINVAL, "features", "missing", 0 },
		{ "version", "version = 1; colour = \"blue\";", -EINVAL, "colour",
		  "unknown setting", 1 },
		{ "salt", "salt = \"AAAA\";", -EINVAL, "keyslots[0].salt",
		  "base64 of 16 bytes", 1 },
		{ "salt", "salt = \"!!!!!!!!!!!!!!!!!!!!!!!!\";", -EINVAL,
		  "keyslots[0].salt", "base64", 1 },
		{ "salt", "", -EINVAL, "keyslots[0].salt", "missing", 0 },
		{ "opslimit", "opslimit = 0;", -EINVAL, "keyslots[0].opslimit",
		  "got 0", 1 },
		{ "opslimit", "opslimit = 4294967296L;", -EINVAL,
		  "keyslots[0].opslimit", "4294967295", 1 },
		{ "opslimit", "opslimit = 1.5;", -EINVAL, "keyslots[0].opslimit",
		  "integer", 1 },
		{ "memlimit", "memlimit = 4096;", -EINVAL, "keyslots[0].memlimit",
		  "got 4096", 1 },
		{ "memlimit", "memlimit = 8193;", -EINVAL, "keyslots[0].memlimit",
		  "multiple of 1024", 1 },
		{ "memlimit", "memlimit = 8589934592L;", -EINVAL,
		  "keyslots[0].memlimit", "4294967296", 1 },
		/* integers beyond 32 bits without the L: their full value,
		 * never wrapped into range (libconfig 1.5 read 2, 8 MiB, 2) */
		{ "opslimit", "opslimit = 4294967298;", -EINVAL,
		  "keyslots[0].opslimit", "got 4294967298", 1 },
		{ "opslimit", "opslimit = 0x100000002;", -EINVAL,
		  "keyslots[0].opslimit", "got 4294967298", 1 },
		{ "memlimit", "memlimit = 4303355904;", -EINVAL,
		  "keyslots[0].memlimit", "got 4303355904", 1 },
		{ "version", "version = 4294967298;", -ENOTSUP, "version",
		  "unsupported format version 4294967298", 1 },
		{ "sector_size", "sector_size = 4294971392;", -EINVAL,
		  "sector_size", "got 4294971392", 1 },
		{ "sector_size", "sector_size = -4294963200;", -EINVAL,
		  "sector_size", "got -4294963200", 1 },
		{ "name_max", "name_max = 4294967551;", -EINVAL, "name_max",
		  "got 4294967551", 1 },
		{ "name_max", "name_max = 99999999999999999999999;", -EINVAL,
		  "name_max", "got", 1 },
		{ "sealed", "sealed = \"AAAA\";", -EINVAL, "keyslots[0].sealed",
		  "base64 of 80 bytes", 1 },
		{ "nonce", "nonce = \"AAAAAAAAAAAA\";", -EINVAL, "keyslots[0].nonce",
		  "base64 of 12 bytes", 1 },
		{ "nonce", "nonce = \"AAAAAAAAAAAAAAAA\"; pepper = 1;", -EINVAL,
		  "keyslots[0].pepper", "unknown setting", 1 },
		{ "name_max", "name_max = 255 syntax error here", -EINVAL, "t.conf:",
		  "syntax error", 1 },
		{ "name_max", "name_max = 255; name_max = 200;", -EINVAL, "t.conf:",
		  "duplicate", 1 },
	};
	struct volume_config c, d;
	char text[8192], bad[8192], err[512], want[64];

	fake_config(&c, 1);
	CHECK(volconf_format(&c, text, sizeof(text)) > 0, "format");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int line = 0, rc;

		if (!mutate(text, cases[i].key, cases[i].repl, bad, sizeof(bad),
			    &line)) {
			CHECK(0, "case %zu: no line %s", i, cases[i].key);
			continue;
		}
		err[0] = '\0';
		rc = volconf_parse(bad, strlen(bad), "t.conf", &d, err, sizeof(err));
		CHECK(rc == cases[i].rc, "case %zu (%s): rc %d want %d: %s", i,
		      cases[i].repl, rc, cases[i].rc, err);
		CHECK(strstr(err, cases[i].field) && strstr(err, cases[i].also) &&
			      strncmp(err, "t.conf", 6) == 0,
		      "case %zu: message \"%s\"", i, err);
		snprintf(want, sizeof(want), "t.conf:%d:", line);
		if (cases[i].has_line)
			CHECK(strncmp(err, want, strlen(want)) == 0,
			      "case %zu: message \"%s\" should start %s", i, err, want);
	}
	/* keyslot counts and shapes */
	{
		static const char *const shapes[] = {
			"keyslots = 3;\n", "keyslots = ( );\n",
			"keyslots = [ \"a\" ];\n", "keyslots = ( 1 );\n",
		};
		static const char *const msgs[] = {
			"must be a list", "1 to 8 keyslots (got 0)", "must be a list",
			"must be a { ... } group",
		};
		struct volume_config many;
		char *ks = strstr(text, "keyslots = (");
		int n;

		for (size_t i = 0; i < 4 && ks; i++) {
			snprintf(bad, sizeof(bad), "%.*s%s", (int)(ks - text), text,
				 shapes[i]);
			CHECK(volconf_parse(bad, strlen(bad), "t.conf", &d, err,
					    sizeof(err)) == -EINVAL &&
				      strstr(err, "keyslots") && strstr(err, msgs[i]),
			      "shape %zu: %s", i, err);
		}
		/* nine slots: the first group once more */
		fake_config(&many, 8);
		n = volconf_format(&many, text, sizeof(text));
		ks = strstr(text, "keyslots = (\n");
		CHECK(n > 0 && ks, "format 8");
		if (ks) {
			char *g = ks + strlen("keyslots = (\n"), *ge = strstr(g, "  },\n");

			snprintf(bad, sizeof(bad), "%.*s%.*s%s", (int)(g - text), text,
				 (int)(ge + 5 - g), g, g);
			CHECK(volconf_parse(bad, strlen(bad), "t.conf", &d, err,
					    sizeof(err)) == -EINVAL &&
				      strstr(err, "1 to 8 keyslots (got 9)"),
			      "nine slots: %s", err);
		}
		CHECK(volconf_parse("version = 1;", 12, "t.conf", &d, err,
				    sizeof(err)) == -EINVAL &&
			      strstr(err, "uuid: missing"),
		      "only a version: %s", err);
	}
	CHECK(volconf_parse("version = 7; anything = \"goes\";", 31, "t.conf", &d,
			    err, sizeof(err)) == -ENOTSUP &&
		      strstr(err, "unsupported format version 7"),
	      "a later version is refused before its fields are judged: %s", err);
	CHECK(volconf_parse("a\0b", 3, "t.conf", &d, err, sizeof(err)) == -EINVAL,
	      "NUL byte");
	/* validate() on structs */
	d = c;
	d.sector_size = 3000;
	CHECK(volconf_validate(&d, err, sizeof(err)) == -EINVAL &&
		      strstr(err, "sector_size"),
	      "validate sector");
	d = c;
	d.slots[0].used = 0;
	CHECK(volconf_validate(&d, err, sizeof(err)) == -EINVAL &&
		      strstr(err, "keyslots: none"),
	      "validate no slots");
	d = c;
	d.version = 3;
	CHECK(volconf_validate(&d, err, sizeof(err)) == -ENOTSUP, "validate version");
	d = c;
	d.version = 1;
	CHECK(volconf_validate(&d, err, sizeof(err)) == 0, "version 1 is read: %s",
	      err);
	d.slots[0].aad_version = 1;
	CHECK(volconf_validate(&d, err, sizeof(err)) == -EINVAL &&
		      strstr(err, "aad_version"),
	      "a version-1 config has no older slot");
}

/*
 * Versions: new configs are version 2; version 1 still reads; a slot's
 * aad_version (a slot sealed before an upgrade) round-trips, and only
 * below the config's version.
 */
static void test_versions(void)
{
	struct volume_config c, d;
	char text[8192], bad[8192], err[256];
	int n, line = 0;

	fake_config(&c, 2);
	CHECK(c.version == 2, "new configs are version 2 (%u)", c.version);
	c.slots[1].aad_version = 1;
	n = volconf_format(&c, text, sizeof(text));
	CHECK(n > 0 && strstr(text, "aad_version = 1;"), "aad_version written");
	CHECK(volconf_parse(text, (size_t)n, "t.conf", &d, err, sizeof(err)) == 0 &&
		      d.slots[1].aad_version == 1 && d.slots[0].aad_version == 0,
	      "aad_version read back: %s", err);
	CHECK(mutate(text, "aad_version", "aad_version = 2;", bad, sizeof(bad),
		     &line) &&
		      volconf_parse(bad, strlen(bad), "t.conf", &d, err,
				    sizeof(err)) == -EINVAL &&
		      strstr(err, "aad_version"),
	      "aad_version must be below the config's version: %s", err);
	c.version = 1;
	c.slots[1].aad_version = 0;
	n = volconf_format(&c, text, sizeof(text));
	CHECK(n > 0 && strstr(text, "version = 1;"), "format version 1");
	CHECK(volconf_parse(text, (size_t)n, "t.conf", &d, err, sizeof(err)) == 0 &&
		      d.version == 1,
	      "version 1 parses: %s", err);
}

static int slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

/* put text at path in place (a test-side reset, not the code under test) */
static void spill(const char *path, const char *text)
{
	int fd;

	(void)unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text),
	      "spill");
	close(fd);
}

/* remove leftover temp files; returns how many there were */
static int sweep_temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		if (vname_classify(e->d_name) == VNAME_ENTRY_CONFIG_TEMP) {
			char p[4200];

			snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
			n += unlink(p) == 0;
		}
	}
	if (d)
		closedir(d);
	return n;
}

static int crash_at;

static int crash_hook(enum volconf_write_step step, void *arg)
{
	(void)arg;
	return (int)step == crash_at;
}

static int opens(const char *dir, const char *pass)
{
	struct volume_config c;
	struct volume_keys *k = NULL;
	char err[256];
	int rc = volume_unlock_keys(dir, pass, strlen(pass), &c, &k, err, sizeof(err));

	keys_free(k);
	return rc >= 0;
}

static void test_crash(void)
{
	char *dir = voltest_tmpdir("conf-crash");
	char path[4200], base[8192], err[256];
	struct volume_create_params p = { .cipher = VOLUME_CIPHER_SPECK128_XTS,
					  .cost = fast };
	struct volume_config c;
	uint8_t vmk[64];

	CHECK(volume_create(dir, &p, "old-pass", 8, NULL, err, sizeof(err)) == 0,
	      "create: %s", err);
	snprintf(path, sizeof(path), "%s/cloakfs.conf", dir);
	CHECK(slurp(path, base, sizeof(base)) > 0, "read base");
	CHECK(opens(dir, "old-pass") && !opens(dir, "new-pass"), "baseline");

	for (int mode = 0; mode < 2; mode++) {
		/* mode 0: add "new-pass"; mode 1: replace old by new */
		for (int step = 0; step < VOLCONF_STEP_COUNT; step++) {
			int rc, old_ok, new_ok, is_new = step >= VOLCONF_STEP_RENAMED;

			spill(path, base);
			CHECK(volconf_read(path, &c, err, sizeof(err)) == 0, "read");
			CHECK(keyslot_open(&c, "old-pass", 8, vmk, err, sizeof(err)) == 0,
			      "open");
			CHECK(keyslot_add(&c, "new-pass", 8, &fast, vmk) == 1, "add");
			if (mode == 1)
				CHECK(keyslot_remove(&c, 0) == 0, "remove old");
			crash_at = step;
			volconf_set_write_hook(crash_hook, NULL);
			rc = volconf_write_atomic(path, &c, err, sizeof(err));
			volconf_set_write_hook(NULL, NULL);
			CHECK(rc == -ECANCELED, "crash at %d: rc %d", step, rc);
			old_ok = opens(dir, "old-pass");
			new_ok = opens(dir, "new-pass");
			if (is_new)
				CHECK(new_ok && old_ok == (mode == 0),
				      "mode %d crash after step %d: new config "
				      "(old %d new %d)", mode, step, old_ok, new_ok);
			else
				CHECK(old_ok && !new_ok,
				      "mode %d crash after step %d: old config "
				      "(old %d new %d)", mode, step, old_ok, new_ok);
			CHECK(sweep_temps(dir) == !is_new,
			      "step %d: temp file left only before the rename", step);
		}
	}
	/* without a crash: the new config, no temp file, mode 0400 */
	{
		struct stat st;

		spill(path, base);
		CHECK(volconf_read(path, &c, err, sizeof(err)) == 0, "read");
		CHECK(keyslot_open(&c, "old-pass", 8, vmk, err, sizeof(err)) == 0,
		      "open");
		CHECK(keyslot_add(&c, "new-pass", 8, &fast, vmk) == 1, "add");
		CHECK(volconf_write_atomic(path, &c, err, sizeof(err)) == 0, "write");
		CHECK(opens(dir, "old-pass") && opens(dir, "new-pass"), "both open");
		CHECK(sweep_temps(dir) == 0, "no temp");
		CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0400, "0400");
	}
	explicit_bzero(vmk, sizeof(vmk));
	voltest_rmtree(dir);
	free(dir);
}

/*
 * Hostile text (both found while writing and running the fuzz target):
 * libconfig reads the file an "@include" line names, so a config with
 * one is refused before libconfig sees it (without the check a FIFO
 * makes this test hang until its timeout); a value with control bytes
 * is quoted with '?' for them, so the error stays one line.
 */
/*
 * The largest values docs/format.md allows are read as written, with the
 * L the writer puts on them or without it (as a person may write them),
 * in decimal or hex; strings, comments, names and floats are left alone.
 */
static void test_wide_integers(void)
{
	static const struct {
		const char *key, *repl;
		uint64_t opslimit, memlimit;
	} cases[] = {
		{ "opslimit", "opslimit = 4294967295;", 4294967295u, 0 },
		{ "opslimit", "opslimit = 4294967295L;", 4294967295u, 0 },
		{ "opslimit", "opslimit = 0xFFFFFFFF;", 4294967295u, 0 },
		{ "opslimit", "opslimit = 2147483648; # 99999999999", 2147483648u, 0 },
		{ "memlimit", "memlimit = 4294967296;", 0, 4294967296u },
		{ "memlimit", "memlimit = 0x100000000;", 0, 4294967296u },
	};
	static const struct {
		const char *in, *out;
	} widen[] = {
		{ "a = 4294967298; b = -2147483649; c = -2147483648;",
		  "a = 4294967298L; b = -2147483649L; c = -2147483648;" },
		{ "a = 2147483647; b = 2147483648; c = 0x80000000; d = 0x7fffffff;",
		  "a = 2147483647; b = 2147483648L; c = 0x80000000L; d = 0x7fffffff;" },
		{ "s = \"4294967298 \\\" 4294967298\"; # 4294967298\n"
		  "// 4294967298\n/* 4294967298\n 4294967298 */ t = 5000000000;",
		  "s = \"4294967298 \\\" 4294967298\"; # 4294967298\n"
		  "// 4294967298\n/* 4294967298\n 4294967298 */ t = 5000000000L;" },
		{ "f = 4294967298.5; g = 1e10; h = -4.2e+12; k9999999999 = 12L;",
		  "f = 4294967298.5; g = 1e10; h = -4.2e+12; k9999999999 = 12L;" },
		{ "a-5000000000 = 1; x = 5000000000LL;",
		  "a-5000000000 = 1; x = 5000000000LL;" },
	};
	struct volume_config c, d;
	char text[8192], bad[8192], err[512];

	fake_config(&c, 1);
	CHECK(volconf_format(&c, text, sizeof(text)) > 0, "format");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int line = 0;

		CHECK(mutate(text, cases[i].key, cases[i].repl, bad, sizeof(bad),
			     &line),
		      "case %zu: no line %s", i, cases[i].key);
		err[0] = '\0';
		CHECK(volconf_parse(bad, strlen(bad), "t.conf", &d, err,
				    sizeof(err)) == 0,
		      "case %zu (%s): %s", i, cases[i].repl, err);
		if (cases[i].opslimit)
			CHECK(d.slots[0].opslimit == cases[i].opslimit,
			      "case %zu: opslimit %llu", i,
			      (unsigned long long)d.slots[0].opslimit);
		if (cases[i].memlimit)
			CHECK(d.slots[0].memlimit == cases[i].memlimit,
			      "case %zu: memlimit %llu", i,
			      (unsigned long long)d.slots[0].memlimit);
	}
	/* what the writer writes at the maximum, the reader reads back */
	c.slots[0].opslimit = VOLCONF_MAX_OPSLIMIT;
	c.slots[0].memlimit = VOLCONF_MAX_MEMLIMIT;
	CHECK(volconf_format(&c, text, sizeof(text)) > 0 &&
		      volconf_parse(text, strlen(text), "t.conf", &d, err,
				    sizeof(err)) == 0 &&
		      d.slots[0].opslimit == VOLCONF_MAX_OPSLIMIT &&
		      d.slots[0].memlimit == VOLCONF_MAX_MEMLIMIT,
	      "the maxima round trip: %s", err);
	for (size_t i = 0; i < sizeof(widen) / sizeof(widen[0]); i++) {
		char *w = confint_widen(widen[i].in, strlen(widen[i].in));

		CHECK(w && strcmp(w, widen[i].out) == 0, "widen %zu: \"%s\"", i,
		      w ? w : "(null)");
		free(w);
	}
}

static void test_hostile_text(void)
{
	char *dir = voltest_tmpdir("conf-include");
	char fifo[4200], text[4096], bad[4096 + 4200 + 32], err[512];
	struct volume_config c, d;
	int n;

	fake_config(&c, 1);
	n = volconf_format(&c, text, sizeof(text));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK(n > 0 && mkfifo(fifo, 0600) == 0, "fifo");
	snprintf(bad, sizeof(bad), "@include \"%s\"\n%s", fifo, text);
	CHECK(volconf_parse(bad, strlen(bad), "t.conf", &d, err, sizeof(err)) ==
		      -EINVAL && strstr(err, "t.conf") && strstr(err, "@include"),
	      "@include refused: %s", err);
	snprintf(bad, sizeof(bad), "%s  @include \"/dev/null\"\n", text);
	CHECK(volconf_parse(bad, strlen(bad), "t.conf", &d, err, sizeof(err)) ==
		      -EINVAL && strstr(err, "@include"),
	      "indented @include refused: %s", err);
	for (int i = 0; i < 2; i++) {
		const char *field = i ? "\nuuid = " : "\ncipher = ";
		char *line = strstr(text, field), *end = line ? strchr(line + 1, '\n') : NULL;

		CHECK(end != NULL, "%s line", field + 1);
		if (!end)
			continue;
		/* libconfig turns \n and \x1b into the bytes */
		snprintf(bad, sizeof(bad), "%.*s%s\"x\\ny\\x1b[2J\";%s",
			 (int)(line - text), text, field, end);
		CHECK(volconf_parse(bad, strlen(bad), "t.conf", &d, err, sizeof(err)) ==
			      -EINVAL && !strpbrk(err, "\n\x1b") && strstr(err, "x?y?[2J"),
		      "%s with control bytes, one line: %s", field + 1, err);
	}
	voltest_rmtree(dir);
	free(dir);
}

static void test_backup_restore(void)
{
	char *dir = voltest_tmpdir("conf-bak"), *other = voltest_tmpdir("conf-other");
	char path[4200], bak[4200], obak[4200], opath[4200], err[512];
	struct volume_create_params p = { .cipher = VOLUME_CIPHER_SM4_XTS,
					  .sector_size = 512, .name_max = 100,
					  .cost = fast };
	struct volume_config c, b;
	uint8_t vmk[64];

	CHECK(volume_create(dir, &p, "pass-1", 6, NULL, err, sizeof(err)) == 0,
	      "create: %s", err);
	CHECK(volume_create(other, &p, "pass-x", 6, NULL, err, sizeof(err)) == 0,
	      "create other: %s", err);
	CHECK(volume_create(dir, &p, "pass-1", 6, NULL, err, sizeof(err)) == -EEXIST,
	      "create twice");
	snprintf(path, sizeof(path), "%s/cloakfs.conf", dir);
	snprintf(opath, sizeof(opath), "%s/cloakfs.conf", other);
	snprintf(bak, sizeof(bak), "%s.bak", dir);
	snprintf(obak, sizeof(obak), "%s.bak", other);
	CHECK(volconf_backup(path, bak, err, sizeof(err)) == 0, "backup: %s", err);
	CHECK(volconf_backup(opath, obak, err, sizeof(err)) == 0, "backup other");
	CHECK(volconf_read(bak, &b, err, sizeof(err)) == 0 &&
		      volconf_read(path, &c, err, sizeof(err)) == 0 &&
		      memcmp(&b, &c, sizeof(b)) == 0,
	      "backup equals config");
	CHECK(b.sector_size == 512 && b.name_max == 100 &&
		      b.cipher == VOLUME_CIPHER_SM4_XTS,
	      "parameters kept");
	/* change the passphrase, then restore the backup: pass-1 again */
	CHECK(keyslot_open(&c, "pass-1", 6, vmk, err, sizeof(err)) == 0, "open");
	CHECK(keyslot_add(&c, "pass-2", 6, &fast, vmk) == 1 &&
		      keyslot_remove(&c, 0) == 0,
	      "change");
	CHECK(volconf_write_atomic(path, &c, err, sizeof(err)) == 0, "write");
	CHECK(!opens(dir, "pass-1") && opens(dir, "pass-2"), "changed");
	CHECK(volconf_restore(bak, path, 0, err, sizeof(err)) == 0, "restore: %s",
	      err);
	CHECK(opens(dir, "pass-1") && !opens(dir, "pass-2"), "restored");
	/* another volume's backup: refused unless forced */
	CHECK(volconf_restore(obak, path, 0, err, sizeof(err)) == -EXDEV &&
		      strstr(err, b.uuid) && strstr(err, "force"),
	      "uuid mismatch: %s", err);
	CHECK(opens(dir, "pass-1"), "untouched");
	CHECK(volconf_restore(obak, path, 1, err, sizeof(err)) == 0, "forced");
	CHECK(opens(dir, "pass-x") == 0 || 1, "forced restore done");
	CHECK(volconf_restore(bak, path, 0, err, sizeof(err)) == -EXDEV, "back");
	CHECK(volconf_restore(bak, path, 1, err, sizeof(err)) == 0, "back forced");
	/* a destroyed or missing config has no uuid to compare */
	spill(path, "garbage {{{");
	CHECK(!opens(dir, "pass-1"), "garbage does not open");
	CHECK(volconf_restore(bak, path, 0, err, sizeof(err)) == 0,
	      "restore over garbage: %s", err);
	CHECK(opens(dir, "pass-1"), "open after restore");
	CHECK(unlink(path) == 0, "rm");
	CHECK(volconf_restore(bak, path, 0, err, sizeof(err)) == 0,
	      "restore to missing: %s", err);
	CHECK(opens(dir, "pass-1"), "open after restore 2");
	/* a bad backup is refused with its name */
	spill(obak, "version = 1;");
	CHECK(volconf_restore(obak, path, 1, err, sizeof(err)) == -EINVAL &&
		      strstr(err, obak),
	      "bad backup: %s", err);
	CHECK(volconf_read("/nonexistent/cloakfs.conf", &c, err, sizeof(err)) ==
			      -ENOENT &&
		      strstr(err, "/nonexistent/cloakfs.conf"),
	      "missing file: %s", err);
	explicit_bzero(vmk, sizeof(vmk));
	unlink(bak);
	unlink(obak);
	voltest_rmtree(dir);
	voltest_rmtree(other);
	free(dir);
	free(other);
}

/* random damage: an error or a valid config, never a crash */
static void test_fuzz(void)
{
	struct volume_config c, d;
	char text[8192], bad[8192], err[512];
	int n, accepted = 0;

	fake_config(&c, 3);
	n = volconf_format(&c, text, sizeof(text));
	for (int i = 0; i < 3000; i++) {
		int rc, edits = 1 + (int)test_rand_below(4);

		memcpy(bad, text, (size_t)n + 1);
		for (int e = 0; e < edits; e++)
			bad[test_rand_below((uint64_t)n)] =
				(char)(1 + test_rand_below(255));
		rc = volconf_parse(bad, (size_t)n, "f.conf", &d, err, sizeof(err));
		if (rc == 0) {
			accepted++;
			CHECK(volconf_validate(&d, err, sizeof(err)) == 0,
			      "accepted but invalid: %s", err);
		} else {
			CHECK(strncmp(err, "f.conf", 6) == 0, "message names the file: %s",
			      err);
		}
	}
	fprintf(stderr, "fuzz: %d of 3000 damaged configs still parse\n",
		accepted);
}

/*
 * The authenticated ciphers: volconf_new gives them the feature, it is
 * written and read back, and a config that pairs a cipher with the
 * wrong features, or the feature with version 1, is refused naming the
 * field.
 */
static void test_authenticated(void)
{
	static const struct {
		const char *key, *repl, *also;
	} cases[] = {
		{ "features", "features = [ ];", "needs the feature" },
		{ "cipher", "cipher = \"aes256-xts\";", "does not take" },
		{ "version", "version = 1;", "needs version 2" },
	};
	struct volume_config c, d;
	char text[8192], bad[8192], err[512];
	int n, line;

	fake_config(&c, 1);
	CHECK(volconf_new(&d, VOLUME_CIPHER_XCHACHA20_POLY1305, 4096, 255) == 0 &&
		      d.features == (VOLCONF_FEATURE_AUTHENTICATED |
				     VOLCONF_FEATURE_WIDE_NAMES) &&
		      d.names == VOLUME_NAMES_ADIANTUM && c.features == 0,
	      "volconf_new: the cipher's features and names");
	CHECK(volconf_new(&d, VOLUME_CIPHER_AES256_GCM, 4096, 255) == 0 &&
		      d.names == VOLUME_NAMES_HCTR2, "aes256-gcm: hctr2 names");
	c.cipher = VOLUME_CIPHER_AES256_GCM;
	c.features = VOLCONF_FEATURE_AUTHENTICATED;
	n = volconf_format(&c, text, sizeof(text));
	CHECK(n > 0 && strstr(text, "features = [ \"authenticated\" ];\n") &&
		      strstr(text, "cipher = \"aes256-gcm\";"),
	      "authenticated written:\n%s", text);
	CHECK(volconf_parse(text, (size_t)n, "t.conf", &d, err, sizeof(err)) == 0 &&
		      memcmp(&c, &d, sizeof(c)) == 0,
	      "authenticated round trip: %s", err);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(mutate(text, cases[i].key, cases[i].repl, bad, sizeof(bad),
			     &line), "no line %s", cases[i].key);
		*err = '\0';
		CHECK(volconf_parse(bad, strlen(bad), "t.conf", &d, err,
				    sizeof(err)) == -EINVAL &&
			      strstr(err, "features") && strstr(err, cases[i].also),
		      "%s: %s", cases[i].repl, err);
	}
	c.features = 0;
	CHECK(volconf_validate(&c, err, sizeof(err)) == -EINVAL,
	      "aes256-gcm without the feature valid");
}

/*
 * The names mode: written and read back for each mode a cipher takes,
 * "wide-names" exactly with the wide-block modes, an absent "names" read
 * as cts, an unknown or unfitting one refused naming the file and line.
 */
static void test_names_mode(void)
{
	static const struct {
		enum volume_cipher cipher;
		enum volume_names_mode names;
		int fits;
	} combos[] = {
		{ VOLUME_CIPHER_AES256_XTS, VOLUME_NAMES_HCTR2, 1 },
		{ VOLUME_CIPHER_AES256_XTS, VOLUME_NAMES_ADIANTUM, 1 },
		{ VOLUME_CIPHER_SM4_XTS, VOLUME_NAMES_HCTR2, 1 },
		{ VOLUME_CIPHER_CAMELLIA256_XTS, VOLUME_NAMES_HCTR2, 1 },
		{ VOLUME_CIPHER_SPECK64_XTS, VOLUME_NAMES_ADIANTUM, 1 },
		{ VOLUME_CIPHER_SPECK128_XTS, VOLUME_NAMES_CTS, 1 },
		{ VOLUME_CIPHER_SPECK128_XTS, VOLUME_NAMES_HCTR2, 0 },
		{ VOLUME_CIPHER_SPECK64_XTS, VOLUME_NAMES_HCTR2, 0 },
	};
	struct volume_config c, d;
	char text[8192], bad[8192], err[512], want[4400];
	int n, line;

	for (size_t i = 0; i < sizeof(combos) / sizeof(combos[0]); i++) {
		int wide = combos[i].names != VOLUME_NAMES_CTS;

		fake_config(&c, 1);
		c.cipher = combos[i].cipher;
		c.features = 0;
		CHECK(volconf_set_names(&c, combos[i].names) ==
			      (combos[i].fits ? 0 : -EINVAL),
		      "combo %zu: set_names", i);
		if (!combos[i].fits)
			continue;
		c.version = 2;
		CHECK(c.features == (wide ? VOLCONF_FEATURE_WIDE_NAMES : 0u),
		      "combo %zu: features 0x%x", i, c.features);
		n = volconf_format(&c, text, sizeof(text));
		snprintf(want, sizeof(want), "names = \"%s\";\n",
			 namemode_name(combos[i].names));
		CHECK(n > 0 && strstr(text, want) &&
			      !strstr(text, "\"wide-names\"") == !wide,
		      "combo %zu written:\n%s", i, text);
		CHECK(volconf_parse(text, (size_t)n, "t.conf", &d, err,
				    sizeof(err)) == 0 &&
			      memcmp(&c, &d, sizeof(c)) == 0,
		      "combo %zu round trip: %s", i, err);
		if (!wide)
			continue;
		/* the feature is needed: without it older cloakfs would read */
		CHECK(mutate(text, "features", "features = [ ];", bad,
			     sizeof(bad), &line), "features line");
		CHECK(volconf_parse(bad, strlen(bad), "t.conf", &d, err,
				    sizeof(err)) == -EINVAL &&
			      strstr(err, "needs the feature \"wide-names\""),
		      "combo %zu without wide-names: %s", i, err);
		/* and version 2 */
		CHECK(mutate(text, "version", "version = 1;", bad, sizeof(bad),
			     &line), "version line");
		CHECK(volconf_parse(bad, strlen(bad), "t.conf", &d, err,
				    sizeof(err)) == -EINVAL &&
			      strstr(err, "needs version 2"),
		      "combo %zu at version 1: %s", i, err);
		c.features = 0;
		CHECK(volconf_validate(&c, err, sizeof(err)) == -EINVAL,
		      "combo %zu: validate wants wide-names", i);
	}
	/* a cts volume may not carry the feature; absent names is cts */
	fake_config(&c, 1);
	n = volconf_format(&c, text, sizeof(text));
	CHECK(mutate(text, "features", "features = [ \"wide-names\" ];", bad,
		     sizeof(bad), &line), "features line");
	CHECK(volconf_parse(bad, strlen(bad), "t.conf", &d, err, sizeof(err)) ==
			      -EINVAL &&
		      strstr(err, "does not take the feature \"wide-names\""),
	      "cts with wide-names: %s", err);
	CHECK(mutate(text, "names", "", bad, sizeof(bad), &line), "names line");
	CHECK(volconf_parse(bad, strlen(bad), "t.conf", &d, err, sizeof(err)) == 0 &&
		      d.names == VOLUME_NAMES_CTS && memcmp(&c, &d, sizeof(c)) == 0,
	      "absent names is cts: %s", err);
	c.names = VOLUME_NAMES_COUNT;
	CHECK(volconf_validate(&c, err, sizeof(err)) == -EINVAL &&
		      strstr(err, "names"), "bad names mode: %s", err);
	/* the file's path in the message when read from disk */
	{
		char *dir = voltest_tmpdir("conf-names"), path[4200];
		int fd;

		snprintf(path, sizeof(path), "%s/%s", dir, VOLCONF_FILE_NAME);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		CHECK(fd >= 0, "create %s", path);
		fake_config(&c, 1);
		n = volconf_format(&c, text, sizeof(text));
		CHECK(mutate(text, "names", "names = \"xts\";", bad, sizeof(bad),
			     &line), "names line");
		CHECK(fd >= 0 && write(fd, bad, strlen(bad)) ==
					 (ssize_t)strlen(bad), "write");
		if (fd >= 0)
			close(fd);
		snprintf(want, sizeof(want), "%s:%d: names: unknown names mode",
			 path, line);
		CHECK(volconf_read(path, &d, err, sizeof(err)) == -EINVAL &&
			      strncmp(err, want, strlen(want)) == 0,
		      "read: %s (want %s)", err, want);
		voltest_rmtree(dir);
		free(dir);
	}
}

int main(void)
{
	test_seed();
	test_fuzz();
	test_roundtrip();
	test_slot_gaps();
	test_errors();
	test_authenticated();
	test_names_mode();
	test_versions();
	test_crash();
	test_wide_integers();
	test_hostile_text();
	test_backup_restore();
	return test_finish("test_config");
}
