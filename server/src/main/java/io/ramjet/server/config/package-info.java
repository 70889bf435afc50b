/**
 * The transport settings of a broker or NameServer as configuration values: what its port binds
 * and announces ({@link io.ramjet.server.config.RemotingServerConfig},
 * {@link io.ramjet.server.config.Hosts}), TLS ({@link io.ramjet.server.config.TlsSettings}), the
 * connections and frame memory it accepts ({@link io.ramjet.server.config.ConnectionLimits}) and
 * the secret its NameServer registrations are signed with
 * ({@link io.ramjet.server.config.NameServerSecret}). Immutable values, no I/O beyond reading a
 * secret file; the transport ({@code io.ramjet.server.remoting}) turns them into its behaviour, so
 * a broker's configuration names no wire type.
 */
package io.ramjet.server.config;
