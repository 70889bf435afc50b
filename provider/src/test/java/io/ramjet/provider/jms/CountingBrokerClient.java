package io.ramjet.provider.jms;

import io.ramjet.provider.client.BrokerClient;
import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.FailoverRamjetClient;
import io.ramjet.provider.client.RemotingRamjetClient;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real remoting client with a count of what goes to the brokers: the number of messages
 * named by each ACK and each RELEASE request, and how many PULL requests are unanswered at most
 * at one time.
 * Every call is passed on unchanged; pull answers can be handed back a fixed delay late, as from
 * a broker further away, and releases sent a fixed delay late, as by a busy connection. The
 * answers of pulls that brought messages can be lost ({@link #losePullAnswers}): the consumer
 * sees the request time out while the broker has handed it the messages.
 */
final class CountingBrokerClient {

    /** Per ACK request, how many messages it named, in the order they were sent. */
    final List<Integer> acks = new CopyOnWriteArrayList<>();
    /** The thread that sent each of {@link #acks}. */
    final List<String> ackThreads = new CopyOnWriteArrayList<>();
    /** Per RELEASE request, how many messages it named, in the order they were sent. */
    final List<Integer> releases = new CopyOnWriteArrayList<>();
    /** Per PULL request, how many messages it asked for. */
    final List<Integer> pulls = new CopyOnWriteArrayList<>();
    private final AtomicInteger pullsOut = new AtomicInteger();
    private final AtomicInteger releasesOut = new AtomicInteger();
    private final AtomicInteger mostPullsOut = new AtomicInteger();
    private final AtomicInteger consumersClosed = new AtomicInteger();
    private final CompletableFuture<Void> firstConsumerClosed = new CompletableFuture<>();
    private final long pullAnswerDelayMillis;
    private final long releaseDelayMillis;
    private final AtomicInteger pullAnswersToLose = new AtomicInteger();
    private final AtomicInteger acksToLose = new AtomicInteger();
    private volatile long ackDelayMillis;
    private final AtomicInteger acksToDelay = new AtomicInteger();

    CountingBrokerClient() {
        this(0, 0);
    }

    /**
     * @param pullAnswerDelayMillis how late each pull's answer is handed to the consumer
     * @param releaseDelayMillis    how late each release is sent
     */
    CountingBrokerClient(long pullAnswerDelayMillis, long releaseDelayMillis) {
        this.pullAnswerDelayMillis = pullAnswerDelayMillis;
        this.releaseDelayMillis = releaseDelayMillis;
    }

    /** A factory whose connections go through this count; {@code options} "" or starting with '?'. */
    RamjetConnectionFactory factory(String nameServer, String options) {
        RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + nameServer + options);
        factory.setClientFactory(info -> new FailoverRamjetClient(counted(new RemotingRamjetClient(info)), info));
        return factory;
    }

    /** The next {@code count} pull answers that bring messages come to the consumer as timeouts instead. */
    CountingBrokerClient losePullAnswers(int count) {
        pullAnswersToLose.set(count);
        return this;
    }

    /** The next {@code count} ACK requests never reach the broker: each fails as a request without an answer. */
    CountingBrokerClient loseAcks(int count) {
        acksToLose.set(count);
        return this;
    }

    /** The next {@code count} ACK requests go to the broker {@code millis} late, as on a connection stalled meanwhile. */
    CountingBrokerClient delayAcks(long millis, int count) {
        ackDelayMillis = millis;
        acksToDelay.set(count);
        return this;
    }

    /** Completes once the broker has answered a first CLOSE_CONSUMER request. */
    CompletableFuture<Void> firstConsumerClosed() {
        return firstConsumerClosed;
    }

    /** CLOSE_CONSUMER requests the broker has answered. */
    int consumersClosed() {
        return consumersClosed.get();
    }

    int mostPullsOut() {
        return mostPullsOut.get();
    }

    /** PULL requests unanswered now. */
    int pullsOut() {
        return pullsOut.get();
    }

    /** RELEASE requests unanswered now. */
    int releasesOut() {
        return releasesOut.get();
    }

    private BrokerClient counted(BrokerClient real) {
        return (BrokerClient) Proxy.newProxyInstance(BrokerClient.class.getClassLoader(),
                new Class<?>[] {BrokerClient.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "ack", "lazyAck" -> {
                            ackThreads.add(Thread.currentThread().getName());
                            acks.add(((List<?>) args[1]).size());
                        }
                        case "pull" -> pulls.add((Integer) args[1]);
                        default -> { }
                    }
                    boolean pull = method.getName().equals("pull");
                    if (pull) {
                        mostPullsOut.accumulateAndGet(pullsOut.incrementAndGet(), Math::max);
                    }
                    if (method.getName().equals("ack") || method.getName().equals("lazyAck")) {
                        if (acksToLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                            return CompletableFuture.failedFuture(new ClientException(ClientException.Reason.TIMEOUT,
                                    ClientException.Outcome.OUTCOME_UNKNOWN, "injected: the ack's answer was lost", null));
                        }
                        if (acksToDelay.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                            return CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(
                                    ackDelayMillis, TimeUnit.MILLISECONDS)).thenCompose(late -> call(real, method, args));
                        }
                    }
                    if (method.getName().equals("release")) {
                        releases.add(((List<?>) args[1]).size());
                        releasesOut.incrementAndGet();
                        CompletableFuture<?> released = releaseDelayMillis == 0 ? call(real, method, args)
                                : CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(
                                        releaseDelayMillis, TimeUnit.MILLISECONDS)).thenCompose(late -> call(real, method, args));
                        return released.whenComplete((done, failure) -> releasesOut.decrementAndGet());
                    }
                    Object result;
                    try {
                        result = method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("closeConsumer")) {
                        result = ((CompletableFuture<?>) result).whenComplete((done, failure) -> {
                            consumersClosed.incrementAndGet();
                            firstConsumerClosed.complete(null);
                        });
                    }
                    if (pull) {
                        CompletableFuture<?> answer = ((CompletableFuture<?>) result).thenCompose(this::lostOrNot);
                        if (pullAnswerDelayMillis > 0) {
                            answer = answer.thenApplyAsync(done -> done, CompletableFuture.delayedExecutor(
                                    pullAnswerDelayMillis, TimeUnit.MILLISECONDS));
                        }
                        result = answer.whenComplete((done, failure) -> pullsOut.decrementAndGet());
                    }
                    return result;
                });
    }

    private CompletableFuture<?> lostOrNot(Object deliveries) {
        if (((List<?>) deliveries).isEmpty() || pullAnswersToLose.getAndUpdate(n -> Math.max(0, n - 1)) == 0) {
            return CompletableFuture.completedFuture(deliveries);
        }
        return CompletableFuture.failedFuture(new ClientException(ClientException.Reason.TIMEOUT,
                ClientException.Outcome.OUTCOME_UNKNOWN, "injected: the pull's answer was lost", null));
    }

    private static CompletableFuture<?> call(BrokerClient real, Method method, Object[] args) {
        try {
            return (CompletableFuture<?>) method.invoke(real, args);
        } catch (InvocationTargetException e) {
            return CompletableFuture.failedFuture(e.getCause());
        } catch (IllegalAccessException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
