package io.ramjet.bench.rocketmq;

import io.ramjet.bench.workload.Acknowledgement;
import io.ramjet.bench.workload.FanOut;
import io.ramjet.bench.workload.GroupOrder;
import io.ramjet.bench.workload.NotApplicableException;
import io.ramjet.bench.workload.Parallel;
import io.ramjet.bench.workload.Progress;
import io.ramjet.bench.workload.Rate;
import io.ramjet.bench.workload.SelectorData;
import io.ramjet.bench.workload.SendSlots;
import io.ramjet.bench.workload.Workloads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.MessageSelector;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.topic.TopicValidator;

/**
 * The workloads on RocketMQ's own Java client: no JMS layer, the ceiling Ramjet's JMS layer is
 * measured against. A JMS queue is a topic of four queues read by one consumer group; persistent
 * rows go to a broker with {@code SYNC_FLUSH}, non-persistent ones to a broker with
 * {@code ASYNC_FLUSH} (RocketMQ has no per-message persistence); the selector is the tag filter
 * ({@code tag = color}) or a SQL92 property filter. Consumers are {@link DefaultLitePullConsumer}s
 * pulling {@link #PULL_BATCH} at a time. Non-persistent sends are {@code send(msg, callback)} with
 * the same window as the JMS peers' asynchronous sends (the JMS clients send NON_PERSISTENT
 * messages without waiting for each), persistent ones a blocking {@code send(msg)}.
 */
public final class RocketMqWorkloads implements Workloads {

    private static final int QUEUES = 4;
    /**
     * Messages a consumer asks for in one pull (the client's default is 10; a user moving many
     * messages raises it, and the broker's transfer cap is raised above it).
     */
    static final int PULL_BATCH = 64;

    private static final int ASYNC_WINDOW = 1_000;
    /** Producer threads storing the ordered-groups backlog, each sending its share of the groups synchronously. */
    private static final int ORDERED_PRODUCERS = 8;
    /** Why workload 11 has no RocketMQ figure: its broker refuses a message body over maxMessageSize. */
    private static final String LARGE_GAP = "RocketMQ caps a message at 4 MiB (maxMessageSize), no large messages";

    private final String syncFlushNameServer;
    private final String asyncFlushNameServer;
    private final int producers;
    private final int consumers;
    /** Which NameServer each topic was written through, so its drain reads the same broker. */
    private final Map<String, String> topicNameServer = new ConcurrentHashMap<>();
    private final AtomicInteger groups = new AtomicInteger();
    /** One producer per NameServer that creates the topics (RocketMQ creates them through a client). */
    private final Map<String, DefaultMQProducer> admins = new ConcurrentHashMap<>();

    public RocketMqWorkloads(String syncFlushNameServer, String asyncFlushNameServer, int producers, int consumers) {
        this.syncFlushNameServer = syncFlushNameServer;
        this.asyncFlushNameServer = asyncFlushNameServer;
        this.producers = producers;
        this.consumers = consumers;
    }

    @Override
    public Rate send(String queue, long count, int size, boolean persistent) throws Exception {
        return send(queue, count, size, persistent, producers);
    }

    @Override
    public Rate send(String queue, long count, int size, boolean persistent, int producers) throws Exception {
        if (!persistent) {
            return sendWindowed(topic(queue, asyncFlushNameServer), count, size);
        }
        String topic = topic(queue, syncFlushNameServer, Math.max(QUEUES, producers));
        return Parallel.run(producers, index -> {
            DefaultMQProducer p = producer(syncFlushNameServer);
            long n = Parallel.share(count, producers, index);
            byte[] body = new byte[size];
            return Parallel.Worker.of(p::shutdown, () -> {
                long sent = 0;
                while (sent < n) {
                    check(p.send(new Message(topic, body)));
                    sent++;
                }
                return sent;
            });
        });
    }

    /**
     * A lite pull consumer commits the offsets it has polled every 5 s ({@code autoCommit}, its
     * default), and the broker writes them to disk every 5 s: after a crash the messages since are
     * delivered again. That is DUPS_OK's contract; RocketMQ has no other.
     */
    @Override
    public List<Acknowledgement> acknowledgements() {
        return List.of(Acknowledgement.DUPS_OK);
    }

    @Override
    public String acknowledgementGap(Acknowledgement ack) {
        return ack == Acknowledgement.DUPS_OK ? null : "a RocketMQ consumer commits its offsets every 5 s, as DUPS_OK"
                + " does (that row)";
    }

    @Override
    public Rate drain(String queue, long count, Acknowledgement ack) throws Exception {
        return drain(queue, count, ack, consumers);
    }

