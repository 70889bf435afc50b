package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.server.broker.error.BrokerException;
import io.ramjet.server.broker.error.Refusal;
import io.ramjet.server.broker.record.Half;
import io.ramjet.server.broker.record.TransactionSnapshot;
import io.ramjet.server.broker.session.ClientSession;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The transactions a broker holds (open ones with half records, prepared ones), the recent
 * decisions, and the committed half records retention must still keep. Filled by the dispatch
 * of PREPARED and VOTE records (live and during recovery) and by the snapshot; emptied by the
 * dispatch of COMMIT and ROLLBACK records. Thread-safe.
 */
public final class TransactionTable {

    /** Recent decisions remembered for retries and coordinator queries. */
    public static final int RECENT_DECISIONS = 50_000;

    private final Map<Long, Transaction> byId = new ConcurrentHashMap<>();
    private final DecisionMemory decisions = new DecisionMemory(RECENT_DECISIONS);
    /**
     * Committed halves by where their COMMIT lies: COMMIT offset -> the lowest half offset it
     * made visible. Past {@link #COMMITTED_HALVES_LIMIT} entries, neighbours are merged under
     * the later COMMIT offset with the lower half offset, which keeps at least as much.
     */
    private final ConcurrentSkipListMap<Long, Long> committedHalves = new ConcurrentSkipListMap<>();

    static final int COMMITTED_HALVES_LIMIT = 4096;

    public DecisionMemory decisions() {
        return decisions;
    }

    /**
     * The transaction a send of {@code session} adds a half record to, created if new.
     *
     * @throws BrokerException TX_ROLLED_BACK if it was rolled back here, BAD_REQUEST if it
     *         committed or is ending, TX_CONFLICT if it belongs to another user
     */
    public Transaction open(long id, ClientSession session) {
        Optional<TxState> decided = decisions.of(id, "");
        if (decided.isPresent() && !byId.containsKey(id)) {
            if (decided.get() == TxState.ROLLED_BACK) {
                throw new BrokerException(Refusal.TX_ROLLED_BACK,
                        "transaction " + id + " was rolled back on this broker");
            }
            throw new BrokerException(Refusal.BAD_REQUEST, "transaction " + id + " has already committed");
        }
        Transaction t = byId.computeIfAbsent(id, k -> new Transaction(k, System.currentTimeMillis()));
        if (t.status() == TransactionStatus.ENDING) {
            throw new BrokerException(Refusal.BAD_REQUEST, "transaction " + id + " is ending: no more sends");
        }
        if (!t.claim(session)) {
            throw new BrokerException(Refusal.TX_CONFLICT,
                    "transaction " + id + " belongs to another user");
        }
        return t;
    }

    /** The transaction of that id, created if the broker has none (a participant that only consumed). */
    Transaction getOrCreate(long id) {
        return byId.computeIfAbsent(id, k -> new Transaction(k, System.currentTimeMillis()));
    }

    /** Drops a transaction that left no trace after all (its end could not be written). */
    void forgetIfEmpty(Transaction t) {
        if (t.empty()) {
            byId.remove(t.id(), t);
        }
    }

    /** The transaction of that id (when not 0), else the one prepared under {@code xid}. */
    public Optional<Transaction> find(long id, String xid) {
        if (id != 0) {
            return Optional.ofNullable(byId.get(id));
        }
        if (xid.isEmpty()) {
            return Optional.empty();
        }
        return byId.values().stream().filter(t -> xid.equals(t.xid())).findFirst();
    }

    public List<Transaction> all() {
        return new ArrayList<>(byId.values());
    }

    /** The prepared XA branches, by xid. */
    public List<Transaction> preparedBranches() {
        return byId.values().stream().filter(Transaction::preparedBranch)
                .sorted(Comparator.comparing(Transaction::xid)).toList();
    }

    /** A half record was dispatched. */
    void addHalf(long id, Half half, long storeTimestamp) {
        byId.computeIfAbsent(id, k -> new Transaction(k, storeTimestamp)).addHalf(half);
    }

    /** A decision was dispatched: the transaction is gone, its decision remembered. */
    void decided(long id, String xid, TxState state) {
        Transaction t = id != 0 ? byId.remove(id) : null;
        if (t == null && !xid.isEmpty()) {
            t = find(0, xid).orElse(null);
            if (t != null) {
                byId.remove(t.id());
            }
        }
        decisions.remember(t != null ? t.id() : id, t != null && xid.isEmpty() ? t.xid() : xid, state);
    }

    /**
     * A COMMIT at {@code commitOffset} made half records from {@code lowestHalf} on visible (or
     * names TX_PART records from there on).
     */
    void committedHalves(long commitOffset, long lowestHalf) {
        committedHalves.merge(commitOffset, lowestHalf, Math::min);
        if (committedHalves.size() > COMMITTED_HALVES_LIMIT) {
            coarsen();
        }
    }

    /** Merges each pair of neighbours into one under the later COMMIT offset. */
    private synchronized void coarsen() {
        Long held = null;
        for (Map.Entry<Long, Long> e : List.copyOf(committedHalves.entrySet())) {
            if (held == null) {
                held = e.getKey();
                continue;
            }
            long lowest = Math.min(committedHalves.remove(held), e.getValue());
            committedHalves.merge(e.getKey(), lowest, Math::min);
            held = null;
        }
    }

    /**
     * The lowest CommitLog offset transactions still need, given that nothing below {@code bound}
     * is needed otherwise: the half records of open and prepared transactions (and the TX_PART
     * records of their VOTEs), and the committed
     * halves of every COMMIT at or above {@code bound} (its entries may lie above a low-water
     * mark whose entry points at or above {@code bound}). Forgets the COMMITs below it.
     */
    public long oldestNeeded(long bound) {
        committedHalves.headMap(bound).clear();
        long oldest = bound;
        for (long lowest : committedHalves.values()) {
            oldest = Math.min(oldest, lowest);
        }
        for (Transaction t : byId.values()) {
            oldest = Math.min(oldest, t.oldestRecord());
        }
        return oldest;
    }

    /** What the snapshot keeps. */
    public TransactionSnapshot.Section save() {
        List<TransactionSnapshot.SavedTransaction> transactions = byId.values().stream().map(Transaction::save)
                .toList();
        List<TransactionSnapshot.SavedDecision> remembered = decisions.all().stream()
                .map(d -> new TransactionSnapshot.SavedDecision(d.transactionId(), d.xid(), d.state())).toList();
        return new TransactionSnapshot.Section(transactions, remembered, Map.copyOf(committedHalves));
    }

    /** Restores what {@link #save} kept, into an empty table. */
    public void restore(TransactionSnapshot.Section saved) {
        saved.transactions().forEach(s -> byId.put(s.id(), Transaction.restore(s)));
        saved.decisions().forEach(d -> decisions.remember(d.transactionId(), d.xid(), d.state()));
        committedHalves.putAll(saved.committedHalves());
    }
}
