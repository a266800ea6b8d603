/* SPDX-License-Identifier: MIT */
/*
 * Known-answer vectors for sm4 and its modes, as hex copied from their
 * sources (named per set). Every vector here was also checked against
 * libgcrypt 1.10.1; the few that libgcrypt produced are labelled so.
 */
#include "crypto/internal/registry.h"
#include "crypto/internal/testvec-data.h"
#include "crypto/sm4/sm4-internal.h"

#define K0123 "0123456789abcdeffedcba9876543210"
#define KFEDC "fedcba98765432100123456789abcdef"
#define IV00 "000102030405060708090a0b0c0d0e0f"
#define Z16 "00000000000000000000000000000000"
/* draft-ribose-cfrg-sm4-10 A.2 plaintexts */
#define PT_ABCD "aaaaaaaabbbbbbbbccccccccdddddddd" \
		"eeeeeeeeffffffffaaaaaaaabbbbbbbb"
#define PT_AB64 "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb" \
		"ccccccccccccccccdddddddddddddddd" \
		"eeeeeeeeeeeeeeeeffffffffffffffff" \
		"aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb"

/*
 * 33 blocks, so the self-test reaches the 64-lane layout of sm4-generic
 * (and its 16-block one when decrypting the last 32): generated with
 * libgcrypt 1.10.1 (ECB), plaintext bytes 0x00, 0x01, ... mod 256.
 */
#define PT_528 TV_HEX_SEQ_256 TV_HEX_SEQ_256 TV_HEX_SEQ_16
#define CT_528 \
	"06989c613da668ad2a8df782e1a8f96a" \
	"4b910651754b5553f10cfa0c8a09e9e5" \
	"f42952cf94ac83688437c9b671d6c7fa" \
	"d55bfd68e7901219f41fab48427ab58d" \
	"718e2043bac7ec8bfd57a90711865015" \
	"0c2c0fab0b4e22ee8de3028b161a7c37" \
	"1cd7855afd87ef606bcfedad65c86b5b" \
	"596849dc7c7a6d63ca3a767538d15ef6" \
	"274ce8f040d663da6e6dab9c5638b0f0" \
	"3ae7764fd21a7e3fd8a0a01b5ea5ee7d" \
	"7b394a3279148396bc321ece57ad1c7d" \
	"0834b5b1b574d0eca777704293b3d706" \
	"6c6db629d0dbb08939d0feaa80a0b037" \
	"6625d79c1f4dfb4ecaef50a90afd3d46" \
	"6b72b123f62c39c6ab8271bb1d2be38b" \
	"5e22e6c782c5b0bdf160158ac77978b7" \
	"06989c613da668ad2a8df782e1a8f96a" \
	"4b910651754b5553f10cfa0c8a09e9e5" \
	"f42952cf94ac83688437c9b671d6c7fa" \
	"d55bfd68e7901219f41fab48427ab58d" \
	"718e2043bac7ec8bfd57a90711865015" \
	"0c2c0fab0b4e22ee8de3028b161a7c37" \
	"1cd7855afd87ef606bcfedad65c86b5b" \
	"596849dc7c7a6d63ca3a767538d15ef6" \
	"274ce8f040d663da6e6dab9c5638b0f0" \
	"3ae7764fd21a7e3fd8a0a01b5ea5ee7d" \
	"7b394a3279148396bc321ece57ad1c7d" \
	"0834b5b1b574d0eca777704293b3d706" \
	"6c6db629d0dbb08939d0feaa80a0b037" \
	"6625d79c1f4dfb4ecaef50a90afd3d46" \
	"6b72b123f62c39c6ab8271bb1d2be38b" \
	"5e22e6c782c5b0bdf160158ac77978b7" \
	"06989c613da668ad2a8df782e1a8f96a"

