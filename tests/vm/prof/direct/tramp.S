/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sl_direct_tramp: called by ftrace from the traced function's fentry
 * site (call __fentry__, patched to call us, or ftrace_regs_caller's
 * return into us when other ftrace users share the function).  On entry:
 *   0(%rsp)  the address after the fentry call (the function's body; or,
 *            with an IPMODIFY user such as livepatch, where it sent it)
 *   8(%rsp)  the function's return address into its caller
 * and the argument registers of the call.  We call sld_entry(body, args),
 * call the body with the arguments restored, call sld_exit(body, ret) and
 * return to the caller with the body's return value: no return address is
 * replaced.  Register arguments only: a function with arguments on the
 * stack would find ours there, not its caller's.  SYM_TYPED_FUNC_START:
 * an ENDBR on IBT kernels (7.x's SYM_FUNC_START has none); objtool
 * validates the whole of it and makes its ORC entries.
 */
#include <linux/linkage.h>
#include <linux/cfi_types.h>
#include <asm/unwind_hints.h>

	.text
SYM_TYPED_FUNC_START(sl_direct_tramp)
	pushq	%rbp
	movq	%rsp, %rbp
	/* 6 argument registers and the return value; rsp 16-aligned */
	subq	$64, %rsp
	movq	%rdi, 0(%rsp)
	movq	%rsi, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rcx, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	8(%rbp), %rdi
	movq	%rsp, %rsi
	call	sld_entry
	movq	0(%rsp), %rdi
	movq	8(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rcx
	movq	32(%rsp), %r8
	movq	40(%rsp), %r9
	/*
	 * Into the body by a return, not an indirect call: under IBT an
	 * indirect call must land on an ENDBR, which the body (after the
	 * fentry call) does not start with.  ftrace_regs_caller enters us
	 * the same way.  The body returns here, after the call.
	 */
	movq	8(%rbp), %rax
	call	sld_call_body
	movq	%rax, 48(%rsp)
	movq	8(%rbp), %rdi
	movq	%rax, %rsi
	call	sld_exit
	movq	48(%rsp), %rax
	leave
	/* drop the return into the body: back to the traced function's caller */
	addq	$8, %rsp
	/* for objtool and ORC: the caller's return address at 0(%rsp) */
	UNWIND_HINT_FUNC
	RET
SYM_FUNC_END(sl_direct_tramp)

/* jumps to %rax by a return; the call that came here is its return */
SYM_FUNC_START_LOCAL(sld_call_body)
	pushq	%rax
	/* for objtool and ORC: the body's address at 0(%rsp), returned to */
	UNWIND_HINT_FUNC
	RET
SYM_FUNC_END(sld_call_body)
