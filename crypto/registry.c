/* SPDX-License-Identifier: MIT */
/*
 * The driver table. Filled once by crypto_init() (crypto.c) under a
 * pthread_once, read-only afterwards except for each driver's self-test
 * state, which crypto.c guards with a mutex.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "crypto/internal/core.h"

#define MAX_DRIVERS 512
#define MAX_TESTVECS 128

/* storage for drivers the registry builds itself (template instances) */
struct instance {
	struct skcipher_alg alg;
	struct aead_alg aead;
	char alg_name[48];
	char driver_name[64];
	char base_name[96];
};

struct crypto_registry {
	unsigned int count;
	struct crypto_driver drivers[MAX_DRIVERS];
	unsigned int ntv;
	const struct crypto_testvecs *tv[MAX_TESTVECS];
};

static struct crypto_registry registry;
static struct instance instances[MAX_DRIVERS];
static unsigned int ninstances;

struct crypto_registry *crypto_registry_get(void)
{
	return &registry;
}

unsigned int registry_count(void)
{
	return registry.count;
}

struct crypto_driver *registry_driver(unsigned int i)
{
	return i < registry.count ? &registry.drivers[i] : NULL;
}

struct crypto_driver *registry_find_driver(const char *driver_name)
{
	for (unsigned int i = 0; i < registry.count; i++)
		if (!strcmp(registry.drivers[i].driver_name, driver_name))
			return &registry.drivers[i];
	return NULL;
}

static int check_driver(const struct crypto_driver *drv)
{
	if (!drv->alg_name || !drv->driver_name || !drv->type)
		return -EINVAL;
	switch (drv->type) {
	case CRYPTO_TYPE_CIPHER:
		return drv->u.cipher ? 0 : -EINVAL;
	case CRYPTO_TYPE_SKCIPHER:
		return drv->u.skcipher ? 0 : -EINVAL;
	case CRYPTO_TYPE_HASH:
		return drv->u.hash || drv->child ? 0 : -EINVAL;
	case CRYPTO_TYPE_AEAD:
		return drv->u.aead ? 0 : -EINVAL;
	}
	return -EINVAL;
}

int crypto_register_driver(struct crypto_registry *reg,
			   const struct crypto_driver *drv)
{
	struct crypto_driver *d;
	int err = check_driver(drv);

	if (err) {
		log_error("crypto: driver %s: incomplete description",
			  drv->driver_name ? drv->driver_name : "(unnamed)");
		return err;
	}
	for (unsigned int i = 0; i < reg->count; i++)
		if (!strcmp(reg->drivers[i].driver_name, drv->driver_name))
			return -EEXIST;
	if (reg->count >= MAX_DRIVERS)
		return -ENOSPC;
	d = &reg->drivers[reg->count++];
	*d = *drv;
	d->selftest = CRYPTO_SELFTEST_UNTESTED;
	d->selftest_reason[0] = '\0';
	d->disabled = 0;
	switch (d->type) {
	case CRYPTO_TYPE_CIPHER:
		d->ctxsize = d->u.cipher->ctxsize;
		break;
	case CRYPTO_TYPE_SKCIPHER:
		d->ctxsize = d->u.skcipher->ctxsize;
		break;
	case CRYPTO_TYPE_HASH:
		d->ctxsize = d->u.hash ? d->u.hash->statesize : hmac_ctxsize(d);
		break;
	case CRYPTO_TYPE_AEAD:
		d->ctxsize = d->u.aead->ctxsize;
		break;
	}
	return 0;
}

int crypto_register_drivers(struct crypto_registry *reg,
			    const struct crypto_driver *drv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int err = crypto_register_driver(reg, &drv[i]);

		if (err)
			return err;
	}
	return 0;
}

/* a template's accepted child block sizes, as a bit mask */
#define BS(n) (1u << (n))
#define BS_ANY (BS(CRYPTO_MAX_BLOCKSIZE + 1) - 2) /* 1..CRYPTO_MAX_BLOCKSIZE */

/*
 * The mode templates and which children they fit: a cipher whose block
 * size a template does not take gets no instance of it (skipped, not an
 * error, so a new cipher never breaks crypto_init), and an explicit
 * crypto_register_mode of such a pair is -EINVAL.
 */
