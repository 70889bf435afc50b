package io.ramjet.provider.jms;

import io.ramjet.provider.client.BrokerClient;
import io.ramjet.provider.client.FailoverRamjetClient;
import io.ramjet.provider.client.RemotingRamjetClient;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real remoting client with a count of what goes to the brokers: the number of messages
 * named by each ACK request, and how many PULL requests are unanswered at most at one time.
 * Every call is passed on unchanged.
 */
final class CountingBrokerClient {

    /** Per ACK request, how many messages it named, in the order they were sent. */
    final List<Integer> acks = new CopyOnWriteArrayList<>();
    /** Per PULL request, how many messages it asked for. */
    final List<Integer> pulls = new CopyOnWriteArrayList<>();
    private final AtomicInteger pullsOut = new AtomicInteger();
    private final AtomicInteger mostPullsOut = new AtomicInteger();

    /** A factory whose connections go through this count; {@code options} "" or starting with '?'. */
    RamjetConnectionFactory factory(String nameServer, String options) {
        RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + nameServer + options);
        factory.setClientFactory(info -> new FailoverRamjetClient(counted(new RemotingRamjetClient(info)), info));
        return factory;
    }

    int mostPullsOut() {
        return mostPullsOut.get();
    }

    private BrokerClient counted(BrokerClient real) {
        return (BrokerClient) Proxy.newProxyInstance(BrokerClient.class.getClassLoader(),
                new Class<?>[] {BrokerClient.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "ack", "lazyAck" -> acks.add(((List<?>) args[1]).size());
                        case "pull" -> pulls.add((Integer) args[1]);
                        default -> { }
                    }
                    boolean pull = method.getName().equals("pull");
                    if (pull) {
                        mostPullsOut.accumulateAndGet(pullsOut.incrementAndGet(), Math::max);
                    }
                    Object result;
                    try {
                        result = method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (pull) {
                        ((CompletableFuture<?>) result).whenComplete((done, failure) -> pullsOut.decrementAndGet());
                    }
                    return result;
                });
    }
}
