package io.ramjet.provider.jms.transaction;

import io.ramjet.model.MessagePosition;
import io.ramjet.provider.client.ConsumedMessages;
import io.ramjet.provider.client.ConsumerInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The work of one transaction so far: the brokers it touched, in the order it first touched
 * them (the first is the coordinator), the messages it consumed from each, by subscription, and
 * its sends still in flight, and how many sends it handed to each broker's connection. Thread-safe:
 * sends complete on I/O threads while the session works.
 */
public final class TransactionWork {

    private final Set<String> brokers = new LinkedHashSet<>();
    private final Map<String, Map<ConsumerInfo, List<MessagePosition>>> consumed = new LinkedHashMap<>();
    private final SendWindow sends;
    private final Map<String, Integer> handedTo = new LinkedHashMap<>();
    private int unsettled;
    private boolean lostBeforeHandoff;
    private final List<ConsumedMessages> leftUnsettled = new ArrayList<>();

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

    /**
     * A send of the transaction begins: the returned {@code touching} is told the broker's address
     * once the message is handed to that broker's connection, so a commit sent there later goes
     * behind it. Pass it to {@link #sending(CompletableFuture, Handoff)} with the send's answer.
     */
    public synchronized Handoff sendBegins() {
        unsettled++;
        return new Handoff();
    }

    /** As {@link #sending(CompletableFuture)}, for a send begun by {@link #sendBegins()}. */
    public void sending(CompletableFuture<Void> send, Handoff handoff) {
        send.whenComplete((ok, failed) -> handoff.settled());
        sending(send);
    }

    /**
     * Waits until every send begun was handed to a broker or answered; then whether the
     * transaction's commit may go to its one broker right behind its sends, counting them
     * ({@link #handedTo}): it touched one broker only, and no send has failed so far.
     */
    public boolean awaitHandoffs() {
        synchronized (this) {
            while (unsettled > 0) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            if (lostBeforeHandoff || brokers.size() != 1) {
                return false;
            }
        }
        return sends.failure() == null;
    }

    /** How many sends of the transaction were handed to this broker's connection. */
    public synchronized int handedTo(String brokerAddress) {
        return handedTo.getOrDefault(brokerAddress, 0);
    }

    /** One send's way to its broker's connection: the send's {@code touching}. */
    public final class Handoff implements Consumer<String> {
        private boolean handed;
        private boolean settled;

        private Handoff() {
        }

        @Override
        public void accept(String brokerAddress) {
            synchronized (TransactionWork.this) {
                brokers.add(brokerAddress);
                if (!handed && !settled) {
                    handed = true;
                    handedTo.merge(brokerAddress, 1, Integer::sum);
                    unsettled--;
                    TransactionWork.this.notifyAll();
                }
            }
        }

        /** The answer came: a send never handed to a broker failed before reaching one. */
        void settled() {
            synchronized (TransactionWork.this) {
                if (!handed && !settled) {
                    lostBeforeHandoff = true;
                    unsettled--;
                    TransactionWork.this.notifyAll();
                }
                settled = true;
            }
        }
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

    /**
     * The transaction ended without its brokers confirming what became of these consumed
     * messages (a rollback or release they did not answer, a commit whose outcome is unknown):
     * the application saw them, so its session must keep them as delivered, never give them back
     * as unseen.
     */
    public synchronized void leftUnsettled(List<ConsumedMessages> messages) {
        leftUnsettled.addAll(messages);
    }

    /** What {@link #leftUnsettled} recorded, in the order recorded. */
    public synchronized List<ConsumedMessages> leftUnsettled() {
        return List.copyOf(leftUnsettled);
    }

    public synchronized boolean isEmpty() {
        return brokers.isEmpty();
    }
}
