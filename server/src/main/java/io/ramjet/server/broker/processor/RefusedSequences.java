package io.ramjet.server.broker.processor;

import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.RemotingConnection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sends of idempotent producers a fenced master refused, per connection, so that none of
 * those producers' later sends is stored before the refused one is sent again. Without it a
 * master whose lease came back between two pipelined sends would store the later one, and the
 * duplicate rule (a sequence not above the last stored is a resend) would then drop the
 * earlier one's resend: a send refused as certainly not stored would be lost. Connections are
 * compared by identity (a {@link RemotingConnection} does not override equals). Thread-safe;
 * a connection's entries go when it closes.
 */
final class RefusedSequences implements ConnectionListener {

    /** Per connection: producer id → the lowest sequence refused and not yet sent again. */
    private final Map<Object, Map<Long, Long>> refused = new ConcurrentHashMap<>();

    /** Remembers a refused send of an idempotent producer. */
    void refused(Object connection, SendRequest send) {
        if (send.producerId() != 0) {
            refused.computeIfAbsent(connection, c -> new ConcurrentHashMap<>())
                    .merge(send.producerId(), send.sequence(), Math::min);
        }
    }

    /**
     * Whether this send must wait for an earlier refused one of its producer: true for a sequence
     * above the refused one; the refused one itself, sent again, clears the mark.
     */
    boolean overtakes(Object connection, SendRequest send) {
        Map<Long, Long> producers = refused.get(connection);
        if (producers == null || send.producerId() == 0) {
            return false;
        }
        Long first = producers.get(send.producerId());
        if (first == null) {
            return false;
        }
        if (send.sequence() == first) {
            producers.remove(send.producerId(), first);
        }
        return send.sequence() > first;
    }

    /** Whether any refused send of this connection is still waiting to be sent again. */
    boolean any(Object connection) {
        Map<Long, Long> producers = refused.get(connection);
        return producers != null && !producers.isEmpty();
    }

    @Override
    public void closed(RemotingConnection connection) {
        refused.remove(connection);
    }
}
