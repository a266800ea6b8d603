// SPDX-License-Identifier: MIT
/*
 * POLYVAL with PCLMULQDQ on xmm registers, 8 blocks a step: the
 * polyval-pclmul and ghash-pclmul drivers. The body is polyval-x86-core.h,
 * the xmm operations polyval-x86-xmm.h; compiled with -mpclmul -mssse3
 * (crypto/arch/x86/meson.build).
 */
#include "crypto/arch/x86/polyval-x86-xmm.h"

#define POLYVAL_ISA pclmul
#define NVEC 8

#include "crypto/arch/x86/polyval-x86-core.h"
