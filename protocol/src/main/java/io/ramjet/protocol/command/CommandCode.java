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

    /** Producer to broker: {@link SendRequest}, body = properties + body; response {@link SendResponse}. */
    public static final short SEND = 200;
    /** Consumer to broker: {@link SubscribeRequest}; response {@link SubscribeResponse}. */
    public static final short SUBSCRIBE = 201;
    /** Consumer to broker, long-held: {@link PullRequest}; response {@link PullResponse}, body = the records. */
    public static final short PULL = 202;
    /** Consumer to broker: {@link AckRequest}; empty response once durable. */
    public static final short ACK = 203;
    // 204 was RELEASE (one message), replaced by RELEASE_BATCH: never to be given to another command
    /** Consumer to broker: {@link CloseConsumerRequest}; empty response. */
    public static final short CLOSE_CONSUMER = 205;
    /** Client to broker: {@link DeleteSubscriptionRequest}; empty response. */
    public static final short DELETE_SUBSCRIPTION = 206;
    // 207 was SEND_BATCH, removed unused: never to be given to another command
    /**
     * Client to broker: {@link ClaimClientIdRequest}; empty response, or
     * {@link ErrorStatus#CLIENT_ID_IN_USE} when another connection holds the id.
     */
    public static final short CLAIM_CLIENT_ID = 208;
    /** Client to broker: {@link BrowseRequest}; response {@link BrowseResponse}, body = the records. */
    public static final short BROWSE = 209;
    /**
     * Client to broker, first on a connection: {@link AuthenticateRequest}; empty response, or
     * {@link ErrorStatus#AUTHENTICATION_FAILED}. The broker remembers the user for the connection.
     */
    public static final short AUTHENTICATE = 213;
    /** Client to broker: {@link TxPrepareRequest}; empty response once durable. */
    public static final short TX_PREPARE = 220;
    /** Client to broker: {@link TxEndRequest} (commit or rollback); empty response once durable. */
    public static final short TX_END = 221;
    /** Broker to the client owning a transaction: {@link TxCheckRequest}; response {@link TxStateResponse}. */
    public static final short TX_CHECK = 222;
    /** Participant broker to coordinator broker: {@link TxQueryRequest}; response {@link TxStateResponse}. */
    public static final short TX_QUERY = 223;
    /** Client to broker: no header; response {@link XaRecoverResponse}. */
    public static final short XA_RECOVER = 224;
    /**
     * Client to broker: {@link TxAcksRequest}, part of what an open transaction consumed, sent
     * ahead of its TX_PREPARE, TX_END or TX_COMMIT_COUNTED when it does not fit that frame; empty
     * response once the broker holds it with the transaction.
     */
    public static final short TX_ACKS = 225;
    /** Admin to broker: {@link CreateDestinationRequest}; response {@link DestinationInfo}. */
    public static final short CREATE_DESTINATION = 210;
    /** Admin to broker: {@link DeleteDestinationRequest}; empty response. */
    public static final short DELETE_DESTINATION = 211;
    /** Admin to broker: no header; response {@link DestinationList}. */
    public static final short LIST_DESTINATIONS = 212;

    // Consumer path, 240-249
    /**
     * Consumer to broker, for AUTO and DUPS_OK sessions only: {@link AckRequest}; empty response
     * once the acknowledgement is applied and written, before it is durable. A crash before the
     * disk has it brings the messages back once, with JMSRedelivered=true, which those modes allow.
     */
    public static final short LAZY_ACK = 240;

    // Send path, 255-259
    /**
     * Client to broker: {@link TxCommitCountedRequest}, the commit of a local transaction sent
     * right behind its sends, without waiting for their answers; empty response once durable.
     * The broker runs it after every SEND that arrived before it on the connection.
     */
    public static final short TX_COMMIT_COUNTED = 255;

    // Operations, 300-339: one processor serves them all, where an admin permission is checked
    /** Admin to broker: {@link AdminQuery}; response {@link DestinationStatsList}. */
    public static final short ADMIN_DESTINATIONS = 300;
    /** Admin to broker: {@link AdminQuery}; response {@link SubscriptionStatsList}. */
    public static final short ADMIN_SUBSCRIPTIONS = 301;
    /** Admin to broker: {@link AdminQuery}; response {@link ConsumerStatsList}. */
    public static final short ADMIN_CONSUMERS = 302;
    /** Admin to broker: {@link PurgeRequest}; response {@link AdminCount}. */
    public static final short ADMIN_PURGE = 303;
    /** Admin to broker: {@link MoveRequest}; response {@link AdminCount}. */
    public static final short ADMIN_MOVE = 304;
    /** Admin to broker: no header; response {@link io.ramjet.model.stats.BrokerFacts}. */
    public static final short ADMIN_BROKER = 305;
    /** Admin to broker: no header; response {@link TransactionStatsList}. */
    public static final short ADMIN_TRANSACTIONS = 306;
    /** Admin to broker: {@link AdminCreateRequest}; response {@link AdminCount}. */
    public static final short ADMIN_CREATE = 307;
    /**
     * Admin to broker: {@link AdminSubscriptionRequest}, a topic's durable subscription made
     * without a consumer (a topic extended onto the broker's group takes the subscriptions its
     * other groups hold); response {@link AdminCount}, once durable.
     */
    public static final short ADMIN_CREATE_SUBSCRIPTION = 310;
    /** Admin to broker: no header; response {@link ParkedSendList}, the parked sends held, oldest first. */
    public static final short ADMIN_PARKED = 308;
    /**
     * Admin to broker: {@link ParkedResolveRequest}, an operator's decision for every parked send
     * of an origin group; response {@link AdminCount}, how many were decided, once durable.
     */
    public static final short ADMIN_PARKED_RESOLVE = 309;
    /**
     * Admin to broker: {@link AdminQuery} naming a destination; response
     * {@link io.ramjet.model.stats.DestinationDeliveryState}, how its deliveries stand (CommitLog
     * positions, queue ends, cursors, each consumer's messages in flight and held pulls).
     */
    public static final short ADMIN_DELIVERY_STATE = 315;

    // Replication, 420-439: a slave of the broker group to its master
    /** Slave to master: {@link ReplicaHandshakeRequest}; response {@link ReplicaHandshakeResponse}. */
    public static final short REPLICA_HANDSHAKE = 420;
    /** Slave to master, long-held: {@link ReplicaFetchRequest}; response {@link ReplicaFetchResponse}, body = raw CommitLog bytes. */
    public static final short REPLICA_FETCH = 421;

    // Cluster identity, 440-449: a member of the cluster proves it holds the cluster secret
    /**
     * Broker to broker, first on a connection that will carry broker-to-broker commands: no
     * header; response {@link ClusterChallenge}, fresh random bytes for this connection.
     */
    public static final short CLUSTER_CHALLENGE = 440;
    /**
     * Broker to broker, after {@link #CLUSTER_CHALLENGE}: {@link ClusterAuthenticateRequest}, the
     * asking broker's MAC of the challenge; response {@link ClusterAuthenticateResponse}, the
     * answering broker's MAC in return, or {@link ErrorStatus#AUTHENTICATION_FAILED}.
     */
    public static final short CLUSTER_AUTHENTICATE = 441;

    // Robustness, 465-469
    /** Consumer to broker: {@link ReleaseBatchRequest}; empty response once every message named is back. */
    public static final short RELEASE_BATCH = 465;

    // Selector and many destinations, 480-484
    /**
     * Broker to NameServer, over the connection it registered on: {@link AnnounceDestinationsRequest},
     * the destinations created and deleted since its last registration or announcement. Empty
     * response; {@link ErrorStatus#BROKER_NOT_REGISTERED} when that connection holds no
     * registration of the broker at that epoch (the broker then registers whole).
     */
    public static final short ANNOUNCE_DESTINATIONS = 480;

    // Large messages, 500-509: a body sent and read in chunks (LargeBodyDescriptor)
    /** Client to broker: one chunk of a large message's body, stored before its SEND. */
    public static final short LARGE_CHUNK_WRITE = 500;
    /** Client to broker: one chunk of a large message it received or browsed. */
    public static final short LARGE_CHUNK_READ = 501;
    /**
     * Client to broker: a SEND ({@link SendRequest}) of a large message, whose body after the
     * properties section is a chunk table ({@code LargeBodyDescriptor}) naming chunks written with
     * {@link #LARGE_CHUNK_WRITE}, not the message body itself.
     */
    public static final short LARGE_SEND = 502;

    // Parked sends, 520-539: an in-doubt send kept on another group until its origin group answers
    /**
     * Client to broker: {@link ParkedSendRequest}, a send whose group's master was lost after it
     * was written and before it was answered, kept invisible here until that origin group says
     * whether it holds it; body as SEND. Response {@link SendResponse} (queue offset -1) once durable.
     */
    public static final short PARKED_SEND = 520;
    /**
     * Broker to broker, cluster members proven by the cluster secret only: {@link ParkedQueryRequest},
     * whether this group holds a producer's sequence; response {@link ParkedQueryResponse}, written
     * down (a fence) before it says "not held".
     */
    public static final short PARKED_QUERY = 521;

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
            case SEND -> "SEND";
            case SUBSCRIBE -> "SUBSCRIBE";
            case PULL -> "PULL";
            case ACK -> "ACK";
            case LAZY_ACK -> "LAZY_ACK";
            case CLOSE_CONSUMER -> "CLOSE_CONSUMER";
            case DELETE_SUBSCRIPTION -> "DELETE_SUBSCRIPTION";
            case CLAIM_CLIENT_ID -> "CLAIM_CLIENT_ID";
            case BROWSE -> "BROWSE";
            case AUTHENTICATE -> "AUTHENTICATE";
            case TX_PREPARE -> "TX_PREPARE";
            case TX_END -> "TX_END";
            case TX_CHECK -> "TX_CHECK";
            case TX_QUERY -> "TX_QUERY";
            case CLUSTER_CHALLENGE -> "CLUSTER_CHALLENGE";
            case CLUSTER_AUTHENTICATE -> "CLUSTER_AUTHENTICATE";
            case XA_RECOVER -> "XA_RECOVER";
            case TX_ACKS -> "TX_ACKS";
            case CREATE_DESTINATION -> "CREATE_DESTINATION";
            case DELETE_DESTINATION -> "DELETE_DESTINATION";
            case LIST_DESTINATIONS -> "LIST_DESTINATIONS";
            case ADMIN_DESTINATIONS -> "ADMIN_DESTINATIONS";
            case ADMIN_SUBSCRIPTIONS -> "ADMIN_SUBSCRIPTIONS";
            case ADMIN_CONSUMERS -> "ADMIN_CONSUMERS";
            case ADMIN_PURGE -> "ADMIN_PURGE";
            case ADMIN_MOVE -> "ADMIN_MOVE";
            case ADMIN_BROKER -> "ADMIN_BROKER";
            case ADMIN_TRANSACTIONS -> "ADMIN_TRANSACTIONS";
            case ADMIN_CREATE -> "ADMIN_CREATE";
            case ADMIN_CREATE_SUBSCRIPTION -> "ADMIN_CREATE_SUBSCRIPTION";
            case ADMIN_PARKED -> "ADMIN_PARKED";
            case ADMIN_PARKED_RESOLVE -> "ADMIN_PARKED_RESOLVE";
            case ADMIN_DELIVERY_STATE -> "ADMIN_DELIVERY_STATE";
            case REPLICA_HANDSHAKE -> "REPLICA_HANDSHAKE";
            case REPLICA_FETCH -> "REPLICA_FETCH";
            case RELEASE_BATCH -> "RELEASE_BATCH";
            case ANNOUNCE_DESTINATIONS -> "ANNOUNCE_DESTINATIONS";
            case LARGE_CHUNK_WRITE -> "LARGE_CHUNK_WRITE";
            case LARGE_CHUNK_READ -> "LARGE_CHUNK_READ";
            case LARGE_SEND -> "LARGE_SEND";
            case PARKED_SEND -> "PARKED_SEND";
            case PARKED_QUERY -> "PARKED_QUERY";
            default -> "code " + code;
        };
    }
}
