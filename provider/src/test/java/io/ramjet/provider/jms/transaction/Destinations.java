package io.ramjet.provider.jms.transaction;

import static org.awaitility.Awaitility.await;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** Test helpers: a destination placed on a chosen broker of a cluster, unique names. */
public final class Destinations {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private Destinations() {
    }

    public static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * Creates a queue on the broker at {@code brokerAddress} and waits until the NameServer
     * routes it there, so that a client's first lookup finds it on that broker.
     */
    public static void createQueueOn(String nameServer, String brokerAddress, String queue) throws Exception {
        try (RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults().withIoThreads(1))) {
            remoting.invokeSync(brokerAddress, Frame.request(CommandCode.CREATE_DESTINATION,
                    new CreateDestinationRequest(queue, DestinationKind.QUEUE, 0, false)), TIMEOUT);
            NameServerClient names = new NameServerClient(remoting, List.of(nameServer), TIMEOUT);
            await("the NameServer routing " + queue + " to " + brokerAddress).atMost(TIMEOUT)
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                    .until(() -> names.queryRoute(queue).get().writableMasters().stream()
                            .anyMatch(r -> r.broker().address().equals(brokerAddress)));
        }
    }
}
