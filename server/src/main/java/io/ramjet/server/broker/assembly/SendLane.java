package io.ramjet.server.broker.assembly;

import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.protocol.remoting.RequestExecutor;
import io.ramjet.storage.AppendLane;

/**
 * Where a SEND (and a counted commit, which must follow its connection's sends) runs: the store's
 * {@link AppendLane} decides, on the connection's I/O thread or on the lane's own thread, and
 * forces for it once that thread has processed the reads at hand (group commit by batch, no
 * thread hand-off on the path of a synchronous send). The store's {@code DurabilityPipeline}
 * states the rules. Thread-safe.
 */
final class SendLane implements RequestExecutor {

    private final AppendLane lane;

    SendLane(AppendLane lane) {
        this.lane = lane;
    }

    @Override
    public void execute(RemotingConnection connection, Runnable processing) {
        lane.execute(processing, connection::afterReads);
    }
}
