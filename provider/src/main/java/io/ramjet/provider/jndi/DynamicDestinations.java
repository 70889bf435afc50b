package io.ramjet.provider.jndi;

import io.ramjet.provider.destination.RamjetQueue;
import io.ramjet.provider.destination.RamjetTopic;
import java.util.Optional;

/**
 * Names that need no entry, as with Artemis and ActiveMQ: {@code dynamicQueues/NAME} is the queue
 * NAME and {@code dynamicTopics/NAME} the topic NAME (everything after the first slash, which may
 * hold more slashes).
 */
final class DynamicDestinations {

    static final String QUEUES = "dynamicQueues/";
    static final String TOPICS = "dynamicTopics/";

    private DynamicDestinations() {
    }

    /** The destination {@code name} stands for, or empty when it has neither prefix or names nothing after it. */
    static Optional<Object> lookup(String name) {
        if (name.startsWith(QUEUES) && name.length() > QUEUES.length()) {
            return Optional.of(new RamjetQueue(name.substring(QUEUES.length())));
        }
        if (name.startsWith(TOPICS) && name.length() > TOPICS.length()) {
            return Optional.of(new RamjetTopic(name.substring(TOPICS.length())));
        }
        return Optional.empty();
    }
}
