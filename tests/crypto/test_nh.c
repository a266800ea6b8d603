/* SPDX-License-Identifier: MIT */
/*
 * NH (crypto/nhpoly1305/nh.h), the function a SIMD NH driver replaces:
 *  - the Adiantum reference's published vector, google/adiantum
 *    test_vectors/ours/NH/NH.json "Random ( 1)" (a 1072-byte key, one
 *    16-byte unit: all four passes, at key offsets 0, 4, 8 and 12 words);
 *  - the property NHPoly1305 relies on to hash a chunk that arrives in
 *    pieces: NH(k, A || B) = NH(k, A) + NH(k advanced |A|/4 words, B),
 *    pass by pass mod 2^64, for every split of a 1024-byte message on a
 *    16-byte boundary;
 *  - the key is read at most 4 * (len / 16) + 12 words on (a 1024-byte
 *    message reads the whole 268-word key, a shorter one no further).
 * Each nh_fn in impls[] is checked (nh_generic, and the x86 SIMD NH
 * cores where built and this CPU runs them), and each SIMD one against
 * nh_generic: every length 16 to 1024 bytes step 16, random keys and
 * messages, the message unaligned, the key advanced as NHPoly1305
 * advances it within a chunk, and all-ones words (the largest products
 * and carries out of every 64-bit sum).
 */
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/crypto.h"
#include "crypto/hex.h"
#include "crypto/internal/util.h"
#include "crypto/nhpoly1305/nh.h"
#include "testutil.h"

#if defined(CLOAKFS_NH_X86_CORES)
#include "crypto/arch/x86/nh-x86.h"
#endif

static const struct {
	const char *name;
	nh_fn *fn;
	uint64_t features; /* CPU_FEAT_* it needs */
} impls[] = {
	{ "nh_generic", nh_generic, 0 },
#if defined(CLOAKFS_NH_X86_CORES)
	{ "nh_sse2", nh_sse2, CPU_FEAT_SSE2 },
	{ "nh_avx2", nh_avx2, CPU_FEAT_AVX2 },
#endif
};

