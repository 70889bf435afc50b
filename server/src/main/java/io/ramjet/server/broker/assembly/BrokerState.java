package io.ramjet.server.broker.assembly;

import io.ramjet.server.broker.delivery.DiscardCounts;
import io.ramjet.server.broker.delivery.HeldPulls;
import io.ramjet.server.broker.destination.DestinationTable;
import io.ramjet.server.broker.idempotence.ProducerTable;
import io.ramjet.server.broker.large.OpenUploads;
import io.ramjet.server.broker.log.DeliveryMarks;
import io.ramjet.server.broker.log.NonPersistentHorizon;
import io.ramjet.server.broker.processor.ProducingConnections;
import io.ramjet.server.broker.subscription.SubscriptionTable;
import io.ramjet.server.broker.timer.DelayedMessages;
import io.ramjet.server.broker.transaction.Transactions;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the broker holds in memory beside its store, made before the store opens (its recovery
 * fills them): the tables, the held pulls, the delayed messages, the transactions and the counts.
 *
 * @param recordsReadForDelivery CommitLog records pulls have read since start
 * @param producers the idempotent producers' duplicate table
 * @param uploads large sends whose chunks are written and whose SEND has not come
 */
public record BrokerState(DestinationTable destinations, SubscriptionTable subscriptions, HeldPulls heldPulls,
                   DelayedMessages delayed, DeliveryMarks marks, NonPersistentHorizon horizon,
                   LongAdder recordsReadForDelivery, DiscardCounts discards, ProducingConnections producing,
                   Transactions transactions, ProducerTable producers, OpenUploads uploads) {
}