    @Override
    public Rate drain(String queue, long count, Acknowledgement ack, int consumers) throws Exception {
        if (acknowledgementGap(ack) != null) {
            throw new NotApplicableException(acknowledgementGap(ack));
        }
        String topic = existing(queue);
        String group = group();
        AtomicLong received = new AtomicLong();
        return Parallel.run(consumers, index -> {
            // started but not yet assigned: it pulls nothing before the timer starts (a JMS
            // consumer's connection is started in the timed part too)
            DefaultLitePullConsumer c = consumer(topicNameServer.get(topic), group);
            if (consumers > 1) {
                // RocketMQ refuses a second consumer of one group in one client instance: each
                // competing consumer is a client of its own, with its own connections, as a
                // consumer process would be (and as each JMS consumer has its own connection)
                c.setInstanceName(instance(topicNameServer.get(topic)) + "_consumer_" + index);
            }
            c.setSubExpressionForAssign(topic, "*");
            c.start();
            List<MessageQueue> queues = share(c, topic, index, consumers);
            return Parallel.Worker.of(c::shutdown, () -> {
                c.assign(queues);
                long mine = 0;
                long lastProgress = System.nanoTime();
                while (received.get() < count) {
                    List<MessageExt> batch = c.poll(100);
                    if (!batch.isEmpty()) {
                        received.addAndGet(batch.size());
                        mine += batch.size();
                        lastProgress = System.nanoTime();
                    } else if (System.nanoTime() - lastProgress > Progress.STALL_NANOS) {
                        throw new IllegalStateException("drain of " + topic + " stalled after " + received.get()
                                + " of " + count + " messages");
                    }
                }
                return mine;
            });
        });
    }

    /** RocketMQ's clients of one JVM share one client instance and its connections: no per-connection figure. */
    @Override
    public Rate largeSend(String queue, long count, int size) throws NotApplicableException {
        throw new NotApplicableException(LARGE_GAP);
    }

    @Override
    public Rate largeDrain(String queue, long count, int size) throws NotApplicableException {
        throw new NotApplicableException(LARGE_GAP);
    }

    @Override
    public AutoCloseable openConsumers(String queue, int connections) throws NotApplicableException {
        throw new NotApplicableException("RocketMQ's consumers in one JVM share one client instance and its connections");
    }

