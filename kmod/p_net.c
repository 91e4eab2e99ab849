// SPDX-License-Identifier: GPL-2.0
/*
 * Network pipelines: net_rx (driver -> IP -> transport -> socket ->
 * application) and net_tx (application -> TCP -> IP -> qdisc -> driver ->
 * done), following each skb through the in-flight table.
 */
#include "sl.h"

struct sl_pipeline sl_pipe_net_rx = {
	.name = "net_rx",
	.desc = "receive path per packet: driver, IP, transport, socket, application",
	.key = STACKLAT_KEY_SKB,
};

struct sl_pipeline sl_pipe_net_tx = {
	.name = "net_tx",
	.desc = "transmit path per packet: application, TCP, IP, qdisc, driver, done",
	.key = STACKLAT_KEY_SKB,
};
