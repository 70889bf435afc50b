/**
 * Request/response transport over Netty shared by NameServer, broker and JMS client:
 * {@link io.ramjet.protocol.remoting.RemotingServer}, {@link io.ramjet.protocol.remoting.RemotingClient},
 * and one {@link io.ramjet.protocol.remoting.RemotingConnection} per socket on either side.
 * {@link io.ramjet.protocol.remoting.NameServerClient} and
 * {@link io.ramjet.protocol.remoting.BrokerRegistrar} speak the NameServer commands on top.
 */
package io.ramjet.protocol.remoting;
