package io.ramjet.provider.jms.transaction;

import io.ramjet.model.TxState;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one connection knows of its transactions, to answer a broker's check-back (TX_CHECK):
 * OPEN for a transaction still in progress (or whose decision could not be confirmed, so that a
 * participant keeps waiting and, once this connection is gone, asks the coordinator), COMMITTED
 * or ROLLED_BACK for one of the last {@code capacity} ended, UNKNOWN for anything else. Thread-safe;
 * {@link #stateOf} never blocks for long, as it runs on an I/O thread.
 */
public final class TransactionLedger {

    /** How many ended transactions a connection remembers by default. */
    public static final int DEFAULT_CAPACITY = 4096;

    private final Set<Long> open = ConcurrentHashMap.newKeySet();
    private final Map<Long, TxState> ended;

    public TransactionLedger(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.ended = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, TxState> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The transaction has begun. */
    public void opened(long transactionId) {
        open.add(transactionId);
    }

    /** The transaction's outcome is decided and known. */
    public void ended(long transactionId, boolean committed) {
        synchronized (ended) {
            ended.put(transactionId, committed ? TxState.COMMITTED : TxState.ROLLED_BACK);
        }
        open.remove(transactionId);
    }

    /** Forgets a transaction that never touched a broker. */
    public void forget(long transactionId) {
        open.remove(transactionId);
    }

    public TxState stateOf(long transactionId) {
        synchronized (ended) {
            TxState state = ended.get(transactionId);
            if (state != null) {
                return state;
            }
        }
        return open.contains(transactionId) ? TxState.OPEN : TxState.UNKNOWN;
    }
}
