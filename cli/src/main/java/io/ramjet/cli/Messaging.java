package io.ramjet.cli;

import io.ramjet.provider.jms.RamjetConnectionFactory;
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

    JMSContext open(Common common, int sessionMode) {
        return new RamjetConnectionFactory(common.url).createContext(sessionMode);
    }

    Destination destination(JMSContext context) {
        return topic ? context.createTopic(destination) : context.createQueue(destination);
    }
}
