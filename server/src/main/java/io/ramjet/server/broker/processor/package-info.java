/**
 * The only broker package that speaks the wire: one processor per command reads the request,
 * asks the domain and writes the answer; {@code Refusals} maps every domain refusal to its
 * status in one table; {@code ConnectionSession} adapts a transport connection to a
 * {@code ClientSession}.
 */
package io.ramjet.server.broker.processor;