/* ---- sm4 --------------------------------------------------------------- */
static const struct cipher_testvec sm4_tv[] = {
	/* GB/T 32907-2016 Appendix A, example 1 */
	{ K0123, NULL, K0123, "681edf34d206965e86b3e94f536e4246" },
	/* first block of draft-ribose-cfrg-sm4-10 A.2.1.2 */
	{ KFEDC, NULL, "aaaaaaaabbbbbbbbccccccccdddddddd",
	  "c5876897e4a59bbba72a10c83872245b" },
	/* libgcrypt-generated, see PT_528 */
	{ K0123, NULL, PT_528, CT_528 },
};

/* ---- ecb(sm4): Linux crypto/testmgr.h sm4_tv_template ----------------- */
static const struct cipher_testvec sm4_ecb_tv[] = {
	/* draft-ribose-cfrg-sm4-10 A.2.1.1 */
	{ K0123, NULL, PT_ABCD,
	  "5ec8143de509cff7b5179f8f474b8619"
	  "2f1d305a7fb17df985f81c8482192304" },
	/* A.2.1.2 */
	{ KFEDC, NULL, PT_ABCD,
	  "c5876897e4a59bbba72a10c83872245b"
	  "12dd90bc2d200692b529a4155ac9e600" },
	/*
	 * The last ten of the 1,000,000 iterations of GB/T 32907-2016
	 * example 2: each block encrypts to the next.
	 */
	{ K0123, NULL,
	  "994ac3e7c357896a81fca80e383eef80"
	  "b198f2de3f4baed1f0f1304c01275a8f"
	  "45e139b7aeff1f27ad5715ab315d0cef"
	  "8cc880bd1198f37ba2dd1420f9e8bb82"
	  "f732ca4ba8f7b34d27d1cde6b6655a23"
	  "c2f3548453e3b920a53700bee77b48fb"
	  "213d9e481d9ef5bf77d5b44a5371947a"
	  "88a66e0693ca43a5c4f6cd534b7b8efe"
	  "b4287c4229325d88edce00190e16026e"
	  "87ff2cace8e7e9bf3151ec47c35183c1",
	  "b198f2de3f4baed1f0f1304c01275a8f"
	  "45e139b7aeff1f27ad5715ab315d0cef"
	  "8cc880bd1198f37ba2dd1420f9e8bb82"
	  "f732ca4ba8f7b34d27d1cde6b6655a23"
	  "c2f3548453e3b920a53700bee77b48fb"
	  "213d9e481d9ef5bf77d5b44a5371947a"
	  "88a66e0693ca43a5c4f6cd534b7b8efe"
	  "b4287c4229325d88edce00190e16026e"
	  "87ff2cace8e7e9bf3151ec47c35183c1"
	  "595298c7c6fd271f0402f804c33d3f66" },
	/* libgcrypt-generated, see PT_528 */
	{ K0123, NULL, PT_528, CT_528 },
};

/* ---- cbc(sm4) ---------------------------------------------------------- */
static const struct cipher_testvec sm4_cbc_tv[] = {
	/* testmgr.h sm4_cbc_tv_template: draft-ribose-cfrg-sm4-10 A.2.2.1 */
	{ K0123, IV00, PT_ABCD,
	  "78ebb11cc40b0a48312aaeb2040244cb"
	  "4cb7016951909226979b0d15dc6a8f6d" },
	/* A.2.2.2 */
	{ KFEDC, IV00, PT_ABCD,
	  "0d3a6ddc2d21c698857215587b7bb59a"
	  "91f2c147911a4144665e1fa1d40bae38" },
	/* OpenSSL evpciph_sm4.txt (from draft-ribose-cfrg-sm4) */
	{ K0123, K0123, K0123 K0123,
	  "2677f46b09c122cc975533105bd4a22a"
	  "f6125f7275ce552c3a2bbcf533de8a3b" },
};

