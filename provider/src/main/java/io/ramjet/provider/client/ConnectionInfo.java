package io.ramjet.provider.client;

import io.ramjet.provider.message.SerializationAllowList;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What the client layer needs to know about a JMS connection: its id (unique, also the value of
 * the noLocal marker property), the NameServers, the client id (null until set), the credentials
 * (null for an anonymous connection) and settings.
 */
public record ConnectionInfo(String connectionId, List<String> nameServers, String clientId, Credentials credentials,
                             Duration requestTimeout, SerializationAllowList allowList, ClientOptions options) {
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

    public ConnectionInfo withClientId(String id) {
        return new ConnectionInfo(connectionId, nameServers, id, credentials, requestTimeout, allowList, options);
    }
}