static const struct {
	const char *mode;
	const char *alg_fmt; /* printf format over the child's alg name */
	unsigned int blocksizes; /* BS() of the child block sizes it takes */
	int (*init)(struct skcipher_alg *, const struct crypto_driver *);
} modes[] = {
	{ "cbc", "cbc(%s)", BS_ANY, cbc_template_init },
	{ "cfb", "cfb(%s)", BS_ANY, cfb_template_init },
	{ "ctr", "ctr(%s)", BS_ANY, ctr_template_init },
	{ "cts", "cts(cbc(%s))", BS_ANY, cts_template_init },
	{ "ecb", "ecb(%s)", BS_ANY, ecb_template_init },
	/* HCTR2's counter mode: a 16-byte nonce and block */
	{ "xctr", "xctr(%s)", BS(16), xctr_template_init },
	/* GF(2^128) or GF(2^64) tweaks only */
	{ "xts", "xts(%s)", BS(8) | BS(16), xts_template_init },
};

static int mode_fits(size_t m, const struct crypto_driver *child)
{
	unsigned int bs = child->u.cipher->blocksize;

	return bs >= 1 && bs <= CRYPTO_MAX_BLOCKSIZE && (modes[m].blocksizes & BS(bs));
}

/*
 * Whether any registered vector set exercises template m (over any
 * child): instances of a template without one are not offered, since no
 * self-test could pass them (testmgr.c trusts a template instance without
 * vectors of its own only after the template passed vectors elsewhere).
 */
static int mode_has_vectors(const struct crypto_registry *reg, size_t m)
{
	const char *fmt = modes[m].alg_fmt;
	size_t plen = (size_t)(strstr(fmt, "%s") - fmt);

	for (unsigned int i = 0; i < reg->ntv; i++)
		if (!strncmp(reg->tv[i]->alg_name, fmt, plen))
			return 1;
	return 0;
}

int crypto_register_mode(struct crypto_registry *reg,
			 const struct crypto_mode_instance *mi)
{
	const struct crypto_driver *child = NULL;
	struct crypto_driver drv;
	struct instance *in;
	int err;

	for (unsigned int i = 0; i < reg->count; i++)
		if (!strcmp(reg->drivers[i].driver_name, mi->child_driver))
			child = &reg->drivers[i];
	if (!child || child->type != CRYPTO_TYPE_CIPHER) {
		log_error("crypto: mode %s: no cipher driver %s", mi->mode,
			  mi->child_driver);
		return -ENOENT;
	}
	for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
		if (strcmp(modes[m].mode, mi->mode))
			continue;
		if (!mode_fits(m, child)) {
			log_error("crypto: mode %s does not take %s (%u-byte blocks)",
				  mi->mode, child->driver_name,
				  child->u.cipher->blocksize);
			return -EINVAL;
		}
		if (ninstances >= MAX_DRIVERS)
			return -ENOSPC;
		in = &instances[ninstances];
		memset(in, 0, sizeof(*in));
		err = modes[m].init(&in->alg, child);
		if (err)
			return err;
		snprintf(in->alg_name, sizeof(in->alg_name), modes[m].alg_fmt,
			 child->alg_name);
		if (mi->driver_name)
			snprintf(in->driver_name, sizeof(in->driver_name), "%s",
				 mi->driver_name);
		else
			snprintf(in->driver_name, sizeof(in->driver_name), "%s-%s",
				 mi->mode, child->driver_name);
		memset(&drv, 0, sizeof(drv));
		drv.alg_name = in->alg_name;
		drv.driver_name = in->driver_name;
		drv.priority = mi->driver_name ? mi->priority : child->priority;
		drv.features = child->features | mi->features;
		/* an instance is only as constant-time as its child and core */
		drv.flags = mi->driver_name ? (mi->flags & child->flags) : child->flags;
		drv.type = CRYPTO_TYPE_SKCIPHER;
		drv.u.skcipher = &in->alg;
		drv.child = child;
		drv.bulk = mi->bulk;
		err = crypto_register_driver(reg, &drv);
		if (!err)
			ninstances++;
		return err;
	}
	return -ENOENT;
}

int crypto_register_modes(struct crypto_registry *reg,
			  const struct crypto_mode_instance *inst, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int err = crypto_register_mode(reg, &inst[i]);

		if (err)
			return err;
	}
	return 0;
}

