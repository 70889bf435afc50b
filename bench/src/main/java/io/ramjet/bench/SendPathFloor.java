package io.ramjet.bench;

import io.ramjet.bench.peer.TemporaryDirectory;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.provider.jms.RamjetConnectionFactory;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.namesrv.NameServer;
import io.ramjet.server.namesrv.NameServerConfig;
import io.ramjet.storage.StoreConfig;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The floor of a synchronous persistent send beside what one costs (the target: a send
 * within 80% of one flush + one round trip): one durable 1 KiB write (a positional write and an fdatasync on a
 * preallocated file in the broker's data directory, as the CommitLog does), one round trip (a
 * HEARTBEAT, answered on the broker's I/O thread), then one producer's persistent sends and
 * commit-every-1 sends, each timed one at a time. Broker and client share this JVM. Prints the
 * median and the 10th / 90th percentiles in microseconds.
 *
 * <p>Usage: {@code SendPathFloor [count]} (default 3,000 of each).
 */
public final class SendPathFloor {

    private static final Logger LOG = LoggerFactory.getLogger(SendPathFloor.class);
    private static final int BODY = 1024;

    private SendPathFloor() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 3_000;
        try (TemporaryDirectory data = new TemporaryDirectory("ramjet-floor")) {
            report("fsync: 1 KiB pwrite + fdatasync", durableWrites(data.path().resolve("probe"), count));
            NameServer nameServer = new NameServer(NameServerConfig.defaults().withPort(0));
            nameServer.start();
            Broker broker = new Broker(BrokerConfig.builder(data.path().resolve("broker")).port(0)
                    .nameServers(List.of(nameServer.address())).build(), StoreConfig.defaults(data.path().resolve("broker")));
            broker.start();
            try {
                report("round trip: HEARTBEAT", roundTrips(broker.address(), count));
                RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + nameServer.address());
                try (Connection connection = factory.createConnection()) {
                    ForceTimes forces = new ForceTimes(2 * count);
                    broker.store().flushStatistics().listen(forces::add);
                    report("persistent send", sends(connection.createSession(false, Session.AUTO_ACKNOWLEDGE), count));
                    report("its CommitLog force (the broker's own timing, the last " + count + ")", forces.last(count));
                    broker.store().flushStatistics().listen((nanos, waiters) -> { });
                    report("transacted send, commit every 1",
                            sends(connection.createSession(true, Session.SESSION_TRANSACTED), count));
                }
            } finally {
                broker.close();
                nameServer.close();
            }
        }
    }

    private static long[] durableWrites(Path file, int count) throws Exception {
        long[] nanos = new long[count];
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
            for (long at = 0; at < (long) (count + 1) * BODY; at += zeros.capacity()) {
                channel.write(zeros.clear(), at);
            }
            channel.force(true);
            ByteBuffer record = ByteBuffer.allocateDirect(BODY);
            for (int i = 0; i < count; i++) {
                long started = System.nanoTime();
                channel.write(record.clear(), (long) i * BODY);
                channel.force(false);
                nanos[i] = System.nanoTime() - started;
            }
        }
        return nanos;
    }

    private static long[] roundTrips(String broker, int count) throws Exception {
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.defaults().withIoThreads(1))) {
            return timedAfterWarmUp(count,
                    () -> client.invoke(broker, Frame.request(CommandCode.HEARTBEAT, null)).get(10, TimeUnit.SECONDS));
        }
    }

    /** A transacted session commits after each send. */
    private static long[] sends(Session session, int count) throws Exception {
        MessageProducer producer = session.createProducer(session.createQueue("floor-" + System.nanoTime()));
        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
        BytesMessage message = session.createBytesMessage();
        message.writeBytes(new byte[BODY]);
        long[] nanos = timedAfterWarmUp(count, () -> {
            producer.send(message);
            if (session.getTransacted()) {
                session.commit();
            }
        });
        session.close();
        return nanos;
    }

    /**
     * The durations of the CommitLog's forces, as the broker times them (its force listener, on
     * the forcing thread: one array store), to set against the bare probe's.
     */
    private static final class ForceTimes {
        private final long[] nanos;
        private final AtomicInteger next = new AtomicInteger();

        ForceTimes(int capacity) {
            nanos = new long[capacity];
        }

        void add(long forceNanos, int waiters) {
            int i = next.getAndIncrement();
            if (i < nanos.length) {
                nanos[i] = forceNanos;
            }
        }

        long[] last(int count) {
            int end = Math.min(next.get(), nanos.length);
            return Arrays.copyOfRange(nanos, Math.max(0, end - count), end);
        }
    }

    /** One step of a timed path. */
    private interface Step {
        void run() throws Exception;
    }

    /**
     * Runs {@code step} {@code count} times untimed, then times it {@code count} times: a step
     * timed cold takes several times its warm time.
     */
    private static long[] timedAfterWarmUp(int count, Step step) throws Exception {
        for (int i = 0; i < count; i++) {
            step.run();
        }
        long[] nanos = new long[count];
        for (int i = 0; i < count; i++) {
            long started = System.nanoTime();
            step.run();
            nanos[i] = System.nanoTime() - started;
        }
        return nanos;
    }

    private static void report(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        LOG.info("{}: median {} us, p10 {} us, p90 {} us ({} samples)", what, sorted[sorted.length / 2] / 1_000,
                sorted[sorted.length / 10] / 1_000, sorted[sorted.length * 9 / 10] / 1_000, sorted.length);
    }
}
