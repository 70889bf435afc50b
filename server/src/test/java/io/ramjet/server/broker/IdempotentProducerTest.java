package io.ramjet.server.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.command.SendResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.broker.destination.Destination;
import io.ramjet.server.broker.replication.ReplicationConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The idempotent producer at the broker, over real sockets: a send whose producer and
 * sequence the broker has stored is answered without being stored again, across a restart, and
 * on a slave promoted to master, whose table the replicated log built.
 */
class IdempotentProducerTest {

    private static final long P = 0x1D_E4_90_7E_41L;
    private static final long Q = 0x2D_E4_90_7E_42L;
    private static final String QUEUE = Destination.storageName(DestinationKind.QUEUE, "orders");

    @TempDir
    Path dir;
    @TempDir
    Path slaveDir;

    private final RemotingClient client = new RemotingClient(RemotingClientConfig.defaults());

    @AfterEach
    void closeClient() {
        client.close();
    }

    private SendResponse send(Broker broker, long producer, long sequence, String text) throws Exception {
        return client.invokeSync(broker.address(), sendFrame(producer, sequence, text), BrokerTestClient.TIMEOUT)
                .header(SendResponse.class);
    }

    /** A persistent SEND of {@code text} to queue 0 of "orders" from {@code producer}. */
    private static Frame sendFrame(long producer, long sequence, String text) {
        byte[] properties = MessagePropertiesCodec.encode(new MessageHeaders());
        SendRequest header = new SendRequest("orders", DestinationKind.QUEUE, 0, true, 0, 0, properties.length, 0,
                producer, sequence);
        return Frame.request(CommandCode.SEND, header,
                Unpooled.wrappedBuffer(properties, text.getBytes(StandardCharsets.UTF_8)));
    }

    private static long stored(Broker broker) {
        return broker.store().maxQueueOffset(QUEUE, 0);
    }

    @Test
    void theSameSendTwiceIsStoredOnceAndAnsweredWithTheOriginalsPosition() throws Exception {
        try (Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dir))) {
            SendResponse first = send(broker, P, 1, "a");
            SendResponse again = send(broker, P, 1, "a");
            assertEquals(first, again);
            send(broker, P, 2, "b");
            SendResponse older = send(broker, P, 1, "a");
            assertEquals(-1, older.physicalOffset(), "an older resend: its position is not kept");
            assertEquals(2, stored(broker));
            assertEquals(2, broker.producers().duplicates());
        }
    }

    @Test
    void duplicatesAreCountedInTheMetrics() throws Exception {
        try (Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dir).toBuilder().metricsPort(0).build())) {
            send(broker, P, 1, "a");
            send(broker, P, 1, "a");
            HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + broker.metricsPort() + "/metrics"))
                    .timeout(BrokerTestClient.TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(scrape.body().lines().anyMatch(line -> line.startsWith("ramjet_producer_duplicates_total{")
                    && line.endsWith(" 1.0")), scrape.body());
        }
    }

    /**
     * Two connections send the same producer's messages at once, each all of them in order (a
     * producer resending over a new connection while the old one still delivers): the broker's
     * I/O threads run both connections' sends side by side, and each message is stored once.
     */
    @Test
    void twoConnectionsSendingOneProducersMessagesAtOnceStoreEachOnce() throws Exception {
        int count = 2_000;
        try (Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dir));
             RemotingClient other = new RemotingClient(RemotingClientConfig.defaults())) {
            send(broker, Q, 1, "opens the queue");
            List<CompletableFuture<Frame>> answers = new ArrayList<>();
            for (RemotingClient connection : List.of(client, other)) {
                connection.connect(broker.address()).get();
            }
            for (int sequence = 1; sequence <= count; sequence++) {
                for (RemotingClient connection : List.of(client, other)) {
                    answers.add(connection.invoke(broker.address(), sendFrame(P, sequence, "m" + sequence),
                            BrokerTestClient.TIMEOUT));
                }
            }
            for (CompletableFuture<Frame> answer : answers) {
                answer.get(BrokerTestClient.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
            assertEquals(1 + count, stored(broker));
            assertEquals(count, broker.producers().duplicates());
        }
    }

    @Test
    void anotherProducerWithTheSameSequenceIsStored() throws Exception {
        try (Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dir))) {
            SendResponse p = send(broker, P, 1, "a");
            SendResponse q = send(broker, Q, 1, "a");
            assertNotEquals(p.physicalOffset(), q.physicalOffset());
            assertEquals(2, stored(broker));
        }
    }

    @Test
    void aSendWithoutProducerIsStoredEveryTime() throws Exception {
        try (Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dir));
             BrokerTestClient plain = new BrokerTestClient(broker.address())) {
            plain.send("orders", DestinationKind.QUEUE, 0, "a");
            plain.send("orders", DestinationKind.QUEUE, 0, "a");
            assertEquals(2, stored(broker));
        }
    }

    @Test
    void aResendAfterARestartIsStoredOnce() throws Exception {
        try (Broker broker = BrokerTestSupport.start(BrokerTestSupport.config(dir))) {
            send(broker, P, 1, "a");
            send(broker, P, 2, "b");
        }
        try (Broker restarted = BrokerTestSupport.start(BrokerTestSupport.config(dir))) {
            send(restarted, P, 2, "b");
            send(restarted, P, 1, "a");
            assertEquals(2, stored(restarted));
            send(restarted, P, 3, "c");
            assertEquals(3, stored(restarted));
        }
    }

    @Test
    void aSlaveBuildsTheMastersTableAndPromotedStoresAResendOnce() throws Exception {
        try (Broker master = BrokerTestSupport.start(BrokerTestSupport.config(dir));
             Broker slave = BrokerTestSupport.start(BrokerTestSupport.config(slaveDir).toBuilder().brokerId(1).build()
                     .withReplication(master.config().replication().asSlaveOf(master.address())))) {
            for (long s = 1; s <= 5; s++) {
                send(master, P, s, "p" + s);
                send(master, Q, s, "q" + s);
                send(master, P, s, "p" + s);
            }
            ReplicationTest.awaitCaughtUp(slave, master);
            assertEquals(Map.of(P, 5L, Q, 5L), master.producers().sequences());
            assertEquals(master.producers().sequences(), slave.producers().sequences());
        }
        try (Broker promoted = BrokerTestSupport.start(BrokerTestSupport.config(slaveDir).withReplication(
                ReplicationConfig.DEFAULT))) {
            assertEquals(10, stored(promoted));
            send(promoted, P, 5, "p5");
            send(promoted, Q, 4, "q4");
            assertEquals(10, stored(promoted));
            send(promoted, P, 6, "p6");
            assertEquals(11, stored(promoted));
        }
    }
}
