/**
 * The accepting side of the transport, for NameServer and broker:
 * {@link io.ramjet.server.remoting.RemotingServer} over the connections and handler of
 * {@code io.ramjet.protocol.remoting}, and a broker's registration with the NameServers
 * ({@link io.ramjet.server.remoting.NameServerRegistrations}, {@link io.ramjet.server.remoting.BrokerRegistrar},
 * signed with a {@link io.ramjet.server.remoting.NameServerSecret}).
 */
package io.ramjet.server.remoting;
