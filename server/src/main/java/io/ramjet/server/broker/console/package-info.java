/**
 * The web console: a page and a small JSON API on the broker's HTTP port (the one of the
 * Prometheus endpoint), listing destinations, consumers and subscriptions, browsing a queue,
 * purging and moving messages, through the same {@code admin} functions the operator's commands
 * use. With security on, HTTP Basic credentials go through the broker's own login and need the
 * {@code admin} permission. Mounted by the root {@code Broker} on the HTTP server that
 * {@code metrics} owns; nothing here speaks the broker's wire protocol.
 */
package io.ramjet.server.broker.console;
