package io.ramjet.bench.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import io.ramjet.storage.StoreConfig;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a stalled drain prints on Ramjet: the client consumer's pipeline and, from the broker the
 * NameServer routes the queue to, its CommitLog positions, each message queue's ends and cursor,
 * and what each consumer holds, read at that moment from a real broker over real sockets.
 */
class RamjetStallProbeTest {

    @Test
    void aStallSaysWhatTheConsumerAndTheBrokerHold(@TempDir Path data) throws Exception {
        NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
        nameServer.start();
        Broker broker = new Broker(BrokerConfig.builder(data).port(0).nameServers(List.of(nameServer.address()))
                .queuesPerDestination(1).build(), StoreConfig.defaults(data).withSegmentSize(1 << 20));
        broker.start();
        String url = "ramjet://" + nameServer.address();
        try (Connection connection = new RamjetConnectionFactory(url).createConnection()) {
            Session session = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Queue queue = session.createQueue("stalled");
            MessageProducer producer = session.createProducer(queue);
            for (int i = 0; i < 3; i++) {
                producer.send(session.createTextMessage("m" + i));
            }
            MessageConsumer consumer = session.createConsumer(queue);
            connection.start();
            for (int i = 0; i < 3; i++) {
                assertEquals("m" + i, consumer.receive(5_000).getBody(String.class));
            }

            String said = new RamjetStallProbe(url).explain("stalled", consumer);

            assertTrue(said.contains("client consumer ") && said.contains("prefetched 0 (0 B)")
                    && said.contains("attached as consumer"), said);
            assertTrue(said.contains("broker " + broker.address() + ": CommitLog written to "), said);
            assertTrue(said.contains("stalled QUEUE queue 0: entries [0, 3), low water 0, read to 3, 3 pending,"
                    + " 3 in flight, first visible -1"), said);
            assertTrue(said.matches("(?s).*consumer \\d+: 3 in flight \\[0..2\\], scan floor \\d+, [01] held pull\\(s\\).*"),
                    said);
        } finally {
            broker.close();
            nameServer.close();
        }
    }

    @Test
    void aBrokerThatCannotBeAskedIsSaidSo() {
        String said = new RamjetStallProbe("ramjet://127.0.0.1:1").explain("stalled", null);
        assertTrue(said.startsWith("\n  broker state not read: "), said);
    }
}