static int register_simd_cipher(struct crypto_registry *reg,
				const struct crypto_simd_cipher *c)
{
	static const char *const bulk_modes[] = { "ecb", "cbc", "cfb", "ctr", "xts" };
	const struct crypto_driver drv = {
		.alg_name = c->alg_name,
		.driver_name = c->driver_name,
		.priority = c->priority,
		.features = c->features,
		.flags = CRYPTO_F_CONST_TIME,
		.type = CRYPTO_TYPE_CIPHER,
		.u.cipher = c->cipher,
	};
	int err = crypto_register_driver(reg, &drv);

	for (size_t m = 0; !err && m < ARRAY_SIZE(bulk_modes); m++) {
		char name[64]; /* copied by crypto_register_mode */

		snprintf(name, sizeof(name), "%s-%s", bulk_modes[m], c->driver_name);
		err = crypto_register_mode(reg, &(struct crypto_mode_instance){
			.mode = bulk_modes[m],
			.child_driver = c->driver_name,
			.driver_name = name,
			.priority = c->priority,
			.features = c->features,
			.flags = CRYPTO_F_CONST_TIME,
			.bulk = c->bulk,
		});
	}
	return err;
}

int crypto_register_simd_ciphers(struct crypto_registry *reg,
				 const struct crypto_simd_cipher *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int err = register_simd_cipher(reg, &c[i]);

		if (err)
			return err;
	}
	return 0;
}

/*
 * Templates with several children, kernel style: an instance is named by
 * its children ("hctr2_base(xctr-aes-aesni,polyval-pclmul)") and each
 * child must fit its slot (fits(i, d), the template's own check, as the
 * kernel's hctr2 checks for "xctr(" and "polyval"). Instantiated over
 * every fitting combination of registered drivers whose algorithm has
 * vectors of its own (hctr2(aes), hctr2(sm4), hctr2(camellia); not
 * hctr2(speck128): a composition of two children is not trusted from
 * another cipher's vectors).
 */
static const struct {
	const char *name;         /* "hctr2_base" */
	const char *short_name;   /* driver names: "hctr2-<cipher drv>-<hash drv>" */
	unsigned int nchildren;
	int (*fits)(unsigned int slot, const struct crypto_driver *d);
	int (*alg_name)(char *out, size_t len, const struct crypto_driver *const *c);
	/* one of the two, by the instance's type */
	int (*init)(struct skcipher_alg *alg, const struct crypto_driver *const *c);
	int (*init_aead)(struct aead_alg *alg, const struct crypto_driver *const *c);
	/*
	 * 0: instances only where a driver folder registers them
	 * (crypto_register_template_as), e.g. rfc7539 over the x86 chacha20
	 * and poly1305 drivers of the same ISA, not every mixed pair
	 */
	int automatic;
} templates[] = {
	{ "gcm_base", "gcm", 2, gcm_fits, gcm_alg_name, NULL, gcm_template_init, 1 },
	{ "hctr2_base", "hctr2", 2, hctr2_fits, hctr2_alg_name,
	  hctr2_template_init, NULL, 1 },
	{ "rfc7539", "rfc7539", 2, rfc7539_fits, rfc7539_alg_name,
	  NULL, rfc7539_template_init, 0 },
	{ "adiantum", "adiantum", 3, adiantum_fits, adiantum_alg_name,
	  adiantum_template_init, NULL, 1 },
	{ "xchacha20poly1305", "xchacha20poly1305", 2, xchacha_fits,
	  xchacha_alg_name, NULL, xchacha_template_init, 0 },
};

/*
 * the instance's driver name: short name, then each child's, a mode
 * instance child without its mode ("xctr-aes-aesni" as "aes-aesni",
 * "ctr-aes-vaes-avx512", over aes-aesni with a bulk core, as
 * "aes-vaes-avx512")
 */
static int multi_driver_name(char *out, size_t len, size_t t,
			     const struct crypto_driver *const *c)
{
	size_t used = (size_t)snprintf(out, len, "%s", templates[t].short_name);

	for (unsigned int i = 0; i < templates[t].nchildren && used < len; i++) {
		const char *dash = strchr(c[i]->driver_name, '-');
		const char *name = c[i]->child && dash ? dash + 1 : c[i]->driver_name;

		used += (size_t)snprintf(out + used, len - used, "-%s", name);
	}
	return used < len ? 0 : -EINVAL;
}

