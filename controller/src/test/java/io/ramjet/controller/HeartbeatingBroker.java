package io.ramjet.controller;

import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** A stand-in for a broker's heartbeat loop: reports {@code maxOffset} every {@code periodMillis} until closed. */
final class HeartbeatingBroker implements AutoCloseable {

    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();

    HeartbeatingBroker(ControllerClient client, String brokerName, long brokerId, long maxOffset, long periodMillis) {
        loop.scheduleWithFixedDelay(() -> {
            try {
                client.heartbeat(brokerName, brokerId, maxOffset);
            } catch (IOException | RuntimeException e) {
                // the controller group may be between leaders; the next beat tries again
            }
        }, 0, periodMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        loop.shutdownNow();
        loop.awaitTermination(10, TimeUnit.SECONDS);
    }
}
