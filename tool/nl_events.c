// SPDX-License-Identifier: GPL-2.0
/*
 * GET_EVENTS, the slow events the kernel's rings hold, and GET_STACKS,
 * the kernel stacks an event or a row names by id.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/genl.h>

#include "format.h"
#include "nl.h"
#include "nl_priv.h"
#include "stacklat_event.h"

/* ---- GET_EVENTS -------------------------------------------------------------- */

struct ev_cb {
	void (*fn)(const struct stacklat_event *ev, void *arg);
	void *arg;
	size_t n;
};

static int parse_events(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct ev_cb *c = arg;
	struct stacklat_event ev;
	struct nlattr *a;
	int rem;

	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		size_t n;

		if (nla_type(a) == STACKLAT_A_EVENT_COMPACT) {
			if (stacklat_event_unpack(&ev, nla_data(a), (unsigned int)nla_len(a)))
				return -EINVAL;	/* "malformed reply" */
		} else if (nla_type(a) == STACKLAT_A_EVENT &&
			   nla_len(a) >= (int)offsetof(struct stacklat_event, flags)) {
			/* a 0.1 module's record ends before flags: the rest unset */
			n = (size_t)nla_len(a) < sizeof(ev) ? (size_t)nla_len(a) : sizeof(ev);
			memset(&ev, 0, sizeof(ev));
			memcpy(&ev, nla_data(a), n);
		} else {
			continue;
		}
		c->fn(&ev, c->arg);
		c->n++;
	}
	return 0;
}

size_t sl_nl_get_events(void (*fn)(const struct stacklat_event *ev, void *arg), void *arg)
{
	struct nl_msg *msg = new_msg(STACKLAT_CMD_GET_EVENTS, NLM_F_DUMP);
	struct ev_cb c = { .fn = fn, .arg = arg };

	/* compact records: a third of the bytes for the module to copy */
	if (module_knows(STACKLAT_A_EVENT_COMPACT) &&
	    nla_put_flag(msg, STACKLAT_A_EVENT_COMPACT))
		fatal("out of memory");
	transact(msg, "events", parse_events, &c, NULL);
	return c.n;
}

/* ---- GET_STACKS (issue 28) ---------------------------------------------------- */

static void stack_row_free(struct stack_row *r)
{
	unsigned int i;

	for (i = 0; i < r->nr; i++)
		free(r->frames[i]);
	free(r->frames);
}

void stack_set_free(struct stack_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		stack_row_free(&s->r[i]);
	free(s->r);
	memset(s, 0, sizeof(*s));
}

static void clear_stacks(void *arg)
{
	struct stack_set *s = arg;
	size_t i;

	for (i = 0; i < s->n; i++)
		stack_row_free(&s->r[i]);
	s->n = 0;
}

static int parse_stack(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[STACKLAT_A_MAX + 1], *st[STACKLAT_STACK_A_MAX + 1], *a;
	struct stack_set *s = arg;
	struct stack_row *r;
	int rem, nr;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, STACKLAT_A_MAX, NULL) ||
	    !tb[STACKLAT_A_STACK] ||
	    nla_parse_nested(st, STACKLAT_STACK_A_MAX, tb[STACKLAT_A_STACK], NULL))
		return -EINVAL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		void *nr_ = realloc(s->r, cap * sizeof(*s->r));

		if (!nr_)
			return -ENOMEM;
		s->r = nr_;
		s->cap = cap;
	}
	r = &s->r[s->n];
	memset(r, 0, sizeof(*r));
	copy_str(r->pipe, sizeof(r->pipe), tb[STACKLAT_A_PIPELINE_NAME]);
	r->id = get_u32(st[STACKLAT_STACK_A_ID]);
	r->count = get_u64(st[STACKLAT_STACK_A_COUNT]);
	r->sum = get_u64(st[STACKLAT_STACK_A_SUM]);
	r->truncated = st[STACKLAT_STACK_A_TRUNCATED] &&
		       nla_get_u8(st[STACKLAT_STACK_A_TRUNCATED]);
	nr = count_nested(tb[STACKLAT_A_STACK], STACKLAT_STACK_A_FRAME);
	r->frames = calloc(nr ? nr : 1, sizeof(*r->frames));
	if (!r->frames)
		return -ENOMEM;
	s->n++;		/* freed with the set from here on */
	nla_for_each_nested(a, tb[STACKLAT_A_STACK], rem) {
		if (nla_type(a) != STACKLAT_STACK_A_FRAME)
			continue;
		r->frames[r->nr] = strndup(nla_data(a), nla_len(a));
		if (!r->frames[r->nr])
			return -ENOMEM;
		r->nr++;
	}
	return 0;
}

void sl_nl_get_stacks(const char *pipe, struct stack_set *s)
{
	dump_retry(STACKLAT_CMD_GET_STACKS, pipe, "stacks", parse_stack, s, clear_stacks);
}
