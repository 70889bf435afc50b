package io.ramjet.provider.jms;

import jakarta.jms.IllegalStateException;

/**
 * Which domain a session serves: a session of {@code createSession} serves both; one of
 * {@code createQueueSession} only queues and one of {@code createTopicSession} only topics, and
 * each refuses the other domain's methods with IllegalStateException, as the javadoc of
 * {@code QueueSession} and {@code TopicSession} says (Jakarta Messaging 3.1 section 4.11).
 */
enum MessagingDomain {
    BOTH, QUEUE, TOPIC;

    /** Refuses a topic method on a queue session. */
    void checkTopicMethod(String method) throws IllegalStateException {
        if (this == QUEUE) {
            throw new IllegalStateException(method + " is not allowed on a QueueSession");
        }
    }

    /** Refuses a queue method on a topic session. */
    void checkQueueMethod(String method) throws IllegalStateException {
        if (this == TOPIC) {
            throw new IllegalStateException(method + " is not allowed on a TopicSession");
        }
    }
}
