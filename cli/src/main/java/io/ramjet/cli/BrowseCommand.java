package io.ramjet.cli;

import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code ramjet-admin browse}: prints up to N messages of a queue without consuming them. */
@Command(name = "browse", description = "show up to N messages of a queue without consuming them",
        mixinStandardHelpOptions = true)
final class BrowseCommand implements Callable<Integer> {

    @Mixin
    Common common;

    @Option(names = {"-q", "--queue"}, required = true, description = "the queue")
    String queue;

    @Option(names = {"-n", "--count"}, defaultValue = "20", description = "at most this many (default: ${DEFAULT-VALUE})")
    int count;

    @Option(names = "--selector", description = "a message selector")
    String selector;

    @Override
    public Integer call() throws JMSException {
        List<Received> seen = new ArrayList<>();
        try (JMSContext context = common.context(JMSContext.AUTO_ACKNOWLEDGE);
             QueueBrowser browser = context.createBrowser(context.createQueue(queue), selector)) {
            Enumeration<?> messages = browser.getEnumeration();
            while (seen.size() < count && messages.hasMoreElements()) {
                seen.add(Received.of((Message) messages.nextElement()));
            }
        }
        ConsumerCommand.print(common.output(), seen);
        return 0;
    }
}
