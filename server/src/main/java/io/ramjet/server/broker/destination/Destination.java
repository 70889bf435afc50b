package io.ramjet.server.broker.destination;

import io.ramjet.model.DestinationKind;
import java.util.Objects;

/**
 * A broker-side destination: a name, a kind and the number of message queues (ConsumeQueues)
 * it is split into. Queue and topic names live in separate namespaces, as in JMS, so a queue
 * and a topic may share a name. Immutable.
 */
public record Destination(String name, DestinationKind kind, int queueCount, boolean temporary) {

    /**
     * Longest destination name a client may use, in UTF-8 bytes. Every layer serves it: the
     * wire's strings are bounded only by the frame, the record layout holds a destination of
     * up to 32,767 bytes, and the store maps a long name to a hashed directory name.
     */
    public static final int MAX_NAME_BYTES = 1024;
    /**
     * Longest name the broker itself gives a destination: room for a dead-letter prefix (and
     * dead-letter queues of dead-letter queues) on top of {@link #MAX_NAME_BYTES}, well below
     * what a record holds.
     */
    public static final int MAX_DERIVED_NAME_BYTES = 4 * MAX_NAME_BYTES;
    /** The namespace of the temporary destinations, which the broker names: no client may choose a name in it. */
    public static final String TEMPORARY_PREFIX = "TMP.";

    public Destination {
        Objects.requireNonNull(kind, "kind");
        validateName(name);
        if (queueCount < 1 || queueCount > 1024) {
            throw new IllegalArgumentException("queue count must be 1..1024, was " + queueCount);
        }
    }

    /** The name under which the storage engine files its ConsumeQueues: kind-qualified. */
    public String storageName() {
        return storageName(kind, name);
    }

    public static String storageName(DestinationKind kind, String name) {
        return (kind == DestinationKind.QUEUE ? "Q." : "T.") + name;
    }

    /** The kind of the destination filed under {@code storageName} ({@link #storageName(DestinationKind, String)}). */
    public static DestinationKind kindOf(String storageName) {
        return storageName.startsWith("Q.") ? DestinationKind.QUEUE : DestinationKind.TOPIC;
    }

    /** The name of the destination filed under {@code storageName} ({@link #storageName(DestinationKind, String)}). */
    public static String nameOf(String storageName) {
        return storageName.substring(2);
    }

    /**
     * Refuses a name a client may not choose: too long (see {@link #MAX_NAME_BYTES}), in the
     * temporary namespace ({@link #TEMPORARY_PREFIX}, or {@code TMP} itself, which its patterns
     * cover), or as {@link #validateName}.
     */
    public static void validateClientName(String name) {
        validateName(name);
        if (name.startsWith(TEMPORARY_PREFIX) || name.equals("TMP")) {
            throw new IllegalArgumentException("'" + name + "' is in the namespace of temporary destinations ("
                    + TEMPORARY_PREFIX + "), which the broker names: no such temporary destination exists");
        }
        int bytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("destination name of " + bytes + " UTF-8 bytes is longer than the "
                    + MAX_NAME_BYTES + " bytes accepted");
        }
    }

    /** Refuses names a client could use to escape the data directory or break the layout. */
    public static void validateName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("destination name must not be empty");
        }
        if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_DERIVED_NAME_BYTES) {
            throw new IllegalArgumentException("destination name longer than " + MAX_DERIVED_NAME_BYTES + " bytes");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == '/' || c == '\\' || c == 0x7f) {
                throw new IllegalArgumentException("destination name has an illegal character at " + i + ": " + name);
            }
        }
        if (name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("destination name must not be '" + name + "'");
        }
    }
}
