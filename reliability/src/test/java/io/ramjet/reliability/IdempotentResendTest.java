package io.ramjet.reliability;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.provider.client.ConnectionInfo;
import io.ramjet.provider.client.OutgoingMessage;
import io.ramjet.provider.client.ProducerIds;
import io.ramjet.provider.client.RemotingRamjetClient;
import io.ramjet.provider.message.MessageCodec;
import io.ramjet.provider.message.RamjetTextMessage;
import io.ramjet.provider.message.SerializationAllowList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The idempotent producer across {@code kill -9}, at the client seam: one producer's
 * messages go out many at a time, and the broker is killed at a random point (seeded; the seed is
 * printed and {@code -Dreliability.seed=S} replays it) while some are stored but not yet answered,
 * {@value #KILLS} times in a row: after each restart every message is sent again from the first,
 * in order, with its producer id and sequence unchanged, and the next kill may come during those
 * resends. After the last restart they are all sent once more, without a kill. Each must be
 * stored exactly once: the answered ones and those the broker stored without answering are
 * recognised (the table rebuilt by recovery), the rest are stored. Lost and duplicated messages
 * are counted.
 */
class IdempotentResendTest {

    private static final String TEST = "IdempotentResendTest";
    private static final String QUEUE = "rel.idempotent";
    private static final int MESSAGES = 4_000;
    private static final int KILLS = 3;
    private static final int IN_FLIGHT = 200;

    @RegisterExtension
    final Brokers brokers = Brokers.perTest();

    @Test
    void everyMessageSentAgainAfterEachOfSeveralKillsAtRandomIsStoredOnce() throws Exception {
        long seed = Chaos.seed();
        Random random = new Random(seed);
        System.out.println("RELIABILITY " + TEST + ": seed=" + seed + " (replay with -Dreliability.seed=" + seed + ")");
        BrokerProcess broker = brokers.start("idempotent-resend", new Properties());
        long producer = ProducerIds.next();
        List<OutgoingMessage> messages = new ArrayList<>();
        Tally tally = new Tally();
        for (int i = 1; i <= MESSAGES; i++) {
            String id = "m-" + i;
            messages.add(message(id, producer, i));
            tally.sent(id);
        }
        List<String> rounds = new ArrayList<>();
        int failedBeforeKills = 0;
        for (int kill = 0; kill < KILLS; kill++) {
            int killAfter = 1 + random.nextInt(MESSAGES - 1);
            AtomicInteger answered = new AtomicInteger();
            AtomicInteger failed = new AtomicInteger();
            CountDownLatch killNow = new CountDownLatch(1);
            try (RemotingRamjetClient client = client(broker)) {
                Thread killer = new Thread(() -> {
                    try {
                        killNow.await();
                        broker.kill();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "killer");
                killer.start();
                sendAll(client, messages, () -> {
                    if (answered.incrementAndGet() == killAfter) {
                        killNow.countDown();
                    }
                }, failed);
                killNow.countDown();
                killer.join(TimeUnit.SECONDS.toMillis(60));
            }
            broker.restart();
            failedBeforeKills += failed.get();
            rounds.add("kill after " + killAfter + " answers: answered=" + answered.get() + " failed=" + failed.get());
        }
        AtomicInteger resendFailures = new AtomicInteger();
        try (RemotingRamjetClient client = client(broker)) {
            sendAll(client, messages, () -> { }, resendFailures);
        }
        int received = Drain.queue(Jms.factory(broker), QUEUE, tally, Duration.ofSeconds(10), Duration.ofSeconds(90));
        tally.summary(TEST, KILLS, "seed=" + seed + " rounds=" + rounds + " resendFailures=" + resendFailures.get()
                + " received=" + received);
        int failedBefore = failedBeforeKills;
        assertAll(
                () -> assertTrue(failedBefore > 0, "the kills came before every send was answered"),
                () -> assertEquals(0, resendFailures.get(), "resends that failed"),
                () -> assertEquals(0, tally.lost(), "sent, never received " + tally.lostSample(5)),
                () -> assertEquals(0, tally.duplicates(), "received more than once"));
    }

    /** Sends every message in order, {@link #IN_FLIGHT} at a time on one connection, waiting for all. */
    private static void sendAll(RemotingRamjetClient client, List<OutgoingMessage> messages, Runnable onAnswer,
                                AtomicInteger failures) throws InterruptedException {
        List<CompletableFuture<Void>> window = new ArrayList<>();
        for (OutgoingMessage m : messages) {
            window.add(client.send(m, 0, 0, address -> { }).whenComplete((ok, failure) -> {
                if (failure == null) {
                    onAnswer.run();
                } else {
                    failures.incrementAndGet();
                }
            }));
            if (window.size() == IN_FLIGHT) {
                awaitAll(window);
            }
        }
        awaitAll(window);
    }

    private static void awaitAll(List<CompletableFuture<Void>> window) throws InterruptedException {
        for (CompletableFuture<Void> sent : window) {
            try {
                sent.get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // counted by the send's own completion
            }
        }
        window.clear();
    }

    private static OutgoingMessage message(String id, long producer, long sequence) throws Exception {
        RamjetTextMessage m = new RamjetTextMessage("reliability " + id);
        m.setStringProperty(Jms.ID, id);
        return new OutgoingMessage(QUEUE, DestinationKind.QUEUE, true, 0, 0,
                MessagePropertiesCodec.encode(MessageCodec.headersOf(m)), MessageCodec.encode(m).body(), producer,
                sequence);
    }

    private static RemotingRamjetClient client(BrokerProcess broker) {
        return new RemotingRamjetClient(new ConnectionInfo(TEST, List.of(broker.url().substring("ramjet://".length())),
                null, null, Duration.ofSeconds(10), SerializationAllowList.DEFAULT));
    }
}