/* ---- cfb(sm4), full-block CFB ------------------------------------------ */
static const struct cipher_testvec sm4_cfb_tv[] = {
	/* OpenSSL evpciph_sm4.txt (from draft-ribose-cfrg-sm4) */
	{ K0123, K0123, K0123 K0123,
	  "693d9a535bad5bb1786f53d7253a7056"
	  "9ed258a85a0467cc92aab393dd978995" },
	/* generated with libgcrypt 1.10.1 (CFB mode): partial tail */
	{ K0123, IV00, "aaaaaaaabbbbbbbbccccccccdddddddd" "eeeeeeeeffffffffaa",
	  "ac3236cb861dd316e6413b4e3c7524b7" "69d4c54ed433b9a034" },
};

/* ---- ctr(sm4), 128-bit big-endian counter ------------------------------- */
static const struct cipher_testvec sm4_ctr_tv[] = {
	/* testmgr.h sm4_ctr_tv_template: draft-ribose-cfrg-sm4-10 A.2.5.1 */
	{ K0123, IV00, PT_AB64,
	  "ac3236cb970cc20791364c395a1342d1"
	  "a3cbc1878c6f30cd074cce385cdd70c7"
	  "f234bc0e24c11980fd1286310ce37b92"
	  "6e02fcd0faa0baf38b2933851d824514" },
	/* A.2.5.2 */
	{ KFEDC, IV00, PT_AB64,
	  "5dcccd25b95ab07417a08512ee160e2f"
	  "8f661521cbbab44cc87138445bc29e5c"
	  "0ae0297205d62704173b21239b887f6c"
	  "8cb5b800917a2488284bde9e16ea2906" },
	/* OpenSSL evpciph_sm4.txt */
	{ K0123, K0123,
	  "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb"
	  "ccccccccccccccccdddddddddddddddd"
	  "eeeeeeeeeeeeeeeeffffffffffffffff"
	  "eeeeeeeeeeeeeeeeaaaaaaaaaaaaaaaa",
	  "c2b4759e78ac3cf43d0852f4e8d5f9fd"
	  "7256e8a5fcb65a350ee00630912e4449"
	  "2a0b17e1b85b060d0fba612d8a958316"
	  "38b361fd5ffacd942f081485a83ca35d" },
	/* generated with libgcrypt 1.10.1: counter wrap, partial tail */
	{ K0123, "fffffffffffffffffffffffffffffffe", PT_ABCD "aa",
	  "ccb8be1b7293983553b0d4375e522585"
	  "86ff4190f68c9b182c51ef64e621db4b" "8c" },
};

/* ---- cts(cbc(sm4)), CBC-CS3 as the kernel -------------------------------- */
#define KCTS "636869636b656e207465726979616b69"
#define PCTS "4920776f756c64206c696b6520746865" \
	     "2047656e6572616c2047617527732043" \
	     "6869636b656e2c20706c656173652c20" \
	     "616e6420776f6e746f6e20736f75702e"
