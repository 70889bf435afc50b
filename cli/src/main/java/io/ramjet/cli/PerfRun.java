package io.ramjet.cli;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.Queue;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One {@code perf} run: consumers attach first, producers send (each message carries the run's
 * id, its producer and sequence number, and its send time in properties), then the consumers
 * drain until every message sent has arrived or none has for {@link PerfPlan#drainWait()}.
 * Messages of another run on the queue are consumed and counted as stale.
 */
final class PerfRun {

    static final String RUN = "RamjetPerfRun";
    static final String PRODUCER = "RamjetPerfProducer";
    static final String SEQUENCE = "RamjetPerfSequence";
    static final String SENT_NANOS = "RamjetPerfSentNanos";

    private static final long RECEIVE_MILLIS = 100;

    private final PerfPlan plan;
    private final String runId = UUID.randomUUID().toString();
    private final PerfTally tally;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong stale = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean drained;

    PerfRun(PerfPlan plan) {
        this.plan = plan;
        this.tally = new PerfTally(plan.producers());
    }

    /** Runs on a connection of {@code connection}'s, which it does not close. */
    PerfReport run(JMSContext connection) throws InterruptedException {
        int mode = plan.transactedBatch() > 0 ? JMSContext.SESSION_TRANSACTED : JMSContext.AUTO_ACKNOWLEDGE;
        Queue queue = connection.createQueue(plan.queue());
        List<Thread> consumers = new ArrayList<>();
        for (int c = 0; c < plan.consumers(); c++) {
            JMSContext session = connection.createContext(mode);
            JMSConsumer consumer = session.createConsumer(queue);
            consumers.add(start("perf-consumer-" + c, () -> consume(session, consumer)));
        }
        long started = System.nanoTime();
        long deadline = started + plan.duration().toNanos();
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < plan.producers(); p++) {
            int index = p;
            JMSContext session = connection.createContext(mode);
            producers.add(start("perf-producer-" + p, () -> produce(session, queue, index, deadline)));
        }
        for (Thread producer : producers) {
            producer.join();
        }
        long sendEnded = System.nanoTime();
        awaitDrain();
        drained = true;
        for (Thread consumer : consumers) {
            consumer.join();
        }
        if (failure.get() != null) {
            throw new AdminException("perf run failed: " + failure.get(), failure.get());
        }
        long received = tally.received();
        double sendSeconds = seconds(sendEnded - started);
        double receiveSeconds = seconds(Math.max(tally.lastArrivalNanos(), started) - started);
        return new PerfReport(plan.queue(), plan.persistent(), plan.size(), plan.producers(), plan.consumers(),
                plan.transactedBatch(), sent.get(), received, sent.get() - received, tally.duplicated(), stale.get(),
                sendSeconds, rate(sent.get(), sendSeconds), receiveSeconds, rate(received, receiveSeconds),
                PerfReport.Latency.of(tally.latencyMicros()));
    }

    private void produce(JMSContext session, Queue queue, int index, long deadline) throws JMSException {
        try (session) {
            JMSProducer producer = session.createProducer()
                    .setDeliveryMode(plan.persistent() ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
            byte[] body = new byte[plan.size()];
            long count = plan.countOf(index);
            int batched = 0;
            for (int sequence = 0; plan.count() > 0 ? sequence < count : System.nanoTime() < deadline; sequence++) {
                if (failure.get() != null) {
                    return;
                }
                BytesMessage message = session.createBytesMessage();
                message.writeBytes(body);
                message.setStringProperty(RUN, runId);
                message.setIntProperty(PRODUCER, index);
                message.setIntProperty(SEQUENCE, sequence);
                message.setLongProperty(SENT_NANOS, System.nanoTime());
                producer.send(queue, message);
                batched++;
                if (plan.transactedBatch() == 0) {
                    sent.incrementAndGet();
                } else if (batched == plan.transactedBatch()) {
                    session.commit();
                    sent.addAndGet(batched);
                    batched = 0;
                }
            }
            if (batched > 0 && plan.transactedBatch() > 0) {
                session.commit();
                sent.addAndGet(batched);
            }
        }
    }

    private void consume(JMSContext session, JMSConsumer consumer) throws JMSException {
        try (session; consumer) {
            int batched = 0;
            while (!drained && failure.get() == null) {
                Message message = consumer.receive(RECEIVE_MILLIS);
                if (message == null) {
                    continue;
                }
                if (runId.equals(message.getStringProperty(RUN))) {
                    tally.arrived(message.getIntProperty(PRODUCER), message.getIntProperty(SEQUENCE),
                            message.getLongProperty(SENT_NANOS));
                } else {
                    stale.incrementAndGet();
                }
                if (plan.transactedBatch() > 0 && ++batched == plan.transactedBatch()) {
                    session.commit();
                    batched = 0;
                }
            }
            if (batched > 0) {
                session.commit();
            }
        }
    }

    /** Waits, the producers done, until every message sent arrived or none arrived for the drain wait. */
    private void awaitDrain() {
        long received = tally.received();
        long quietSince = System.nanoTime();
        while (tally.received() < sent.get() && failure.get() == null
                && System.nanoTime() - quietSince < plan.drainWait().toNanos()) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            if (tally.received() != received) {
                received = tally.received();
                quietSince = System.nanoTime();
            }
        }
    }

    private interface Work {
        void run() throws Exception;
    }

    private Thread start(String name, Work work) {
        Thread thread = new Thread(() -> {
            try {
                work.run();
            } catch (Exception | Error e) {
                failure.compareAndSet(null, e);
            }
        }, name);
        thread.start();
        return thread;
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static double rate(long messages, double seconds) {
        return seconds > 0 ? messages / seconds : 0;
    }
}
