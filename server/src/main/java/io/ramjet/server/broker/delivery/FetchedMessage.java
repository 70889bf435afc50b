package io.ramjet.server.broker.delivery;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.server.broker.subscription.Delivery;

/** A message claimed for a consumer: its position and count, and its record in the mapped CommitLog. */
public record FetchedMessage(Delivery delivery, MessageRecordView record) {
}
