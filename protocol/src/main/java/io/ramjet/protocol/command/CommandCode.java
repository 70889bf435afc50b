package io.ramjet.protocol.command;

/**
 * Command codes carried in every frame. A response carries the code of its request.
 *
 * <p>Ranges: 1-99 remoting itself, 100-199 NameServer, 200-999 broker. A code that no processor
 * on the receiving side is registered for closes the connection, so a new code needs a
 * processor on every side that may receive it.
 */
public final class CommandCode {

    /** Client liveness probe; answered by the remoting layer itself with an empty response. */
    public static final short HEARTBEAT = 1;

    /** Broker to NameServer: {@link RegisterBrokerRequest}; also the periodic heartbeat. Empty response. */
    public static final short REGISTER_BROKER = 100;
    /** Broker to NameServer: {@link UnregisterBrokerRequest}. Empty response. */
    public static final short UNREGISTER_BROKER = 101;
    /** Any client to NameServer: {@link QueryRouteRequest}; response header {@link RouteData}. */
    public static final short QUERY_ROUTE = 102;
    /** Any client to NameServer: no header; response header {@link BrokerList}. */
    public static final short LIST_BROKERS = 103;

    private CommandCode() {
    }

    /** A readable name for logs; unknown codes are shown as numbers. */
    public static String name(short code) {
        return switch (code) {
            case HEARTBEAT -> "HEARTBEAT";
            case REGISTER_BROKER -> "REGISTER_BROKER";
            case UNREGISTER_BROKER -> "UNREGISTER_BROKER";
            case QUERY_ROUTE -> "QUERY_ROUTE";
            case LIST_BROKERS -> "LIST_BROKERS";
            default -> "code " + code;
        };
    }
}