int crypto_register_template(struct crypto_registry *reg, const char *spec)
{
	return crypto_register_template_as(reg, spec, NULL);
}

int crypto_register_template_as(struct crypto_registry *reg, const char *spec,
				const char *driver_name)
{
	const struct crypto_driver *c[CRYPTO_MAX_CHILDREN] = { NULL };
	struct crypto_name nm;
	struct crypto_driver drv;
	struct instance *in;
	size_t t;
	int err, prio = 0, weight = 0;

	if (crypto_name_parse(spec, &nm)) {
		log_error("crypto: template instance \"%s\": malformed name", spec);
		return -EINVAL;
	}
	for (t = 0; t < ARRAY_SIZE(templates); t++)
		if (!strcmp(templates[t].name, nm.tmpl))
			break;
	if (t == ARRAY_SIZE(templates))
		return -ENOENT;
	if (nm.nargs != templates[t].nchildren) {
		log_error("crypto: %s takes %u children, not %u", nm.tmpl,
			  templates[t].nchildren, nm.nargs);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < nm.nargs; i++) {
		for (unsigned int j = 0; j < reg->count && !c[i]; j++)
			if (!strcmp(reg->drivers[j].driver_name, nm.args[i]))
				c[i] = &reg->drivers[j];
		if (!c[i]) {
			log_error("crypto: %s: no driver %s", spec, nm.args[i]);
			return -ENOENT;
		}
		if (!templates[t].fits(i, c[i])) {
			log_error("crypto: %s does not take %s as child %u", nm.tmpl,
				  nm.args[i], i + 1);
			return -EINVAL;
		}
	}
	if (ninstances >= MAX_DRIVERS)
		return -ENOSPC;
	in = &instances[ninstances];
	memset(in, 0, sizeof(*in));
	err = templates[t].init_aead ? templates[t].init_aead(&in->aead, c) :
				       templates[t].init(&in->alg, c);
	if (!err)
		err = templates[t].alg_name(in->alg_name, sizeof(in->alg_name), c);
	if (!err && driver_name &&
	    (size_t)snprintf(in->driver_name, sizeof(in->driver_name), "%s",
			     driver_name) >= sizeof(in->driver_name))
		err = -ENAMETOOLONG;
	else if (!err && !driver_name)
		err = multi_driver_name(in->driver_name, sizeof(in->driver_name), t, c);
	if (err)
		return err;
	memset(&drv, 0, sizeof(drv));
	drv.flags = CRYPTO_F_CONST_TIME;
	snprintf(in->base_name, sizeof(in->base_name), "%s(", nm.tmpl);
	for (unsigned int i = 0; i < nm.nargs; i++) {
		size_t used = strlen(in->base_name);

		snprintf(in->base_name + used, sizeof(in->base_name) - used, "%s%s",
			 c[i]->alg_name, i + 1 < nm.nargs ? "," : ")");
		drv.children[i] = c[i];
		drv.features |= c[i]->features;
		/* only as constant-time (and as generic) as every child */
		drv.flags = (drv.flags & c[i]->flags & CRYPTO_F_CONST_TIME) |
			    ((drv.flags | c[i]->flags) & CRYPTO_F_ARCH);
		/* the first child weighs double, as the kernel's hctr2 ranks */
		prio += (i ? 1 : 2) * c[i]->priority;
		weight += i ? 1 : 2;
	}
	drv.alg_name = in->alg_name;
	drv.driver_name = in->driver_name;
	drv.base_name = in->base_name;
	drv.priority = prio / weight;
	if (templates[t].init_aead) {
		drv.type = CRYPTO_TYPE_AEAD;
		drv.u.aead = &in->aead;
	} else {
		drv.type = CRYPTO_TYPE_SKCIPHER;
		drv.u.skcipher = &in->alg;
	}
	err = crypto_register_driver(reg, &drv);
	if (!err)
		ninstances++;
	return err;
}

/* instantiate template t over every fitting choice of children from slot
 * i on (c[0..i) chosen), among the first n drivers */
