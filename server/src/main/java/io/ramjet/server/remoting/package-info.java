/**
 * The accepting side of the transport, for NameServer and broker:
 * {@link io.ramjet.server.remoting.RemotingServer} over the connections and handler of
 * {@code io.ramjet.protocol.remoting}, and a broker's registration with the NameServers
 * ({@link io.ramjet.server.remoting.NameServerRegistrations}, {@link io.ramjet.server.remoting.BrokerRegistrar},
 * signed with {@link io.ramjet.server.remoting.BrokerProofs}). Its settings are configuration
 * values of {@code io.ramjet.server.config}.
 */
package io.ramjet.server.remoting;
