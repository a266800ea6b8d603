/* SPDX-License-Identifier: MIT */
/*
 * An AArch64 program whose instruction count is known exactly, for
 * test_qemu_insncount.sh: 2 + 2 * (argc << 16) + 3 instructions, no
 * C library (linked -nostdlib -static), so nothing else runs.
 */
	.text
	.global	_start
	.type	_start, %function
_start:
	ldr	x0, [sp]		// argc
	lsl	x0, x0, #16		// iterations
1:	subs	x0, x0, #1		// two instructions per iteration
	b.ne	1b
	mov	x0, #0			// exit(0)
	mov	x8, #93			// __NR_exit
	svc	#0
	.size	_start, . - _start
