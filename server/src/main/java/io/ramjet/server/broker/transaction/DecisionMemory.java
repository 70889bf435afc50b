package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The most recent transaction decisions, so that a repeated TX_END, a transaction manager's
 * retry and a participant's TX_QUERY get the answer that was recorded. Bounded: the oldest
 * decision is forgotten first. Durable through the COMMIT and ROLLBACK records and the
 * snapshot. Thread-safe.
 */
public final class DecisionMemory {

    /** A recorded decision: COMMITTED or ROLLED_BACK. */
    public record Decision(long transactionId, String xid, TxState state) {
    }

    private final int capacity;
    private final LinkedHashMap<Long, Decision> byId = new LinkedHashMap<>();
    private final Map<String, Decision> byXid = new LinkedHashMap<>();

    public DecisionMemory(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.capacity = capacity;
    }

    public synchronized void remember(long transactionId, String xid, TxState state) {
        Decision d = new Decision(transactionId, xid, state);
        if (transactionId != 0) {
            byId.remove(transactionId);
            byId.put(transactionId, d);
        }
        if (!xid.isEmpty()) {
            byXid.remove(xid);
            byXid.put(xid, d);
        }
        trim(byId);
        trim(byXid);
    }

    private <K> void trim(Map<K, Decision> map) {
        while (map.size() > capacity) {
            K oldest = map.keySet().iterator().next();
            map.remove(oldest);
        }
    }

    /** The decision for a transaction id (when not 0), else for the xid. */
    public synchronized Optional<TxState> of(long transactionId, String xid) {
        Decision d = transactionId != 0 ? byId.get(transactionId) : null;
        if (d == null && !xid.isEmpty()) {
            d = byXid.get(xid);
        }
        return Optional.ofNullable(d).map(Decision::state);
    }

    /**
     * Every remembered decision, oldest first, for the snapshot: those by id, then those by xid
     * alone. Built without a map: a map of 50,000 entries has a table large enough for G1 to
     * place in the old generation, where, once dead, it kept its entries alive through every
     * young collection until they were old enough to move there too, so one such map per
     * checkpoint lengthens every young pause of a broker that remembers that many decisions.
     */
    public synchronized List<Decision> all() {
        List<Decision> all = new ArrayList<>(byId.size() + byXid.size());
        all.addAll(byId.values());
        for (Decision d : byXid.values()) {
            if (d.transactionId() == 0 || !d.equals(byId.get(d.transactionId()))) {
                all.add(d);
            }
        }
        return all;
    }
}
