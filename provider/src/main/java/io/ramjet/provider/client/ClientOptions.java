package io.ramjet.provider.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The client's tunables, each a URL option ({@code ramjet://host:9876?prefetch=16&pullHoldMillis=100}).
 * This class is where they are documented; the connection factory adds its own options
 * ({@code clientId}, {@code requestTimeout}, the ObjectMessage settings), {@link ClientTlsOptions}
 * the TLS ones.
 *
 * <table>
 *   <caption>Client URL options</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #PREFETCH}</td><td>1000</td><td>most messages a consumer holds unseen by the
 *       application or has asked for, per consumer; with small messages the bound that counts,
 *       else {@value #PREFETCH_BYTES}; a consumer reading from several brokers may hold one more
 *       per broker that ran dry (see {@link PullLoop})</td></tr>
 *   <tr><td>{@value #PREFETCH_BYTES}</td><td>1048576</td><td>most bytes of messages a consumer
 *       holds unseen by the application or has asked for in pulls still unanswered (each asked
 *       for counted at the largest size seen); a message larger than that is still taken, alone</td></tr>
 *   <tr><td>{@value #PULLS_IN_FLIGHT}</td><td>2</td><td>pulls a consumer has unanswered at a time
 *       per broker, each sent once the prefetch has half its room free, so the next batch is on its
 *       way while the last one travels; order is kept (the broker serves a consumer's pulls in the
 *       order they arrive, and their answers are taken in in that order)</td></tr>
 *   <tr><td>{@value #PULL_HOLD_MILLIS}</td><td>300</td><td>how long a broker holds a pull that
 *       finds nothing (long polling)</td></tr>
 *   <tr><td>{@value #DISCOVERY_MILLIS}</td><td>2000</td><td>how often a consumer asks which
 *       brokers host its destination, to consume from new ones</td></tr>
 *   <tr><td>{@value #RESUBSCRIBE_MILLIS}</td><td>500</td><td>how often a consumer that lost a
 *       broker subscribes there again</td></tr>
 *   <tr><td>{@value #ACKS_IN_FLIGHT}</td><td>1024</td><td>unanswered ACK requests per AUTO or
 *       DUPS_OK session before acknowledging waits</td></tr>
 *   <tr><td>{@value #ACK_BATCH}</td><td>64</td><td>AUTO_ACKNOWLEDGE acknowledgements gathered into
 *       one request; the batch also goes out as soon as the consumer has nothing more ready</td></tr>
 *   <tr><td>{@value #ACK_BATCH_MILLIS}</td><td>10</td><td>how long the first gathered AUTO
 *       acknowledgement waits for the batch to fill</td></tr>
 *   <tr><td>{@value #DUPS_OK_BATCH}</td><td>64</td><td>DUPS_OK acknowledgements gathered into one
 *       request (Artemis's {@code dupsOKBatchSize})</td></tr>
 *   <tr><td>{@value #DUPS_OK_MILLIS}</td><td>100</td><td>how long the first gathered DUPS_OK
 *       acknowledgement waits for the batch to fill</td></tr>
 *   <tr><td>{@value #TRANSACTED_SENDS_IN_FLIGHT}</td><td>1024</td><td>unanswered sends per
 *       transaction before the next send waits</td></tr>
 *   <tr><td>{@value #NON_PERSISTENT_SENDS_IN_FLIGHT}</td><td>1024</td><td>unanswered
 *       NON_PERSISTENT sends per session before the next send waits</td></tr>
 *   <tr><td>{@value #FAILOVER_TIMEOUT}</td><td>30000</td><td>how long (ms) a send whose broker
 *       group lost its master waits for the NameServers to name a new master of that group; after
 *       that it goes to another group, where a message the lost master stored may be stored twice</td></tr>
 *   <tr><td>{@value #LARGE_MESSAGE_SIZE}</td><td>1048576</td><td>bytes of body above which a message
 *       is sent as a large message (Artemis's {@code minLargeMessageSize}): its body travels and is
 *       stored in chunks of at most this size (and of at most 1 MiB), and a receiver reads it in
 *       chunks as it reads the body; a body given as a stream is always sent so</td></tr>
 *   <tr><td>{@value #COMPRESS_LARGE_MESSAGES}</td><td>false</td><td>{@code true} deflates the body
 *       of every large message this connection sends (Artemis's {@code compressLargeMessages});
 *       receivers inflate it as they read, whatever their own setting</td></tr>
 *   <tr><td>{@value #MAX_FRAME_LENGTH}</td><td>16777216</td><td>the longest frame this client sends
 *       or takes, as the broker's own limit (16 MiB); what a transaction consumed travels in as
 *       many frames as it needs</td></tr>
 * </table>
 *
 * Every value but {@value #COMPRESS_LARGE_MESSAGES} (true or false) is a positive whole number.
 */
public record ClientOptions(int prefetch, int prefetchBytes, int pullsInFlight, long pullHoldMillis,
                            long discoveryMillis, long resubscribeMillis, int acksInFlight, int ackBatch,
                            long ackBatchMillis, int dupsOkBatch, long dupsOkMillis, int transactedSendsInFlight,
                            int nonPersistentSendsInFlight, long failoverTimeout, int largeMessageSize,
                            boolean compressLargeMessages, int maxFrameLength) {

    public static final String PREFETCH = "prefetch";
    public static final String PREFETCH_BYTES = "prefetchBytes";
    public static final String PULLS_IN_FLIGHT = "pullsInFlight";
    public static final String PULL_HOLD_MILLIS = "pullHoldMillis";
    public static final String DISCOVERY_MILLIS = "discoveryMillis";
    public static final String RESUBSCRIBE_MILLIS = "resubscribeMillis";
    public static final String ACKS_IN_FLIGHT = "acksInFlight";
    public static final String ACK_BATCH = "ackBatch";
    public static final String ACK_BATCH_MILLIS = "ackBatchMillis";
    public static final String DUPS_OK_BATCH = "dupsOkBatch";
    public static final String DUPS_OK_MILLIS = "dupsOkMillis";
    public static final String TRANSACTED_SENDS_IN_FLIGHT = "transactedSendsInFlight";
    public static final String NON_PERSISTENT_SENDS_IN_FLIGHT = "nonPersistentSendsInFlight";
    public static final String FAILOVER_TIMEOUT = "failoverTimeout";
    public static final String LARGE_MESSAGE_SIZE = "largeMessageSize";
    public static final String COMPRESS_LARGE_MESSAGES = "compressLargeMessages";
    public static final String MAX_FRAME_LENGTH = "maxFrameLength";

    /** The option names, in the order of the components. */
    public static final List<String> KEYS = List.of(PREFETCH, PREFETCH_BYTES, PULLS_IN_FLIGHT, PULL_HOLD_MILLIS,
            DISCOVERY_MILLIS, RESUBSCRIBE_MILLIS, ACKS_IN_FLIGHT, ACK_BATCH, ACK_BATCH_MILLIS, DUPS_OK_BATCH,
            DUPS_OK_MILLIS, TRANSACTED_SENDS_IN_FLIGHT, NON_PERSISTENT_SENDS_IN_FLIGHT, FAILOVER_TIMEOUT,
            LARGE_MESSAGE_SIZE, COMPRESS_LARGE_MESSAGES, MAX_FRAME_LENGTH);

    public static final ClientOptions DEFAULTS = new ClientOptions(1000, 1 << 20, 2, 300, 2_000, 500, 1024, 64, 10, 64,
            100, 1024, 1024, 30_000, 1 << 20, false, 16 << 20);

    public ClientOptions {
        positive(PREFETCH, prefetch);
        positive(PREFETCH_BYTES, prefetchBytes);
        positive(PULLS_IN_FLIGHT, pullsInFlight);
        positive(PULL_HOLD_MILLIS, pullHoldMillis);
        positive(DISCOVERY_MILLIS, discoveryMillis);
        positive(RESUBSCRIBE_MILLIS, resubscribeMillis);
        positive(ACKS_IN_FLIGHT, acksInFlight);
        positive(ACK_BATCH, ackBatch);
        positive(ACK_BATCH_MILLIS, ackBatchMillis);
        positive(DUPS_OK_BATCH, dupsOkBatch);
        positive(DUPS_OK_MILLIS, dupsOkMillis);
        positive(TRANSACTED_SENDS_IN_FLIGHT, transactedSendsInFlight);
        positive(NON_PERSISTENT_SENDS_IN_FLIGHT, nonPersistentSendsInFlight);
        positive(FAILOVER_TIMEOUT, failoverTimeout);
        positive(LARGE_MESSAGE_SIZE, largeMessageSize);
        positive(MAX_FRAME_LENGTH, maxFrameLength);
    }

    /**
     * The tunables a URL's options set, the defaults for the others.
     *
     * @param otherKeys the options someone else reads (the factory's own)
     * @throws IllegalArgumentException naming the key, for an option no one reads or a value
     *                                  that is not a positive whole number
     */
    public static ClientOptions fromUrlOptions(Map<String, String> options, Set<String> otherKeys) {
        for (String key : options.keySet()) {
            if (!KEYS.contains(key) && !ClientTlsOptions.KEYS.contains(key) && !otherKeys.contains(key)) {
                Set<String> known = new TreeSet<>(otherKeys);
                known.addAll(KEYS);
                known.addAll(ClientTlsOptions.KEYS);
                throw new IllegalArgumentException("unknown option " + key + "; known: " + String.join(", ", known));
            }
        }
        Map<String, Long> values = new LinkedHashMap<>();
        for (String key : KEYS) {
            String value = options.get(key);
            if (value != null && !key.equals(COMPRESS_LARGE_MESSAGES)) {
                values.put(key, number(key, value));
            }
        }
        ClientOptions d = DEFAULTS;
        return new ClientOptions(
                Math.toIntExact(values.getOrDefault(PREFETCH, (long) d.prefetch)),
                Math.toIntExact(values.getOrDefault(PREFETCH_BYTES, (long) d.prefetchBytes)),
                Math.toIntExact(values.getOrDefault(PULLS_IN_FLIGHT, (long) d.pullsInFlight)),
                values.getOrDefault(PULL_HOLD_MILLIS, d.pullHoldMillis),
                values.getOrDefault(DISCOVERY_MILLIS, d.discoveryMillis),
                values.getOrDefault(RESUBSCRIBE_MILLIS, d.resubscribeMillis),
                Math.toIntExact(values.getOrDefault(ACKS_IN_FLIGHT, (long) d.acksInFlight)),
                Math.toIntExact(values.getOrDefault(ACK_BATCH, (long) d.ackBatch)),
                values.getOrDefault(ACK_BATCH_MILLIS, d.ackBatchMillis),
                Math.toIntExact(values.getOrDefault(DUPS_OK_BATCH, (long) d.dupsOkBatch)),
                values.getOrDefault(DUPS_OK_MILLIS, d.dupsOkMillis),
                Math.toIntExact(values.getOrDefault(TRANSACTED_SENDS_IN_FLIGHT, (long) d.transactedSendsInFlight)),
                Math.toIntExact(values.getOrDefault(NON_PERSISTENT_SENDS_IN_FLIGHT, (long) d.nonPersistentSendsInFlight)),
                values.getOrDefault(FAILOVER_TIMEOUT, d.failoverTimeout),
                Math.toIntExact(values.getOrDefault(LARGE_MESSAGE_SIZE, (long) d.largeMessageSize)),
                flag(COMPRESS_LARGE_MESSAGES, options.get(COMPRESS_LARGE_MESSAGES), d.compressLargeMessages),
                Math.toIntExact(values.getOrDefault(MAX_FRAME_LENGTH, (long) d.maxFrameLength)));
    }

    /**
     * A URL option's value as a positive whole number (at most {@link Integer#MAX_VALUE}).
     *
     * @throws IllegalArgumentException naming the key and the accepted form
     */
    public static long number(String key, String value) {
        long n;
        try {
            n = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + key + "=" + value + " is not a number; expected "
                    + key + "=<positive whole number>");
        }
        if (n <= 0 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("option " + key + "=" + value + " is out of range; expected "
                    + key + "=<positive whole number>");
        }
        return n;
    }

    private static boolean flag(String key, String value, boolean otherwise) {
        if (value == null) {
            return otherwise;
        }
        return switch (value.trim()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("option " + key + "=" + value + " is not a flag; expected "
                    + key + "=true or " + key + "=false");
        };
    }

    private static void positive(String key, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException("option " + key + " must be positive: " + value);
        }
    }
}
