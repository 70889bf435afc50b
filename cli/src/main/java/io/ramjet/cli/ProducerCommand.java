package io.ramjet.cli;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code ramjet-admin producer}: sends N text messages, what a user types to try a broker. */
@Command(name = "producer", description = "send N text messages", mixinStandardHelpOptions = true)
final class ProducerCommand implements java.util.concurrent.Callable<Integer> {

    @Mixin
    Common common;

    @Mixin
    Messaging messaging;

    @Option(names = "--body", defaultValue = "message %d", description = "the text; %%d is the message's number (default: ${DEFAULT-VALUE})")
    String body;

    @Option(names = {"-p", "--property"}, description = "a string property NAME=VALUE (repeatable)")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = "--non-persistent", description = "send NON_PERSISTENT")
    boolean nonPersistent;

    @Override
    public Integer call() {
        long started = System.nanoTime();
        try (JMSContext context = common.context(JMSContext.AUTO_ACKNOWLEDGE)) {
            JMSProducer producer = context.createProducer()
                    .setDeliveryMode(nonPersistent ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT);
            properties.forEach(producer::setProperty);
            for (int i = 0; i < messaging.count; i++) {
                producer.send(messaging.destination(context), String.format(body, i));
            }
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        common.output().value(Map.of("destination", messaging.destination, "sent", messaging.count, "millis", millis),
                "sent " + messaging.count + " messages to " + messaging.destination + " in " + millis + " ms");
        return 0;
    }
}
