package io.ramjet.bench;

import io.ramjet.bench.jms.JmsWorkloads;
import io.ramjet.bench.peer.TemporaryDirectory;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import io.ramjet.storage.StoreConfig;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's bytes allocated per 1 KiB message, on the send path and on the receive
 * path apart: persistent asynchronous sends of a new BytesMessage each (as workload 4 sends),
 * then receives of them by a consumer opened after the sends, three rounds of each (the first
 * warms up). Broker and client share this
 * JVM, so only the client's threads are counted: the caller's and those named {@code ramjet-client},
 * {@code ramjet-session}, {@code ramjet-consumer} and {@code ramjet-connection}.
 *
 * <p>Usage: {@code ClientAllocation [count]} (default 20,000 of each).
 */
public final class ClientAllocation {

    private static final Logger LOG = LoggerFactory.getLogger(ClientAllocation.class);
    private static final int BODY = 1024;
    private static final int IN_FLIGHT = 500;
    private static final List<String> CLIENT_THREADS =
            List.of("ramjet-client", "ramjet-session", "ramjet-consumer", "ramjet-connection");

    private ClientAllocation() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        try (TemporaryDirectory data = new TemporaryDirectory("ramjet-allocation")) {
            NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
            nameServer.start();
            Broker broker = new Broker(BrokerConfig.builder(data.path().resolve("broker")).port(0)
                    .nameServers(List.of(nameServer.address())).build(), StoreConfig.defaults(data.path().resolve("broker")));
            broker.start();
            try (Connection connection = new RamjetConnectionFactory("ramjet://" + nameServer.address()).createConnection()) {
                connection.start();
                Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Queue queue = session.createQueue("allocation-" + System.nanoTime());
                MessageProducer producer = session.createProducer(queue);
                producer.setDeliveryMode(DeliveryMode.PERSISTENT);
                for (int round = 0; round < 3; round++) {
                    ClientThreads before = ClientThreads.now();
                    send(session, producer, count);
                    long sent = ClientThreads.now().allocatedSince(before);
                    before = ClientThreads.now();
                    try (MessageConsumer consumer = session.createConsumer(queue)) {
                        receive(consumer, count);
                    }
                    long received = ClientThreads.now().allocatedSince(before);
                    LOG.info("round {}: send {} B/message, receive {} B/message ({} messages of {} B)", round,
                            sent / count, received / count, count, BODY);
                }
            } finally {
                broker.close();
                nameServer.close();
            }
        }
    }

    private static void send(Session session, MessageProducer producer, int count) throws Exception {
        byte[] body = new byte[BODY];
        JmsWorkloads.Window window = new JmsWorkloads.Window(IN_FLIGHT);
        for (int i = 0; i < count; i++) {
            window.acquire();
            BytesMessage m = session.createBytesMessage();
            m.writeBytes(body);
            producer.send(m, window);
        }
        window.awaitAll("allocation sends");
    }

    private static void receive(MessageConsumer consumer, int count) throws JMSException {
        for (int i = 0; i < count; i++) {
            if (consumer.receive(10_000) == null) {
                throw new JMSException("received " + i + " of " + count);
            }
        }
    }

    /** Bytes allocated so far by each live client thread. */
    private record ClientThreads(Map<Long, Long> allocated) {

        static ClientThreads now() {
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            Map<Long, Long> allocated = new HashMap<>();
            long self = Thread.currentThread().getId();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getId() == self || CLIENT_THREADS.stream().anyMatch(t.getName()::startsWith)) {
                    allocated.put(t.getId(), threads.getThreadAllocatedBytes(t.getId()));
                }
            }
            return new ClientThreads(allocated);
        }

        long allocatedSince(ClientThreads before) {
            long sum = 0;
            for (Map.Entry<Long, Long> e : allocated.entrySet()) {
                sum += e.getValue() - before.allocated.getOrDefault(e.getKey(), 0L);
            }
            return sum;
        }
    }
}