static const struct cipher_testvec sm4_cts_tv[] = {
	/* testmgr.h sm4_cts_tv_template (the kernel's, from AES-CTS inputs) */
	{ KCTS, Z16, "4920776f756c64206c696b652074686520",
	  "05fe23ee17a28998bc970a0b5467cad7d6" },
	{ KCTS, Z16,
	  "4920776f756c64206c696b6520746865"
	  "2047656e6572616c20476175277320",
	  "1546e495a4ecf0b849d66a9d89c7fd70"
	  "d671c8c04d527c6693f770bba83fa3" },
	{ KCTS, Z16,
	  "4920776f756c64206c696b6520746865"
	  "2047656e6572616c2047617527732043",
	  "89c7993f87695cd3016abfd43f7902a3"
	  "d671c8c04d527c6693f770bba83fa3cf" },
	{ KCTS, Z16,
	  "4920776f756c64206c696b6520746865"
	  "2047656e6572616c2047617527732043"
	  "6869636b656e2c20706c656173652c",
	  "d671c8c04d527c6693f770bba83fa3cf"
	  "d3e1dcebfa041199decf6f4d7b09927f"
	  "89c7993f87695cd3016abfd43f7902" },
	{ KCTS, Z16,
	  "4920776f756c64206c696b6520746865"
	  "2047656e6572616c2047617527732043"
	  "6869636b656e2c20706c656173652c20",
	  "d671c8c04d527c6693f770bba83fa3cf"
	  "9abd7bfe82abcc7fbd99210c5e4ded20"
	  "89c7993f87695cd3016abfd43f7902a3" },
	{ KCTS, Z16, PCTS,
	  "d671c8c04d527c6693f770bba83fa3cf"
	  "89c7993f87695cd3016abfd43f7902a3"
	  "5819a48fa9685e6b2c0f81601598274f"
	  "9abd7bfe82abcc7fbd99210c5e4ded20" },
	/* generated with libgcrypt 1.10.1 (CBC, CBC_CTS flag): non-zero IV */
	{ KCTS, IV00, "4920776f756c64206c696b6520746865" "2047656e6572",
	  "2563e11982858c110b863441ec54afa9" "30d7a8dd10fb" },
};

/* ---- xts(sm4), IEEE 1619 with ciphertext stealing ---------------------- */
static const struct cipher_testvec sm4_xts_tv[] = {
	/* testmgr.h sm4_xts_tv_template (the kernel's, from AES-XTS inputs) */
	{ Z16 Z16, Z16, Z16 Z16,
	  "d9b421f731c894fdc35b77291fe4e3b0"
	  "2a1fb76698d59f0e51376c4ada5bc75d" },
	{ "11111111111111111111111111111111"
	  "22222222222222222222222222222222",
	  "33333333330000000000000000000000",
	  "44444444444444444444444444444444"
	  "44444444444444444444444444444444",
	  "a74d726c11196a32be04e001ff29d0c7"
	  "932f9f3ec29bfcb64dd17f63cbd3ea31" },
	{ "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0"
	  "22222222222222222222222222222222",
	  "33333333330000000000000000000000",
	  "44444444444444444444444444444444"
	  "44444444444444444444444444444444",
	  "7f76088effadf70c02ea9f95da0628d3"
	  "51bfcb9eac0563bcf17b710dab0a9826" },
	{ "62497757247093699959574966967627"
	  "02884197169399375105820974944592",
	  "ff000000000000000000000000000000",
	  "000102030405060708090a0b0c0d0e0f"
	  "101112131415161718191a1b1c1d1e1f"
	  "202122232425262728292a2b2c2d2e2f"
	  "303132333435363738393a3b3c3d3e3f"
	  "404142434445464748494a4b4c4d4e4f"
	  "505152535455565758595a5b5c5d5e5f"
	  "606162636465666768696a6b6c6d6e6f"
	  "707172737475767778797a7b7c7d7e7f"
	  "808182838485868788898a8b8c8d8e8f"
	  "909192939495969798999a9b9c9d9e9f"
	  "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
	  "b0b1b2b3b4b5b6b7f8f9fafbfc",
	  "a29f9e4e71db283c800ef6b78e571cba"
	  "90da3b6c220068301d630d9e6aad3755"
	  "bc771ec9ad8330d527b26677183ca639"
	  "9c0aaa1f02e1d5659b8dc5973dc50453"
	  "7800e3b01a434eb7c49f38c57ba47064"
	  "78e632d96544c564b8423599ff6675b0"
	  "22d39b6e8dcf6a24fd92b71b04282a61"
	  "dc962a207a2cf1f91215f04dcf2bde33"
	  "41bce7858722b716021cd8a20f1fa3e9"
	  "d84548e7be084e4e237984db4076f513"
	  "78924a2ff91bf280257451459a777897"
	  "d3e0c7c435672ae6b30d629f8b" },
	/*
	 * OpenSSL evpciph_sm4.txt, the "XTSStandard = IEEE" entry (its
	 * other SM4-XTS entries use the GB/T 17964-2021 tweak order)
	 */
	{ "2b7e151628aed2a6abf7158809cf4f3c"
	  "000102030405060708090a0b0c0d0e0f",
	  "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
	  "6bc1bee22e409f96e93d7e117393172a"
	  "ae2d8a571e03ac9c9eb76fac45af8e51"
	  "30c81c46a35ce411e5fbc1191a0a52ef"
	  "f69f2445df4f9b17",
	  "e9538251c71d7b80bbe4483fef497bd1"
	  "b3db1a3e60408c575d63ff7db39f8326"
	  "0869f9e2585fec9f0b863bf8fd784b86"
	  "27d16c0db6d2cfc7" },
};

