/**
 * Request/response transport over Netty, the client side and what both sides share:
 * {@link io.ramjet.protocol.remoting.RemotingClient}, one
 * {@link io.ramjet.protocol.remoting.RemotingConnection} per socket, the
 * {@link io.ramjet.protocol.remoting.RemotingHandler} that serves a connection's requests, and
 * {@link io.ramjet.protocol.remoting.NameServerClient} for route queries. The accepting side
 * (server, registration with NameServers) lives in the server module, {@code io.ramjet.server.remoting},
 * so the client jar carries none of it.
 */
package io.ramjet.protocol.remoting;
