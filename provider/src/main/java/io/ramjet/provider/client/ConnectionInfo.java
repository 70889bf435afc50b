package io.ramjet.provider.client;

import io.ramjet.protocol.remoting.tls.ClientTls;
import io.ramjet.provider.message.SerializationAllowList;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What the client layer needs to know about a JMS connection: its id (unique, also the value of
 * the noLocal marker property), the NameServers, the client id (null until set), the credentials
 * (null for an anonymous connection), settings, and TLS (null for plain connections, see
 * {@link ClientTlsOptions}).
 */
public record ConnectionInfo(String connectionId, List<String> nameServers, String clientId, Credentials credentials,
                             Duration requestTimeout, SerializationAllowList allowList, ClientOptions options,
                             ClientTls tls) {
    public ConnectionInfo {
        Objects.requireNonNull(connectionId, "connectionId");
        nameServers = List.copyOf(nameServers);
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(allowList, "allowList");
        Objects.requireNonNull(options, "options");
    }

    /** A connection with the default {@link ClientOptions}. */
    public ConnectionInfo(String connectionId, List<String> nameServers, String clientId, Credentials credentials,
                          Duration requestTimeout, SerializationAllowList allowList) {
        this(connectionId, nameServers, clientId, credentials, requestTimeout, allowList, ClientOptions.DEFAULTS);
    }

    /** A connection without TLS. */
    public ConnectionInfo(String connectionId, List<String> nameServers, String clientId, Credentials credentials,
                          Duration requestTimeout, SerializationAllowList allowList, ClientOptions options) {
        this(connectionId, nameServers, clientId, credentials, requestTimeout, allowList, options, null);
    }

    public ConnectionInfo withClientId(String id) {
        return new ConnectionInfo(connectionId, nameServers, id, credentials, requestTimeout, allowList, options, tls);
    }
}