/*
 * hctr2(sm4) = hctr2_base(xctr(sm4),polyval), 32-byte tweaks: no one
 * publishes HCTR2 vectors over SM4, so these come from an oracle written
 * apart from crypto/templates/hctr2.c, from the HCTR2 paper (eprint
 * 2021/1441) over python3-cryptography's SM4-ECB, which reproduces
 * the published hctr2(aes) vectors (tests/crypto/hctr2_oracle.py, which
 * prints this table; test_hctr2_oracle checks it and every driver
 * against the oracle at test time). 128-bit keys; 16 to 512 bytes;
 * the tweaks names use (zero; a 16-byte iv and zeros) and an arbitrary one.
 */
static const struct cipher_testvec sm4_hctr2_tv[] = {
	{ /* 16-byte key, 16 bytes */
		.key = "1a21eb062bbd37871ae98def64745e89",
		.iv = "0000000000000000000000000000000000000000000000000000000000000000",
		.ptext = "642dbd4dabd5608af1400444632552b8",
		.ctext = "de87ba84293a82061efac88854f6541b",
	},
	{ /* 16-byte key, 17 bytes */
		.key = "ee300ee98844a39e0d6d0954e85ed6a3",
		.iv = "1cbb125af3d30ef4821b1a1af08e784700000000000000000000000000000000",
		.ptext = "5f641ed4ad746865a7517f3fd25b231e83",
		.ctext = "d86b7c6955e31359239a66e7e5bb6772d6",
	},
	{ /* 16-byte key, 31 bytes */
		.key = "c4e803a237b34055a7785554930cb823",
		.iv = "108356d6e575e49c6053f6bfc192e8cc760cd8033731996c5067d38b201e883c",
		.ptext = "7f9fcdc82e5c8805a40cbb7c27e57d1aa83e6bde44e76b43b176888f69fb91",
		.ctext = "305692532024eb295a1df84fe6d43c5c6865c26efebb7a3538a382ef121c0b",
	},
	{ /* 16-byte key, 48 bytes */
		.key = "6654be2e1eab7b3a1842d785c641054d",
		.iv = "0000000000000000000000000000000000000000000000000000000000000000",
		.ptext = "5251b6a4bbdc754125352c8eea6cc7b7225e600294c7117ce54bb7fefb67190b"
		         "c571380f1083afdd74c3e7565833ac84",
		.ctext = "aec800e3e54f0db82fa2fc58bbb41f7876ba2a4c00e62e5c52c0106d74fbbc80"
		         "678ad399bc013d4dd78c95830d382a48",
	},
	{ /* 16-byte key, 255 bytes */
		.key = "ad06bb11c18b2d6228b3e54ffaf16041",
		.iv = "ef37ddf9761671aa11594b9ae12308f700000000000000000000000000000000",
		.ptext = "0cda8cd09aaf0ae148e197828aeec777575b4d9719977f7f9170d53a5c33883e"
		         "e58b8d3d9598e6e77e64687a75db117cda4a977f64f015113061d25ee40c6b65"
		         "642a5d2e2eb5646daf3fd0258b1e5714d6146e6119e0bda646fcb78b6efe47cb"
		         "eec428ed69509a0e7c53febb30e8262a6d3b69cf67883d6ee71aa8c5b59878d6"
		         "b89bfb0b5ce4f870c7fe39ce821bd38512fdbcfb3e557c76587d8ef73bf77fef"
		         "62be1747009dfac4fbf2ee6c46839f2ab24a43ac7e3cbd3aeaaac70b8a8e60ac"
		         "522bdf61180db488ba98d5a8ac80d74042112e6337092b65cb42c02d4e282a83"
		         "53e2fb082fd6056064a013a20a0bc89807419d781f66230ee566180edc2b01",
		.ctext = "be479ac562f1306a525f6fdcb5b93598571a6203951fb62aed270c25c8980afe"
		         "cf7cf8344415656678ec0d40e5c249da42bd35e536f6bc8ca9783a243caf0993"
		         "d0b957ebfa495642195f44ca8a9fc59a3716cbc2031e05654e981f1316eee8b4"
		         "6a64438605efda7ac3c204b703cb11136df7a75d0260080ea387e2d1e6716b20"
		         "9f6ff4ca0bb8e58e04044dfd80fcf4959b6b49b41ac4ace62aeea77ce320b095"
		         "15adb1ab3d47a548eb8b5242884c460c8992ad852376d6dff0e91135e705ed39"
		         "d62f85208cce6db8b4963c02a8108007f5553e6ecc945b4b2376099e7dced284"
		         "f8e5809b7b5878e2f1902d018254b97d92c625302bfeb7d5b7d96a86ca7a8a",
	},
	{ /* 16-byte key, 512 bytes */
		.key = "7f4322e721561442146fc1f2663dc380",
		.iv = "c3997623948cc75c4bc28b37494319819e808292e36ae56addc00317d2520508",
		.ptext = "984eb39bd27d670ee534c9b65d8ee2037e2b03ee0aa6f23ac9f3d7d6849cd3fa"
		         "e2d931045fd2ed9c68dc19caaeaba221c309871675c8e3119155dffe10f371ac"
		         "c408370a306679d76e47db5d8657560f3653caf0c555f81108c614a49f8f1599"
		         "4d0e467281843a2fb6e8b523875f54ffb5bbd8c1689e59f8ad443fa8c483a76b"
		         "a85834ad3022c1a4b220ba4c2a781db570f17e642b82d17ec9430207e293195f"
		         "5538493651d95eb73d25c550c11cef72e4a27c622de54700e5f1ea56aabeeaf8"
		         "9afc6997295360c9be4fa8617a06051227294d75d779661049ed3fbbce0d666c"
		         "2487f7157f1d9a29551aa6170d7b0988f066c43fcef2310ec53a201be6434455"
		         "5d712e3ab7dfb80e5e16d11d514cdbe0b60f62818396fe892736a00b55445148"
		         "03a3be90731ece538852fb950974c13bf82db0c087bb40d25abe7fba81c164cb"
		         "28568f805049d9c08491f1cf1b15fae26a83196a6a36d035ad9467391fa11f36"
		         "866287460d880128fe80d10d4fe26cba54578bc4465f403baae6e7d1e972f82d"
		         "2016f801e9ef995a2e6f2444ed12e48c3bae41820b1a725a1323e61bc808796c"
		         "3c221faad121e93d2556d0b6489fb2e7966e2e1c993def48e58263ae8069e64b"
		         "ec2620877eef1c2f71285fab8ec75bb2f93ce1bcdfdbda1a6908df12041663b3"
		         "3e7bb2e0ba89eefd5f19d20ae57b00b72a6aaff5410778fdff010b51f4ff10e6",
		.ctext = "e4c52ce85be29dd92352e7268a16c2892dde7b6fce63a70f3fdc5da0d63860ba"
		         "4a417c5c2cd3da09786938498bd0cf406217bf39e88b09c23365260333e2bf35"
		         "91b51604a47ba71007dd11569dc0dc0d2aa8f1aff3536b7b687c54ee44cd1706"
		         "9944c55677ac088f09e1302ccf601f12441f843929d319c2afb88d51368dee29"
		         "75578c9fb89938a4a25d1a74c8551ad84d665ad1012a3e24931413b12fd28af3"
		         "1c4828cc4f9f6bb1ecc58b2b4e9830c5ff8651975fb15af217a6f7aca7262486"
		         "55f628796f9fe088b7aaec946b25e4f1b6c375cf1abe53a24e1a48ca534fa424"
		         "9fb7879e26a94b7ed1f170150655ca3573cb8575e3acca3ac7a732a44e461506"
		         "c189724177746a54dd42e419626ce5f4927313b86892a9e435183cbeb02ec5f3"
		         "ef0950fb71edf074148a0b894e50d90e9c1c51f2332d0ce819da939a97bb9702"
		         "d1c0b3be3a8324295b8deec92496502ba2b98c3bf66a0562ffe6035ac5fd4145"
		         "098700b26842194f39676b4ab38713d3e7eda8355ff534a745bc65b9922292f2"
		         "667573b5b075f28912dbd00603d0c7c2ee8f7ed7dd0d5e026af0b95cfe0dd119"
		         "edb22e56d95138ceb85cedea6ca09001858b2a9567042c3c1a2f5f155eaf3db5"
		         "e17e73def49b2a3aab10d14e9d796f2a29c854f603f3118a6f8dd9794438ca65"
		         "07f381e1e8b745c53bfbb20f8e2711e28529ace157148746ab260c9334965b80",
	},
};