    @Override
    public Rate transactedSend(String queue, long count, int size, int commitEvery) throws Exception {
        if (commitEvery != 1) {
            throw new NotApplicableException("a RocketMQ transaction holds one message");
        }
        String topic = topic(queue, syncFlushNameServer);
        return Parallel.run(1, index -> {
            TransactionMQProducer p = new TransactionMQProducer(group());
            p.setNamesrvAddr(syncFlushNameServer);
            p.setInstanceName(instance(syncFlushNameServer));
            p.setSendMsgTimeout(10_000);
            p.setTransactionListener(new TransactionListener() {
                @Override
                public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                    return LocalTransactionState.COMMIT_MESSAGE;
                }

                @Override
                public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                    return LocalTransactionState.COMMIT_MESSAGE;
                }
            });
            p.start();
            byte[] body = new byte[size];
            return Parallel.Worker.of(p::shutdown, () -> {
                long sent = 0;
                while (sent < count) {
                    TransactionSendResult r = p.sendMessageInTransaction(new Message(topic, body), null);
                    check(r);
                    if (r.getLocalTransactionState() != LocalTransactionState.COMMIT_MESSAGE) {
                        throw new IllegalStateException("transaction ended " + r.getLocalTransactionState());
                    }
                    sent++;
                }
                return sent;
            });
        });
    }

    @Override
    public Duration largeTransactionCommit(String queue, long count, int size) throws NotApplicableException {
        throw new NotApplicableException("a RocketMQ transaction holds one message");
    }

    @Override
    public Rate sendAsync(String queue, long count, int size) throws Exception {
        return sendWindowed(topic(queue, syncFlushNameServer), count, size);
    }

    /** Producers send {@code count} messages to an existing topic with {@link #ASYNC_WINDOW} unconfirmed. */
    private Rate sendWindowed(String topic, long count, int size) throws Exception {
        return Parallel.run(producers, index -> {
            DefaultMQProducer p = producer(topicNameServer.get(topic));
            long n = Parallel.share(count, producers, index);
            byte[] body = new byte[size];
            return Parallel.Worker.of(p::shutdown, () -> {
                Window window = new Window(ASYNC_WINDOW);
                long sent = 0;
                while (sent < n) {
                    window.acquire();
                    p.send(new Message(topic, body), window);
                    sent++;
                }
                window.awaitAll(topic);
                return sent;
            });
        });
    }

    @Override
    public Histogram latency(String queue, int size, int perSecond, Duration duration) throws Exception {
        String topic = topic(queue, syncFlushNameServer);
        Histogram histogram = new Histogram(TimeUnit.HOURS.toMicros(1), 3);
        AtomicLong received = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        long period = TimeUnit.SECONDS.toNanos(1) / perSecond;
        DefaultLitePullConsumer c = assigned(syncFlushNameServer, group(), topic, "*", 0, 1);
        DefaultMQProducer p = producer(syncFlushNameServer);
        AtomicLong warmupEnd = new AtomicLong(Long.MAX_VALUE);
        AtomicBoolean running = new AtomicBoolean(true);
        Thread reader = new Thread(() -> {
            try {
                while (running.get()) {
                    for (MessageExt m : c.poll(100)) {
                        long now = System.nanoTime();
                        long due = Long.parseLong(m.getUserProperty("due"));
                        if (due >= warmupEnd.get()) {
                            histogram.recordValue(Math.max(0, (now - due) / 1_000));
                        }
                        received.incrementAndGet();
                    }
                }
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            }
        }, "rocketmq-latency-consumer");
        try {
            reader.start();
            byte[] body = new byte[size];
            Window window = new Window(10 * ASYNC_WINDOW);
            long start = System.nanoTime();
            warmupEnd.set(start + duration.toNanos() / 10);
            long end = start + duration.toNanos();
            long sent = 0;
            for (long due = start; due < end; due = start + sent * period) {
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                Message m = new Message(topic, body);
                m.putUserProperty("due", Long.toString(due));
                window.acquire();
                p.send(m, window);
                sent++;
            }
            window.awaitAll(topic);
            Progress.awaitCount(received, sent, "latency consumer of " + topic);
            if (failure.get() != null) {
                throw failure.get();
            }
            return histogram;
        } finally {
            running.set(false);
            reader.join(5_000);
            c.shutdown();
            p.shutdown();
        }
    }

    @Override
    public Duration selective(String queue, long count, int size, boolean tagged) throws Exception {
        String topic = topic(queue, asyncFlushNameServer);
        SelectorData data = new SelectorData(count);
        DefaultMQProducer p = producer(asyncFlushNameServer);
        try {
            byte[] body = new byte[size];
            Window window = new Window(ASYNC_WINDOW);
            for (long i = 0; i < count; i++) {
                Message m = new Message(topic, data.color(i), body);
                m.putUserProperty("n", Long.toString(data.n(i)));
                window.acquire();
                p.send(m, window);
            }
            window.awaitAll(topic);
        } finally {
            p.shutdown();
        }
        long expected = data.matches(tagged);
        long start = System.nanoTime();
        DefaultLitePullConsumer c = tagged ? assigned(asyncFlushNameServer, group(), topic, "red", 0, 1)
                : consumer(asyncFlushNameServer, group());
        try {
            if (!tagged) {
                c.subscribe(topic, MessageSelector.bySql(data.untagged()));
                c.start();
            }
            long got = 0;
            long lastProgress = System.nanoTime();
            while (got < expected) {
                List<MessageExt> batch = c.poll(100);
                if (!batch.isEmpty()) {
                    got += batch.size();
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > Progress.STALL_NANOS) {
                    throw new IllegalStateException("filtered consumer of " + topic + " stalled after " + got
                            + " of " + expected);
                }
            }
            return Duration.ofNanos(System.nanoTime() - start);
        } finally {
            c.shutdown();
        }
    }

    /**
     * Every subscriber a consumer group of its own, assigned the topic's queues from their start
     * and polled by a thread of its own from the open on; a consumer group keeps its offsets on
     * the broker, so every subscriber is durable. Persistent messages (durable) go to the
     * SYNC_FLUSH broker, the others to the ASYNC_FLUSH one.
     */
    @Override
    public FanOut openFanOut(String topic, int subscribers, boolean durable) throws Exception {
        String nameServer = durable ? syncFlushNameServer : asyncFlushNameServer;
        RocketMqFanOut f = new RocketMqFanOut(topic(topic, nameServer), subscribers);
        try {
            f.producer = producer(nameServer);
            for (int i = 0; i < subscribers; i++) {
                f.group.add(assigned(nameServer, group(), f.name, "*", 0, 1));
            }
            for (DefaultLitePullConsumer c : f.group) {
                Thread t = new Thread(() -> f.read(c), "rocketmq-fan-out");
                f.readers.add(t);
                t.start();
            }
            return f;
        } catch (Exception | Error e) {
            f.close();
            throw e;
        }
    }

    /** {@link #openFanOut}'s subscribers, their reader threads and the producer. */
    private static final class RocketMqFanOut implements FanOut {
        private final String name;
        private final int subscribers;
        private final AtomicLong delivered = new AtomicLong();
        private final AtomicReference<Exception> failure = new AtomicReference<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<DefaultLitePullConsumer> group = new ArrayList<>();
        private final List<Thread> readers = new ArrayList<>();
        private DefaultMQProducer producer;

        RocketMqFanOut(String name, int subscribers) {
            this.name = name;
            this.subscribers = subscribers;
        }

        void read(DefaultLitePullConsumer c) {
            try {
                while (running.get()) {
                    delivered.addAndGet(c.poll(100).size());
                }
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            }
        }

        @Override
        public Rate send(long count, int size) throws Exception {
            long target = delivered.get() + count * subscribers;
            byte[] body = new byte[size];
            Window window = new Window(ASYNC_WINDOW);
            long start = System.nanoTime();
            for (long i = 0; i < count; i++) {
                window.acquire();
                producer.send(new Message(name, body), window);
            }
            window.awaitAll(name);
            Progress.awaitCount(delivered, target, "fan-out on " + name);
            if (failure.get() != null) {
                throw failure.get();
            }
            return new Rate(count * subscribers, System.nanoTime() - start);
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            for (Thread t : readers) {
                t.join(5_000);
            }
            for (DefaultLitePullConsumer c : group) {
                c.shutdown();
            }
            if (producer != null) {
                producer.shutdown();
            }
        }
    }

    /** Shuts down the producers that created topics; every call shuts down the other clients it started. */
    @Override
    public void close() {
        admins.values().forEach(DefaultMQProducer::shutdown);
        admins.clear();
    }

    /** A valid topic name for a benchmark destination, created on the broker behind the NameServer. */
    /**
     * RocketMQ's ordered messages: the producer picks the queue by a hash of the group key
     * ({@code MessageQueueSelector}), and each of {@code consumers} consumers of one group reads its
     * own queues in order: the one-consumer-per-queue of an orderly consumer, assigned up front, so
     * no rebalance or broker queue lock stalls the start (with {@code MessageListenerOrderly} push
     * consumers started one after the other, a moved queue waited for its lock past the stall limit).
     */
    @Override
    public Rate manyDestinations(String prefix, int count, int size) throws NotApplicableException {
        throw new NotApplicableException("not run: each of 10,000 topics needs its route created by the broker's"
                + " topic auto-creation, a JMS-free scenario this harness does not drive yet");
    }

    @Override
    public Histogram temporaryQueues(int count) throws NotApplicableException {
        throw new NotApplicableException("RocketMQ has no temporary queues");
    }

    @Override
    public Rate orderedGroups(String queue, int groupCount, long perGroup, int size, int consumerCount)
            throws Exception {
        String topic = topic(queue, syncFlushNameServer);
        MessageQueueSelector byKey = (queues, message, key) -> queues.get(Math.floorMod(key.hashCode(), queues.size()));
        // ordered messages are sent synchronously (asynchronous sends of one key may be stored out of
        // order); the groups are shared out over a few producer threads, each sending its own in order
        Parallel.run(ORDERED_PRODUCERS, index -> {
            DefaultMQProducer p = producer(syncFlushNameServer);
            byte[] body = new byte[size];
            return Parallel.Worker.of(p::shutdown, () -> {
                long sent = 0;
                for (int seq = 1; seq <= perGroup; seq++) {
                    for (int g = index; g < groupCount; g += ORDERED_PRODUCERS) {
                        Message m = new Message(topic, body);
                        m.setKeys("group-" + g);
                        m.putUserProperty("seq", Integer.toString(seq));
                        check(p.send(m, byKey, "group-" + g));
                        sent++;
                    }
                }
                return sent;
            });
        });
        GroupOrder order = new GroupOrder();
        long total = groupCount * perGroup;
        Rate rate = Parallel.run(consumerCount, index -> {
            // a group each: consumers of one group cannot share this JVM's client instance
            DefaultLitePullConsumer c = assigned(syncFlushNameServer, group(), topic, "*", index, consumerCount);
            return Parallel.Worker.of(c::shutdown, () -> {
                long lastProgress = System.nanoTime();
                while (order.delivered().get() < total) {
                    List<MessageExt> batch = c.poll(100);
                    for (MessageExt m : batch) {
                        order.seen(m.getKeys(), Integer.parseInt(m.getUserProperty("seq")));
                    }
                    if (!batch.isEmpty()) {
                        lastProgress = System.nanoTime();
                    } else if (System.nanoTime() - lastProgress > Progress.STALL_NANOS) {
                        throw new IllegalStateException("ordered groups on " + topic + " stalled after "
                                + order.delivered().get() + " of " + total);
                    }
                }
                return 0;
            });
        });
        order.check(topic + " (" + order.repeats() + " repeated)");
        return new Rate(total, rate.nanos());
    }

    private String topic(String destination, String nameServer) throws MQClientException {
        return topic(destination, nameServer, QUEUES);
    }

    /**
     * The topic for {@code destination}, created with {@code queues} queues on first use: a
     * queue serves at most one consumer of a group, so a topic that {@code n} consumers drain
     * together needs at least {@code n} queues, as a RocketMQ user sizes it.
     */
    private String topic(String destination, String nameServer, int queues) throws MQClientException {
        String topic = "bench_" + destination.replaceAll("[^A-Za-z0-9_-]", "_");
        if (topicNameServer.putIfAbsent(topic, nameServer) == null) {
            DefaultMQProducer admin = admins.get(nameServer);
            if (admin == null) {
                admin = producer(nameServer);
                admins.put(nameServer, admin);
            }
            admin.createTopic(TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC, topic, queues, Map.of());
        }
        return topic;
    }

    private String existing(String destination) {
        String topic = "bench_" + destination.replaceAll("[^A-Za-z0-9_-]", "_");
        if (!topicNameServer.containsKey(topic)) {
            throw new IllegalArgumentException("nothing was sent to " + destination);
        }
        return topic;
    }

    private String group() {
        return "bench_group_" + groups.incrementAndGet();
    }

    /**
     * One client instance (RocketMQ's connection pool and service threads) per NameServer, shared
     * by every producer and consumer of this object: the topic-creating producer keeps it alive,
     * so a client that shuts down does not take seconds stopping threads.
     */
    private static String instance(String nameServer) {
        return "bench_" + nameServer.replaceAll("[^A-Za-z0-9]", "_");
    }

    private DefaultMQProducer producer(String nameServer) throws MQClientException {
        DefaultMQProducer p = new DefaultMQProducer(group());
        p.setNamesrvAddr(nameServer);
        p.setInstanceName(instance(nameServer));
        p.setVipChannelEnabled(false);
        p.setSendMsgTimeout(10_000);
        p.start();
        return p;
    }

    private DefaultLitePullConsumer consumer(String nameServer, String group) {
        DefaultLitePullConsumer c = new DefaultLitePullConsumer(group);
        c.setNamesrvAddr(nameServer);
        c.setInstanceName(instance(nameServer));
        c.setVipChannelEnabled(false);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        c.setAutoCommit(true);
        c.setPullBatchSize(PULL_BATCH);
        return c;
    }

    /**
     * A started consumer of group {@code group} reading, with tag expression {@code tags}, the
     * queues of {@code topic} whose index modulo {@code of} is {@code index}: assigned directly,
     * so no rebalance delays its start (the SQL92 filter needs a subscription, so it does not
     * come this way).
     */
    private DefaultLitePullConsumer assigned(String nameServer, String group, String topic, String tags, int index,
                                             int of) throws MQClientException {
        DefaultLitePullConsumer c = consumer(nameServer, group);
        c.setSubExpressionForAssign(topic, tags);
        c.start();
        c.assign(share(c, topic, index, of));
        return c;
    }

    /** The queues of {@code topic} whose index modulo {@code of} is {@code index}. */
    private static List<MessageQueue> share(DefaultLitePullConsumer c, String topic, int index, int of)
            throws MQClientException {
        List<MessageQueue> mine = new ArrayList<>();
        for (MessageQueue q : c.fetchMessageQueues(topic)) {
            if (q.getQueueId() % of == index) {
                mine.add(q);
            }
        }
        return mine;
    }

    private static void check(SendResult r) {
        if (r.getSendStatus() != SendStatus.SEND_OK) {
            throw new IllegalStateException("send ended " + r.getSendStatus());
        }
    }

    /** {@link SendSlots} as a send callback. */
    private static final class Window implements SendCallback {
        private final SendSlots slots;

        Window(int size) {
            this.slots = new SendSlots(size);
        }

        void acquire() throws Exception {
            slots.acquire();
        }

        void awaitAll(String what) throws Exception {
            slots.awaitAll(what);
        }

        @Override
        public void onSuccess(SendResult result) {
            if (result.getSendStatus() == SendStatus.SEND_OK) {
                slots.confirmed();
            } else {
                slots.failed(new IllegalStateException("send ended " + result.getSendStatus()));
            }
        }

        @Override
        public void onException(Throwable e) {
            slots.failed(e);
        }
    }
}
