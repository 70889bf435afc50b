package io.ramjet.server.broker.processor;

import io.ramjet.model.MessagePosition;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.protocol.command.AckRequest;
import io.ramjet.server.broker.subscription.Delivery;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;
import io.ramjet.server.broker.transaction.AckGroup;

import java.util.ArrayList;
import java.util.List;

/**
 * Translates the wire's {@link SubscriptionRef} into the broker's {@link SubscriptionKey}, and a
 * transaction's acknowledgements into the {@link AckGroup}s the transaction domain takes.
 */
final class SubscriptionRefs {

    private SubscriptionRefs() {
    }

    static SubscriptionKey keyOf(SubscriptionRef ref) {
        return new SubscriptionKey(ref.destination(), SubscriptionKind.valueOf(ref.type().name()), ref.clientId(),
                ref.name());
    }

    /** What a TX_PREPARE, TX_END or TX_COMMIT_COUNTED says the transaction consumed. */
    static List<AckGroup> ackGroups(List<AckRequest> acks) {
        List<AckGroup> groups = new ArrayList<>(acks.size());
        for (AckRequest ack : acks) {
            List<Delivery> positions = new ArrayList<>(ack.messages().size());
            for (MessagePosition p : ack.messages()) {
                positions.add(new Delivery(p.queueId(), p.queueOffset(), 0));
            }
            groups.add(new AckGroup(keyOf(ack.subscription()), ack.consumerId(), positions));
        }
        return groups;
    }
}
