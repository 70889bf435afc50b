package io.ramjet.cli;

import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import picocli.CommandLine.Option;

/** The options of the commands that send or receive through JMS: the destination and its kind. */
public final class Messaging {

    @Option(names = {"-d", "--destination"}, required = true, description = "queue (or topic with --topic) name")
    String destination;

    @Option(names = "--topic", description = "the destination is a topic")
    boolean topic;

    @Option(names = {"-n", "--count"}, defaultValue = "1", description = "how many messages (default: ${DEFAULT-VALUE})")
    int count;

    Destination destination(JMSContext context) {
        return topic ? context.createTopic(destination) : context.createQueue(destination);
    }
}
