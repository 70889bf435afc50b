package io.ramjet.server.broker.security;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.SubscribeRequest;
import io.ramjet.server.broker.Broker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Temporary destinations are named by the broker in their own namespace ({@code TMP.}):
 * {@code eve} cannot make one under a permanent or dead-letter name, nobody can make a permanent
 * one in that namespace, only the owner consumes one, and the README's rules let the owner use
 * it for request/reply.
 */
class TemporaryDestinationAttackTest {

    @TempDir
    Path dir;

    private SecuredDeployment deployment;
    private Broker broker;

    @BeforeEach
    void start() throws Exception {
        deployment = new SecuredDeployment(dir);
        broker = deployment.start();
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    private AttackClient connect(String user) throws Exception {
        return new AttackClient(deployment, broker.address(), user);
    }

    private static String createTemporary(AttackClient client, String asked) throws Exception {
        return client.invoke(CommandCode.CREATE_DESTINATION,
                new CreateDestinationRequest(asked, DestinationKind.QUEUE, 1, true)).header(DestinationInfo.class).name();
    }

    @Test
    void aTemporaryQueueCannotTakeAPermanentOrDeadLetterName() throws Exception {
        try (AttackClient eve = connect("eve")) {
            for (String asked : List.of("orders.eu", "DLQ.orders.new", "ramjet.check")) {
                String named = createTemporary(eve, asked);
                assertTrue(named.startsWith("TMP."), asked + " was named " + named);
            }
        }
        try (AttackClient alice = connect("alice")) {
            alice.refusedSend("orders.eu", "order for a queue that does not exist");
        }
    }

    @Test
    void noPermanentDestinationTakesTheTemporaryNamespace() throws Exception {
        try (AttackClient ops = connect("ops")) {
            assertEquals(ErrorStatus.UNKNOWN_DESTINATION, ops.refused(CommandCode.CREATE_DESTINATION,
                    new CreateDestinationRequest("TMP.0000000000000001.1", DestinationKind.QUEUE, 1)).status());
        }
    }

    @Test
    void theOwnerUsesItsTemporaryQueueForRequestReplyAndNobodyElseReadsIt() throws Exception {
        try (AttackClient bob = connect("bob"); AttackClient alice = connect("alice"); AttackClient eve = connect("eve")) {
            String replyTo = createTemporary(bob, "TMP.bob.1");
            alice.send(replyTo, "the reply", 0);
            eve.refused(CommandCode.SUBSCRIBE, new SubscribeRequest(SubscriptionRef.queue(replyTo), null, false, 9));
            bob.subscribe(SubscriptionRef.queue(replyTo), 1);
            assertEquals(List.of("the reply"), bob.pull(SubscriptionRef.queue(replyTo), 1, 5_000));
        }
    }
}
