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

/**
 * {@code ramjet-admin browse}: one page of a queue's messages without consuming them, and where
 * the next page starts. The offset counts messages in browse order (each broker's message queues
 * in offset order) at the time of the call: while consumers take messages, a later page may skip
 * or repeat some.
 */
@Command(name = "browse", description = "show a page of a queue's messages without consuming them",
        mixinStandardHelpOptions = true)
final class BrowseCommand implements Callable<Integer> {

    /** A page: its messages, the offset it started at, and the offset of the next page (null after the last). */
    record Page(int offset, Integer next, List<Received> messages) {
    }

    @Mixin
    Common common;

    @Option(names = {"-q", "--queue"}, required = true, description = "the queue")
    String queue;

    @Option(names = {"-n", "--limit", "--count"}, defaultValue = "20",
            description = "at most this many (default: ${DEFAULT-VALUE})")
    int limit;

    @Option(names = "--offset", defaultValue = "0",
            description = "skip this many first, as the previous page's next offset says (default: ${DEFAULT-VALUE})")
    int offset;

    @Option(names = "--selector", description = "a message selector")
    String selector;

    @Override
    public Integer call() throws JMSException {
        List<Received> seen = new ArrayList<>();
        boolean more;
        try (JMSContext context = common.context(JMSContext.AUTO_ACKNOWLEDGE);
             QueueBrowser browser = context.createBrowser(context.createQueue(queue), selector)) {
            Enumeration<?> messages = browser.getEnumeration();
            for (int skipped = 0; skipped < offset && messages.hasMoreElements(); skipped++) {
                messages.nextElement();
            }
            while (seen.size() < limit && messages.hasMoreElements()) {
                seen.add(Received.of((Message) messages.nextElement()));
            }
            more = messages.hasMoreElements();
        }
        Page page = new Page(offset, more ? offset + seen.size() : null, seen);
        Output output = common.output();
        if (!output.json()) {
            ConsumerCommand.print(output, seen);
        }
        output.value(page, page.next() == null ? "(end)" : "(next page: --offset " + page.next() + ")");
        return 0;
    }
}
