package io.ramjet.server.embedded;

import io.netty.buffer.Unpooled;
import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.PullRequest;
import io.ramjet.protocol.command.PullResponse;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.command.SubscribeRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EmbeddedBrokerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void servesRoutesAndMessagesThenDeletesItsTemporaryDirectory() throws Exception {
        Path dataDir;
        try (EmbeddedBroker embedded = EmbeddedBroker.start();
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            dataDir = embedded.broker().config().dataDir();
            client.invokeSync(embedded.brokerAddress(), Frame.request(CommandCode.CREATE_DESTINATION,
                    new CreateDestinationRequest("greetings", DestinationKind.QUEUE, 1)), TIMEOUT);
            NameServerClient names = new NameServerClient(client, List.of(embedded.nameServerAddress()), TIMEOUT);
            // the broker announces a new destination to the NameServer asynchronously
            RouteData route = await().atMost(TIMEOUT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5))
                    .until(() -> names.queryRoute("greetings").join(), r -> !r.brokers().isEmpty());
            assertEquals(embedded.brokerAddress(), route.brokers().get(0).broker().address());

            byte[] section = MessagePropertiesCodec.encode(new MessageHeaders());
            client.invokeSync(embedded.brokerAddress(), Frame.request(CommandCode.SEND,
                    new SendRequest("greetings", DestinationKind.QUEUE, 0, true, 0, 0, section.length),
                    Unpooled.wrappedBuffer(section, "hi".getBytes())), TIMEOUT);
            SubscriptionRef queue = SubscriptionRef.queue("greetings");
            client.invokeSync(embedded.brokerAddress(), Frame.request(CommandCode.SUBSCRIBE,
                    new SubscribeRequest(queue, null, false, 7)), TIMEOUT);
            PullResponse pulled = client.invokeSync(embedded.brokerAddress(), Frame.request(CommandCode.PULL,
                    new PullRequest(7, queue, 10, 0)), TIMEOUT).header(PullResponse.class);
            assertEquals(1, pulled.messages().size());
            assertTrue(Files.isDirectory(dataDir));
        }
        assertFalse(Files.exists(dataDir), "temporary data directory deleted");
    }

    @Test
    void keepsAGivenDataDirectory(@TempDir Path dataDir) throws Exception {
        EmbeddedBroker.start(dataDir).close();
        try (var files = Files.list(dataDir)) {
            assertTrue(files.findAny().isPresent(), "the store's files are still there");
        }
    }
}
