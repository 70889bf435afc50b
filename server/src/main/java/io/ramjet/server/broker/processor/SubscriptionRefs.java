package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.SubscriptionRef;
import io.ramjet.server.broker.subscription.SubscriptionKey;
import io.ramjet.server.broker.subscription.SubscriptionKind;

/** Translates the wire's {@link SubscriptionRef} into the broker's {@link SubscriptionKey}. */
final class SubscriptionRefs {

    private SubscriptionRefs() {
    }

    static SubscriptionKey keyOf(SubscriptionRef ref) {
        return new SubscriptionKey(ref.destination(), SubscriptionKind.valueOf(ref.type().name()), ref.clientId(),
                ref.name());
    }

}
