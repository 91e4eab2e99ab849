/* SPDX-License-Identifier: GPL-2.0 */
/* "stacklat stacks show": kernel stacks sorted and printed (stacks.c). */
#ifndef STACKLAT_TOOL_STACKS_H
#define STACKLAT_TOOL_STACKS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nl.h"

/* Sort @s by count, most first (ties: pipeline, then id). */
void stacks_sort(struct stack_set *s);
/*
 * The first @n stacks of @s (0: all): as text, "stack ID PIPELINE
 * count=N sum=S" and the frames indented; or one JSON line.
 */
void stacks_print(FILE *f, const struct stack_set *s, size_t n, bool json,
		  uint64_t time_ns);

/* The stack @id of pipeline @pipe in @s, or NULL. */
const struct stack_row *stacks_find(const struct stack_set *s, const char *pipe,
				    uint32_t id);
/*
 * A frame as GET_STACKS gives it, "f+0xoff/0xsize [mod]", as an event
 * line writes it: "f+0xoff[mod]" (no length, no blank).
 */
void stack_frame_compact(char *buf, size_t len, const char *frame);
/* @r's frames, compacted, innermost first, joined by ';'; returns the length. */
size_t stack_fold(char *buf, size_t len, const struct stack_row *r);

#endif
