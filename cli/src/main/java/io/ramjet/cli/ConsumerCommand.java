package io.ramjet.cli;

import io.ramjet.cli.Output.Column;
import io.ramjet.model.stats.ConsumerStats;
import io.ramjet.protocol.command.AdminQuery;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ConsumerStatsList;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ramjet-admin consumer}: receives up to N messages and prints them; {@code consumer list}
 * lists the consumers attached to the brokers.
 */
@Command(name = "consumer", description = "receive up to N messages; 'consumer list' lists the consumers",
        mixinStandardHelpOptions = true)
final class ConsumerCommand implements Callable<Integer> {

    @Mixin
    Common common;

    @Option(names = {"-d", "--destination"}, description = "queue (or topic with --topic) name")
    String destination;

    @Option(names = "--topic", description = "the destination is a topic")
    boolean topic;

    @Option(names = {"-n", "--count"}, defaultValue = "1", description = "at most this many (default: ${DEFAULT-VALUE})")
    int count;

    @Option(names = "--selector", description = "a message selector")
    String selector;

    @Option(names = "--wait", defaultValue = "2000", description = "milliseconds to wait for each message (default: ${DEFAULT-VALUE})")
    long waitMillis;

    @Override
    public Integer call() throws JMSException {
        if (destination == null) {
            throw new AdminException("consumer needs --destination (or: consumer list)");
        }
        List<Received> received = new ArrayList<>();
        try (JMSContext context = common.context(JMSContext.CLIENT_ACKNOWLEDGE);
             JMSConsumer consumer = context.createConsumer(topic ? context.createTopic(destination)
                     : context.createQueue(destination), selector)) {
            Message m;
            while (received.size() < count && (m = consumer.receive(waitMillis)) != null) {
                received.add(Received.of(m));
            }
            context.acknowledge();
        }
        print(common.output(), received);
        return 0;
    }

    @Command(name = "list", description = "the consumers attached to each broker")
    int list(@Mixin Common listing, @Option(names = "--destination", description = "only this destination's")
             String only) {
        List<OnBroker<ConsumerStats>> rows;
        try (AdminClient admin = listing.admin()) {
            rows = OnBroker.gather(admin, broker -> admin.call(broker.address(), CommandCode.ADMIN_CONSUMERS,
                    new AdminQuery(only), ConsumerStatsList.class).consumers());
        }
        listing.output().table(rows,
                new Column<>("BROKER", OnBroker::broker),
                new Column<>("ID", r -> r.row().id()),
                new Column<>("CONNECTION", r -> r.row().connection()),
                new Column<>("DESTINATION", r -> r.row().destination()),
                new Column<>("SUBSCRIPTION", r -> r.row().subscription()),
                new Column<>("SELECTOR", r -> r.row().selector()));
        return 0;
    }

    static void print(Output output, List<Received> messages) {
        output.table(messages,
                new Column<>("MESSAGE_ID", Received::messageId),
                new Column<>("DELIVERIES", Received::deliveryCount),
                new Column<>("BODY", Received::body),
                new Column<>("PROPERTIES", Received::properties));
    }
}