static const char nh_key_hex[] =
	"225b80c81805370976144b67c4507f2b2cff56c5d566456835e6d29ae5d0c1fb"
	"ac59811a60b03d814ba35ba9ccb3fe2dc24dd926ad36cf8c05113b8a991581c8"
	"23f55a94102f928038c5b26380d5dca36c2faa03964a75334ca8600596bfe57a"
	"c84f5c22f992744a755fa22a8d3fe243fdd9048c8eea84cc4d3f9496ed1a51bb"
	"2fc46328310bda921e4de21d82b565b47569d76f29e4be7eccbd95bd7a62eafa"
	"33348058bffa007ea7b4c9327cc78f8a2827ddebb91c01adecf4305ece3baa22"
	"60bd84d99eafe84c44b6842d5ce626ee8aa20de397edf547db50724a5e9a8d10"
	"c225dd5bd039c45b2a7981b75cdaed771753b58b1e5ff34830ac977d29e3c918"
	"e12b31a008e9155929db842a33988ad4c3fcf7ca65024d9fe2b15ea66a01f9cf"
	"7ea609d91690145f3af8d83438d61f890c81c268c46578f3fe2748703843485a"
	"c124c56f65631bb05bb4071e69088ffc932904166a8bb33d0fba5f46fffe77a1"
	"b9dc29669ad108dd32e3217bcc2e5cf77968d4c18b3c5d0ed426a6199245f719"
	"0ea217d81c7f8dd668376cbfb18a5e364bc0ca210224699b2b190a1be3173057"
	"f6fcd6663630c211088dc58467a089c3744815ca6e0c6d7866157385f98bbab2"
	"09da79e600082ada6bd7d1a78b5f1187961b23b06c55b686fbffe369ac43cd8f"
	"8ae71c3ca06ad5638066d87fb5b896d4e22040536d0d8b6dd55d51fb4d808201"
	"1497969b13b81d767aa1ca1990ec7be08ea8b4f233670e10b1a282ea8182a2c6"
	"7851a6d325e49cf26ba8ecfbd41d5ba4796662b82b6f9e0fcccb9e926f06dbf0"
	"97ce3f90a21fbe3b7b10f023300cc50c6c78fca87162cf98a2b144b5c63b5c63"
	"831d35f2c742675dc12636c86e1df6d55235a49ece4c3b922086b78963731a8b"
	"a635feb9df5e0e530bf2b34d341d66331f08f5f50aab7619de822fcf11a6cbb3"
	"17ec8dafcbf0921eb8a3040aac2caec50bc44eef0ae2dae9d7752d95c71bf30b"
	"431916d7c6902d6be1b2cebed07d15992437bcb68c897a8ccba7f70b5fd4968d"
	"f580a3cef59eed600092a567c921790bfbe2570edfb61690d375f6b0a34e439a"
	"b7f473d83446c6be80ec4ac07f9eb6b058c2aea1f360046211ea0f90a9ea6f0c"
	"4ccfe8d0eabfdbf2530c094dd4edf3221099c64fcfcf96c9d96b083bf0622dac"
	"5538d55c57ad51c3f5d23745b33f6daf106257b95840b33c6a98971a9ceb66f1"
	"a5930be78b290fff2cd090f267a069cdd359adadf11fd7ad247429cd06d54290"
	"f9964ad9a037e4648e132a2ae7c21ef6b2d3dc9f33320c5088378b9bfe6ffd05"
	"96266c967373e10928f37fa659c52ef4d3d5da6bca4205e5ed13e24ecdd5d0fb"
	"6ef78a3e919d6bc533050786b226416ef838387af06c275a01d803e59133aa20"
	"cda74f18a0912874c058270f9ba885b0e0fd5bdb5bb88679946dde26642d6cb9"
	"bac7f0d7aa6868d04071db945462a57f98eae34ce4449a03f91c2036eb0da441"
	"2406cb9486352262801916ba2c103896";

static void check_vector(const char *name, nh_fn *fn, const uint32_t *key)
{
	uint8_t msg[16], want[NH_HASH_BYTES], got[NH_HASH_BYTES];

	CHECK(hex_decode_str("d382e70435ccf7a4f9b2c5ed5ad958eb", msg, sizeof(msg),
			     NULL) == sizeof(msg) &&
	      hex_decode_str("41d9ad545a0dcc5348f64c75435ddd77"
			     "daca7dec913b53165c4b58dc700a7b37", want, sizeof(want),
			     NULL) == sizeof(want), "vector hex");
	fn(key, msg, sizeof(msg), got);
	CHECK(!memcmp(got, want, sizeof(want)), "%s: NH.json Random ( 1) differs",
	      name);
}

/* NH over pieces adds up to NH over the whole, the key advancing */
static void check_pieces(const char *name, nh_fn *fn, const uint32_t *key,
			 const uint8_t *msg)
{
	uint8_t whole[NH_HASH_BYTES], a[NH_HASH_BYTES], b[NH_HASH_BYTES];

	fn(key, msg, NH_MESSAGE_BYTES, whole);
	for (size_t cut = NH_MESSAGE_UNIT; cut < NH_MESSAGE_BYTES;
	     cut += NH_MESSAGE_UNIT) {
		int same = 1;

		fn(key, msg, cut, a);
		fn(key + cut / 4, msg + cut, NH_MESSAGE_BYTES - cut, b);
		for (int p = 0; p < NH_NUM_PASSES; p++)
			same &= load_le64(a + 8 * p) + load_le64(b + 8 * p) ==
				load_le64(whole + 8 * p);
		CHECK(same, "%s: NH of 1024 bytes cut at %zu is not the sum", name, cut);
	}
}

