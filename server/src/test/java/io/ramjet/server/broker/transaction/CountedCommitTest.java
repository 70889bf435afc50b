package io.ramjet.server.broker.transaction;

import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.transaction.TxClient.Received;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** TX_COMMIT_COUNTED: a commit sent right behind its sends, committing only what it counted. */
class CountedCommitTest {

    @TempDir
    Path dataDir;

    private Broker broker;
    private TxClient client;

    @BeforeEach
    void start() throws Exception {
        broker = TxBrokers.start(dataDir);
        client = new TxClient(broker.address());
    }

    @AfterEach
    void stop() {
        client.close();
        broker.close();
    }

    private static List<String> bodies(List<Received> messages) {
        return messages.stream().map(Received::body).toList();
    }

    @Test
    void aCommitSentBehindUnansweredSendsCommitsThemAll() throws Exception {
        // on an open connection, so that the frames are written in the order they are sent
        client.subscribe("orders", 1);
        List<CompletableFuture<Frame>> sends = new ArrayList<>();
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            sent.add("m" + i);
            sends.add(client.sendBehind("orders", 0, "m" + i, 21, 0));
        }
        client.commitCounted(21, 50);
        for (CompletableFuture<Frame> send : sends) {
            send.get(10, TimeUnit.SECONDS);
        }
        assertEquals(sent, bodies(client.drain("orders", 1, 100)));
    }

    @Test
    void aCommitCountingAMessageTheBrokerDoesNotHoldRollsBack() throws Exception {
        client.send("orders", 0, "a", 22);
        client.send("orders", 0, "b", 22);
        RemotingCommandException refused = assertThrows(RemotingCommandException.class,
                () -> client.commitCounted(22, 3));
        assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, refused.status());
        RemotingCommandException again = assertThrows(RemotingCommandException.class, () -> client.commit(22));
        assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, again.status());
        RemotingCommandException lateSend = assertThrows(RemotingCommandException.class,
                () -> client.send("orders", 0, "c", 22));
        assertEquals(ErrorStatus.TRANSACTION_ROLLED_BACK, lateSend.status());

        client.subscribe("orders", 1);
        assertEquals(List.of(), client.pull("orders", 1, 10, 100));
    }

    @Test
    void aMessageExpiredOnArrivalIsCountedAndNeverDelivered() throws Exception {
        client.send("orders", 0, "expired", 23, 0, System.currentTimeMillis() - 1_000);
        client.send("orders", 0, "live", 23);
        client.commitCounted(23, 2);

        client.subscribe("orders", 1);
        assertEquals(List.of("live"), bodies(client.drain("orders", 1, 100)));
    }

    @Test
    void aRepeatedCountedCommitFindsTheFirstOnesDecision() throws Exception {
        client.send("orders", 0, "once", 24);
        client.commitCounted(24, 1);
        client.commitCounted(24, 1);

        client.subscribe("orders", 1);
        assertEquals(List.of("once"), bodies(client.drain("orders", 1, 100)));
    }
}
