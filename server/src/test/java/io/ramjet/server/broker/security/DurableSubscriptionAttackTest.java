package io.ramjet.server.broker.security;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.SubscriptionType;
import io.ramjet.protocol.command.ClaimClientIdRequest;
import io.ramjet.protocol.command.CloseConsumerRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.SubscribeRequest;
import io.ramjet.server.broker.Broker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A durable (or shared) subscription named under a client id is attached only over the
 * connection holding that client id: {@code carol}, who may consume the topic, cannot drain
 * {@code bob}'s subscription by sending SUBSCRIBE for it.
 */
class DurableSubscriptionAttackTest {

    private static final SubscriptionRef BOBS = new SubscriptionRef("orders.billing", SubscriptionType.DURABLE,
            "billing2", "sub2");
    private static final SubscriptionRef BOBS_SHARED = new SubscriptionRef("orders.billing",
            SubscriptionType.SHARED_DURABLE, "billing2", "sub3");

    @TempDir
    Path dir;

    @Test
    void anotherConnectionCannotAttachToADurableSubscriptionOfAClientIdItDoesNotHold() throws Exception {
        SecuredDeployment deployment = new SecuredDeployment(dir);
        try (Broker broker = deployment.start();
             AttackClient bob = new AttackClient(deployment, broker.address(), "bob");
             AttackClient carol = new AttackClient(deployment, broker.address(), "carol");
             AttackClient alice = new AttackClient(deployment, broker.address(), "alice")) {
            bob.invoke(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.claim("billing2"));
            bob.subscribe(BOBS, 1);
            bob.subscribe(BOBS_SHARED, 2);
            bob.invoke(CommandCode.CLOSE_CONSUMER, new CloseConsumerRequest(1, BOBS, List.of()));
            bob.invoke(CommandCode.CLOSE_CONSUMER, new CloseConsumerRequest(2, BOBS_SHARED, List.of()));
            alice.send("orders.billing", DestinationKind.TOPIC, "invoice 1", 0);

            for (SubscriptionRef subscription : List.of(BOBS, BOBS_SHARED)) {
                assertEquals(ErrorStatus.NOT_AUTHORIZED, carol.refused(CommandCode.SUBSCRIBE,
                        new SubscribeRequest(subscription, null, false, 7)).status(),
                        "carol attaches to " + subscription.name());
            }
            bob.subscribe(BOBS, 3);
            assertEquals(List.of("invoice 1"), bob.pull(BOBS, 3, 5_000), "bob's subscription kept its message");
        }
    }
}