/* a key whose words past what len may read are poisoned: same result */
static void check_key_reach(const char *name, nh_fn *fn, const uint32_t *key,
			    const uint8_t *msg)
{
	uint32_t k2[NH_KEY_WORDS];
	uint8_t a[NH_HASH_BYTES], b[NH_HASH_BYTES];

	for (size_t len = NH_MESSAGE_UNIT; len <= NH_MESSAGE_BYTES;
	     len += NH_MESSAGE_UNIT) {
		size_t reach = 4 * (len / NH_MESSAGE_UNIT) + 12;

		memcpy(k2, key, sizeof(k2));
		for (size_t i = reach; i < NH_KEY_WORDS; i++)
			k2[i] ^= 0xa5a5a5a5u;
		fn(key, msg, len, a);
		fn(k2, msg, len, b);
		CHECK(!memcmp(a, b, sizeof(a)), "%s: %zu bytes read the key past "
		      "word %zu", name, len, reach);
		if (reach < NH_KEY_WORDS) {
			k2[reach - 1] ^= 1; /* the last word it does read */
			fn(k2, msg, len, b);
			CHECK(memcmp(a, b, sizeof(a)), "%s: %zu bytes ignore key word "
			      "%zu", name, len, reach - 1);
		}
	}
}

/* fn and nh_generic agree on every length, key words at offset koff */
static void check_lengths(const char *name, nh_fn *fn, const uint32_t *key,
			  const uint8_t *msg, size_t koff)
{
	uint8_t want[NH_HASH_BYTES], got[NH_HASH_BYTES];

	for (size_t len = NH_MESSAGE_UNIT; len + 4 * koff <= NH_MESSAGE_BYTES;
	     len += NH_MESSAGE_UNIT) {
		nh_generic(key + koff, msg, len, want);
		fn(key + koff, msg, len, got);
		CHECK(!memcmp(got, want, sizeof(want)), "%s: %zu bytes (key +%zu "
		      "words, message at %p) differ from nh_generic", name, len,
		      koff, (const void *)msg);
	}
}

static void check_vs_generic(const char *name, nh_fn *fn)
{
	uint32_t key[NH_KEY_WORDS];
	uint8_t buf[NH_MESSAGE_BYTES + 16];

	for (int r = 0; r < 16; r++) {
		/* an unaligned message every other round */
		uint8_t *msg = buf + (r & 1 ? 1 + test_rand_below(15) : 0);
		/* the key advanced by 0 or by a random number of units */
		size_t koff = r < 8 ? 0 : 4 * test_rand_below(NH_MESSAGE_BYTES / 16);

		test_random_bytes(key, sizeof(key));
		test_random_bytes(msg, NH_MESSAGE_BYTES);
		check_lengths(name, fn, key, msg, koff);
	}
	memset(key, 0xff, sizeof(key));
	memset(buf, 0xff, sizeof(buf));
	check_lengths(name, fn, key, buf, 0);
}

int main(void)
{
	uint8_t kb[NH_KEY_BYTES], msg[NH_MESSAGE_BYTES];
	uint32_t key[NH_KEY_WORDS];

	test_seed();
	/* the CPU features (and a test's mask of them) */
	CHECK(crypto_init() == 0, "crypto_init: %s", crypto_init_error());
	CHECK(hex_decode_str(nh_key_hex, kb, sizeof(kb), NULL) == sizeof(kb),
	      "key hex");
	for (size_t i = 0; i < NH_KEY_WORDS; i++)
		key[i] = load_le32(kb + 4 * i);
	test_random_bytes(msg, sizeof(msg));
	for (size_t i = 0; i < sizeof(impls) / sizeof(impls[0]); i++) {
		if (!cpu_has(impls[i].features)) {
			printf("%s: this CPU lacks its features, skipped\n",
			       impls[i].name);
			continue;
		}
		if (impls[i].fn != nh_generic)
			check_vs_generic(impls[i].name, impls[i].fn);
		check_vector(impls[i].name, impls[i].fn, key);
		check_pieces(impls[i].name, impls[i].fn, key, msg);
		check_key_reach(impls[i].name, impls[i].fn, key, msg);
	}
	return test_finish("test_nh");
}
