package io.ramjet.server.broker.security;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a connection may be allowed to do to a destination, each named in a permissions file as
 * {@link #configName()} (the names of Artemis's permission types where one exists).
 */
public enum Operation {
    SEND("send"),
    /** Attach a consumer: receive from a queue, or subscribe to a topic. */
    CONSUME("consume"),
    BROWSE("browse"),
    CREATE_DURABLE_SUBSCRIPTION("createDurableSubscription"),
    DELETE_DURABLE_SUBSCRIPTION("deleteDurableSubscription"),
    CREATE_TEMPORARY("createTemporary"),
    /** Create a queue or topic that does not exist yet, explicitly or by first use. */
    CREATE_DESTINATION("createDestination"),
    DELETE_DESTINATION("deleteDestination"),
    /** Broker-wide management (listing every destination); its rules name the pattern {@code #}. */
    ADMIN("admin");

    private final String configName;

    Operation(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    /** @throws IllegalArgumentException naming the operations there are */
    static Operation ofConfigName(String name) {
        for (Operation op : values()) {
            if (op.configName.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown operation '" + name + "', expected one of "
                + Arrays.stream(values()).map(Operation::configName).collect(Collectors.joining(", ")));
    }
}
