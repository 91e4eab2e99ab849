// SPDX-License-Identifier: GPL-2.0
/* "stacklat stacks show": kernel stacks sorted by count and printed. */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "json.h"
#include "stacks.h"

static int stack_cmp(const void *a, const void *b)
{
	const struct stack_row *x = a, *y = b;
	int c;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	c = strcmp(x->pipe, y->pipe);
	if (c)
		return c;
	return x->id < y->id ? -1 : x->id > y->id;
}

void stacks_sort(struct stack_set *s)
{
	if (s->n)
		qsort(s->r, s->n, sizeof(*s->r), stack_cmp);
}

void stacks_print(FILE *f, const struct stack_set *s, size_t n, bool json,
		  uint64_t time_ns)
{
	struct json_object *env, *arr;
	size_t i;
	unsigned int j;

	if (!n || n > s->n)
		n = s->n;
	if (!json) {
		for (i = 0; i < n; i++) {
			const struct stack_row *r = &s->r[i];

			fprintf(f, "%sstack %u %s count=%llu sum=%llu%s\n", i ? "\n" : "",
				r->id, r->pipe, (unsigned long long)r->count,
				(unsigned long long)r->sum, r->truncated ? " truncated" : "");
			for (j = 0; j < r->nr; j++)
				fprintf(f, "  %s\n", r->frames[j]);
		}
		return;
	}
	env = json_envelope("stacks", time_ns, 0);
	arr = json_object_new_array();
	for (i = 0; i < n; i++) {
		const struct stack_row *r = &s->r[i];
		struct json_object *o = json_object_new_object(), *fr;

		json_object_object_add(o, "pipeline", json_object_new_string(r->pipe));
		json_object_object_add(o, "id", json_object_new_int64(r->id));
		json_object_object_add(o, "count", json_object_new_uint64(r->count));
		json_object_object_add(o, "sum", json_object_new_uint64(r->sum));
		json_object_object_add(o, "truncated", json_object_new_boolean(r->truncated));
		fr = json_object_new_array();
		for (j = 0; j < r->nr; j++)
			json_object_array_add(fr, json_object_new_string(r->frames[j]));
		json_object_object_add(o, "frames", fr);
		json_object_array_add(arr, o);
	}
	json_object_object_add(env, "total", json_object_new_uint64(s->n));
	json_object_object_add(env, "stacks", arr);
	json_emit(f, env);
}

const struct stack_row *stacks_find(const struct stack_set *s, const char *pipe,
				    uint32_t id)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->r[i].id == id && !strcmp(s->r[i].pipe, pipe))
			return &s->r[i];
	return NULL;
}

void stack_frame_compact(char *buf, size_t len, const char *frame)
{
	size_t n = 0;

	for (; *frame && n + 1 < len; frame++) {
		if (*frame == '/') {
			while (frame[1] && frame[1] != ' ')
				frame++;
			continue;
		}
		if (*frame != ' ')
			buf[n++] = *frame;
	}
	if (len)
		buf[n] = '\0';
}

size_t stack_fold(char *buf, size_t len, const struct stack_row *r)
{
	char fr[256];
	size_t n = 0;
	unsigned int j;

	if (len)
		buf[0] = '\0';
	for (j = 0; j < r->nr && n + 1 < len; j++) {
		int k;

		stack_frame_compact(fr, sizeof(fr), r->frames[j]);
		k = snprintf(buf + n, len - n, "%s%s", j ? ";" : "", fr);
		if (k < 0)
			break;
		n += (size_t)k < len - n ? (size_t)k : len - n - 1;
	}
	return n;
}
