package io.ramjet.provider.jms.transaction;

import io.ramjet.protocol.command.MessagePosition;
import io.ramjet.provider.client.ConsumedMessages;
import io.ramjet.provider.client.ConsumerInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The work of one transaction so far: the brokers it touched, in the order it first touched
 * them (the first is the coordinator), the messages it consumed from each, by subscription, and
 * its sends still in flight. Thread-safe: sends complete on I/O threads while the session works.
 */
public final class TransactionWork {

    private final Set<String> brokers = new LinkedHashSet<>();
    private final Map<String, Map<ConsumerInfo, List<MessagePosition>>> consumed = new LinkedHashMap<>();
    private final SendWindow sends;

    /** @param sendsInFlight sends that may await their answers at once; the next waits for the oldest */
    public TransactionWork(int sendsInFlight) {
        this.sends = new SendWindow(sendsInFlight);
    }

    /** A message of the transaction is about to be written to this broker. */
    public synchronized void touch(String brokerAddress) {
        brokers.add(brokerAddress);
    }

    /**
     * The transaction consumed a message delivered through {@code attachment}; its
     * acknowledgement waits for the commit.
     */
    public synchronized void consumed(ConsumerInfo attachment, MessagePosition position) {
        brokers.add(attachment.brokerAddress());
        consumed.computeIfAbsent(attachment.brokerAddress(), b -> new LinkedHashMap<>())
                .computeIfAbsent(attachment, a -> new ArrayList<>()).add(position);
    }

    /** What the transaction consumed through {@code attachment}. */
    public synchronized List<MessagePosition> consumedFrom(ConsumerInfo attachment) {
        return List.copyOf(consumed.getOrDefault(attachment.brokerAddress(), Map.of())
                .getOrDefault(attachment, List.of()));
    }

    /**
     * A send of the transaction; the transaction ends only after it completes. Waits while
     * {@code sendsInFlight} earlier sends are still unanswered.
     */
    public void sending(CompletableFuture<Void> send) {
        sends.add(send);
    }

    /** Waits for every send; the first failure (then the transaction must not commit), or null. */
    public Throwable awaitSends() {
        return sends.awaitAll();
    }

    public synchronized List<String> brokers() {
        return List.copyOf(brokers);
    }

    /** The acknowledgements waiting on one broker. */
    public synchronized List<ConsumedMessages> acks(String brokerAddress) {
        List<ConsumedMessages> acks = new ArrayList<>();
        consumed.getOrDefault(brokerAddress, Map.of()).forEach((attachment, positions) ->
                acks.add(new ConsumedMessages(attachment, positions)));
        return acks;
    }

    public synchronized boolean isEmpty() {
        return brokers.isEmpty();
    }
}
