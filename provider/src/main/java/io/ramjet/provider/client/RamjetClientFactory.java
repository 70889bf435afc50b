package io.ramjet.provider.client;

/**
 * Makes the {@link RamjetClient} of a new JMS connection. {@link #forScheme} gives the one a URL
 * scheme names; tests hand a connection factory their own (an in-memory client, for instance).
 */
@FunctionalInterface
public interface RamjetClientFactory {

    /** A new client for one connection; it talks to nothing until asked. */
    RamjetClient create(ConnectionInfo connection);

    /**
     * The client factory of a URL scheme: {@code ramjet} is Ramjet remoting to the URL's
     * NameServers, behind the {@link FailoverRamjetClient} policy; {@code ramjets} the same, its
     * connections with TLS as {@link ConnectionInfo#tls()} says.
     *
     * @throws IllegalArgumentException for a scheme no client speaks
     */
    static RamjetClientFactory forScheme(String scheme) {
        if ("ramjet".equalsIgnoreCase(scheme) || "ramjets".equalsIgnoreCase(scheme)) {
            return connection -> new FailoverRamjetClient(new RemotingRamjetClient(connection), connection);
        }
        throw new IllegalArgumentException("no client speaks the URL scheme '" + scheme + "'");
    }
}