static int instantiate_multi(struct crypto_registry *reg, size_t t, unsigned int n,
			     const struct crypto_driver **c, unsigned int i)
{
	const struct crypto_testvecs *tv;
	char spec[sizeof(((struct instance *)0)->base_name) + 64], alg[48];
	size_t used;
	int err;

	if (i < templates[t].nchildren) {
		for (unsigned int j = 0; j < n; j++) {
			if (!templates[t].fits(i, &reg->drivers[j]))
				continue;
			c[i] = &reg->drivers[j];
			err = instantiate_multi(reg, t, n, c, i + 1);
			if (err)
				return err;
		}
		return 0;
	}
	if (templates[t].alg_name(alg, sizeof(alg), c) ||
	    !crypto_find_testvecs(alg, &tv, 1))
		return 0; /* not offered without vectors of its own */
	used = (size_t)snprintf(spec, sizeof(spec), "%s(", templates[t].name);
	for (unsigned int k = 0; k < i && used < sizeof(spec); k++)
		used += (size_t)snprintf(spec + used, sizeof(spec) - used, "%s%s",
					 c[k]->driver_name, k + 1 < i ? "," : ")");
	if (used >= sizeof(spec))
		return -ENAMETOOLONG;
	err = crypto_register_template(reg, spec);
	return err == -EEXIST ? 0 : err;
}

int crypto_instantiate_templates(struct crypto_registry *reg)
{
	unsigned int n = reg->count;
	int err;

	for (unsigned int i = 0; i < n; i++) {
		const struct crypto_driver *d = &reg->drivers[i];

		if (d->type == CRYPTO_TYPE_CIPHER) {
			for (size_t m = 0; m < ARRAY_SIZE(modes); m++) {
				struct crypto_mode_instance mi = {
					.mode = modes[m].mode,
					.child_driver = d->driver_name,
				};

				if (!mode_fits(m, d) || !mode_has_vectors(reg, m))
					continue; /* not offered; see modes[] */
				err = crypto_register_mode(reg, &mi);
				if (err && err != -EEXIST)
					return err;
			}
		} else if (d->type == CRYPTO_TYPE_HASH && d->u.hash &&
			   hmac_fits(d->u.hash)) {
			/* HMAC over unkeyed hashes it was sized for (not ghash) */
			struct crypto_driver h;

			if (ninstances >= MAX_DRIVERS)
				return -ENOSPC;
			struct instance *in = &instances[ninstances];

			memset(in, 0, sizeof(*in));
			snprintf(in->alg_name, sizeof(in->alg_name), "hmac(%s)",
				 d->alg_name);
			snprintf(in->driver_name, sizeof(in->driver_name),
				 "hmac-%s", d->driver_name);
			memset(&h, 0, sizeof(h));
			h.alg_name = in->alg_name;
			h.driver_name = in->driver_name;
			h.priority = d->priority;
			h.features = d->features;
			h.flags = d->flags;
			h.type = CRYPTO_TYPE_HASH;
			h.child = d;
			err = crypto_register_driver(reg, &h);
			if (err && err != -EEXIST)
				return err;
			if (!err)
				ninstances++;
		}
	}
	/* multi-child templates over everything above, instances included */
	n = reg->count;
	for (size_t t = 0; t < ARRAY_SIZE(templates); t++) {
		const struct crypto_driver *c[CRYPTO_MAX_CHILDREN] = { NULL };

		if (!templates[t].automatic)
			continue;
		err = instantiate_multi(reg, t, n, c, 0);
		if (err)
			return err;
	}
	return 0;
}

int crypto_register_testvecs(struct crypto_registry *reg,
			     const struct crypto_testvecs *tv)
{
	if (!tv || !tv->alg_name || !tv->count)
		return -EINVAL;
	if (reg->ntv >= MAX_TESTVECS)
		return -ENOSPC;
	reg->tv[reg->ntv++] = tv;
	return 0;
}

int crypto_register_testvec_sets(struct crypto_registry *reg,
				 const struct crypto_testvecs *tv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int err = crypto_register_testvecs(reg, &tv[i]);

		if (err)
			return err;
	}
	return 0;
}

unsigned int crypto_find_testvecs(const char *alg_name,
				  const struct crypto_testvecs **out,
				  unsigned int max)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < registry.ntv && n < max; i++)
		if (!strcmp(registry.tv[i]->alg_name, alg_name))
			out[n++] = registry.tv[i];
	return n;
}
