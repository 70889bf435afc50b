package io.ramjet.controller;

import java.io.IOException;
import java.time.Duration;

/** A caller that keeps asking for an election, as an operator or a broker might while its master is gone. */
final class Elections {

    private Elections() {
    }

    /**
     * Elects until {@code oldMaster} is no longer master of {@code brokerName}; returns how many of
     * this caller's elections were the one that replaced it.
     */
    static long untilReplaced(ControllerClient caller, String brokerName, long oldMaster, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long changed = 0;
        while (System.nanoTime() < deadline) {
            try {
                ControllerReply reply = caller.electMaster(brokerName, false);
                if (reply.ok()) {
                    changed++;
                }
                if (reply.info().masterId() != oldMaster) {
                    return changed;
                }
            } catch (IOException e) {
                // no leader within the client's timeout: the group is electing one, ask again
            }
        }
        throw new IllegalStateException("broker " + oldMaster + " still master of " + brokerName + " after " + timeout);
    }
}
