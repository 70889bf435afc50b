package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.protocol.remoting.RequestGate;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.replication.MasterLease;
import java.util.HashSet;
import java.util.Set;

/**
 * Fencing: while the master's {@link MasterLease} is not held, the commands a slave
 * refuses are refused as NOT_MASTER, so clients go to the master the controllers elect instead;
 * its slaves' handshakes and fetches are still served. Other requests pass on to the next gate.
 * An idempotent producer's send refused so keeps that producer's later sends on the connection
 * out, lease or not, until it is sent again ({@link RefusedSequences}). Register the gate as a
 * connection listener too. Thread-safe.
 */
public final class LeaseGate implements RequestGate, ConnectionListener {

    private final RequestGate next;
    private final MasterLease lease;
    private final Set<Short> fenced = new HashSet<>();
    private final String brokerName;
    private final RefusedSequences refusedSends = new RefusedSequences();

    public LeaseGate(RequestGate next, MasterLease lease, short[] slaveRefused, String brokerName) {
        this.next = next;
        this.lease = lease;
        for (short code : slaveRefused) {
            fenced.add(code);
        }
        fenced.remove(CommandCode.REPLICA_HANDSHAKE);
        fenced.remove(CommandCode.REPLICA_FETCH);
        this.brokerName = brokerName;
    }

    @Override
    public void admit(RemotingConnection connection, Frame request) throws RemotingCommandException {
        SendRequest send = request.code() == CommandCode.SEND && request.header() instanceof SendRequest s ? s : null;
        if (fenced.contains(request.code()) && !lease.held()) {
            if (send != null) {
                refusedSends.refused(connection, send);
            }
            throw new RemotingCommandException(Refusals.status(Refusal.NOT_MASTER), "broker " + brokerName
                    + " has not heard the controllers within their broker timeout: it may no longer be master; "
                    + CommandCode.name(request.code()) + " refused");
        }
        if (send != null && refusedSends.any(connection) && refusedSends.overtakes(connection, send)) {
            throw new RemotingCommandException(Refusals.status(Refusal.NOT_MASTER), "broker " + brokerName
                    + " refused an earlier send of this producer while it had no lease; that one goes first");
        }
        next.admit(connection, request);
    }

    @Override
    public void closed(RemotingConnection connection) {
        refusedSends.closed(connection);
    }
}