static const struct crypto_testvecs sm4_testvecs[] = {
	{ "sm4",
	  "GB/T 32907-2016; draft-ribose-cfrg-sm4-10; libgcrypt-generated",
	  ARRAY_SIZE(sm4_tv), sm4_tv, NULL, NULL },
	{ "ecb(sm4)",
	  "Linux testmgr.h (draft-ribose-cfrg-sm4-10, GB/T 32907); libgcrypt",
	  ARRAY_SIZE(sm4_ecb_tv), sm4_ecb_tv, NULL, NULL },
	{ "cbc(sm4)", "Linux testmgr.h; OpenSSL evpciph_sm4.txt",
	  ARRAY_SIZE(sm4_cbc_tv), sm4_cbc_tv, NULL, NULL },
	{ "cfb(sm4)", "OpenSSL evpciph_sm4.txt; libgcrypt-generated",
	  ARRAY_SIZE(sm4_cfb_tv), sm4_cfb_tv, NULL, NULL },
	{ "ctr(sm4)",
	  "Linux testmgr.h; OpenSSL evpciph_sm4.txt; libgcrypt-generated",
	  ARRAY_SIZE(sm4_ctr_tv), sm4_ctr_tv, NULL, NULL },
	{ "cts(cbc(sm4))",
	  "Linux testmgr.h sm4_cts_tv_template; libgcrypt-generated",
	  ARRAY_SIZE(sm4_cts_tv), sm4_cts_tv, NULL, NULL },
	{ "xts(sm4)",
	  "Linux testmgr.h sm4_xts_tv_template; OpenSSL evpciph_sm4.txt",
	  ARRAY_SIZE(sm4_xts_tv), sm4_xts_tv, NULL, NULL },
	{ "hctr2(sm4)",
	  "HCTR2 paper oracle (tests/crypto/hctr2_oracle.py) over python3-cryptography",
	  ARRAY_SIZE(sm4_hctr2_tv), sm4_hctr2_tv, NULL, NULL },
};

int sm4_register_testvecs(struct crypto_registry *reg)
{
	return crypto_register_testvec_sets(reg, sm4_testvecs,
					    ARRAY_SIZE(sm4_testvecs));
}
