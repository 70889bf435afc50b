package io.ramjet.server.broker.transaction;

import io.ramjet.model.TxState;
import io.ramjet.server.broker.record.Half;
import io.ramjet.server.broker.record.TransactionSnapshot.SavedTransaction;
import io.ramjet.server.broker.session.ClientSession;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * One transaction the broker holds: its half records, its prepared acknowledgements, its xid
 * and coordinator once prepared, the client session that owns it (none after a restart), the
 * user that owns it and the bookkeeping of its check-backs. The owner user is the user of the
 * first session that sent in it or prepared it ({@code ""} for an anonymous one); it is written
 * with the vote, so a prepared branch keeps it across a restart, when its transaction manager
 * comes back on a new connection as the same user. Thread-safe: every method locks the transaction.
 */
public final class Transaction {

    private final long id;
    private final Halves halves = new Halves();
    private final long since;
    private TransactionStatus status = TransactionStatus.OPEN;
    private String xid = "";
    private String coordinator = "";
    private List<AckGroup> preparedAcks = List.of();
    /** What the owner sent ahead of its prepare or end (TX_ACKS): memory only, taken by the next of them. */
    private final List<AckGroup> consumedAhead = new ArrayList<>();
    private ClientSession owner;
    /** The user that owns the transaction, null while none is known (halves restored without a vote). */
    private String ownerUser;
    private boolean voted;
    private CompletableFuture<TxState> ending;
    /** Checks since the owner last answered OPEN: the evidence that it is gone. */
    private int checks;
    private boolean checking;
    /** The first TX_PART its VOTE names, kept while the VOTE may be replayed; Long.MAX_VALUE for none. */
    private long votePartsFrom = Long.MAX_VALUE;

    /** @param since when the transaction first left a trace here, epoch ms: check-back counts from it */
    Transaction(long id, long since) {
        this.id = id;
        this.since = since;
    }

    public long id() {
        return id;
    }

    public synchronized TransactionStatus status() {
        return status;
    }

    public synchronized String xid() {
        return xid;
    }

    public synchronized String coordinator() {
        return coordinator;
    }

    public synchronized List<Half> halves() {
        return halves.list();
    }

    public synchronized List<AckGroup> preparedAcks() {
        return preparedAcks;
    }

    public synchronized ClientSession owner() {
        return owner;
    }

    /** The user that owns the transaction ({@code ""}: anonymous), or null when none is known. */
    public synchronized String ownerUser() {
        return ownerUser;
    }

    public long since() {
        return since;
    }

    /** Whether a TX_PREPARE has made it durable (or is writing it). */
    public synchronized boolean prepared() {
        return voted || status == TransactionStatus.PREPARING;
    }

    /** A prepared XA branch: it waits for its transaction manager, never checked back. */
    public synchronized boolean preparedBranch() {
        return voted && !xid.isEmpty();
    }

    /** The owner is known and still connected. */
    synchronized boolean ownerAlive() {
        return owner != null && owner.isOpen();
    }

    /**
     * Whether {@code session} may send in or prepare the transaction: unless it belongs to
     * another user. Every connection of the owner user may, so that the connections of one XA
     * resource manager work in one branch (joined with {@code TMJOIN}); the first of them stays
     * the owner asked at check-back while it is open, and one that claims after it is gone takes over.
     */
    synchronized boolean claim(ClientSession session) {
        if (ownerUser != null && !ownerUser.equals(session.user())) {
            return false;
        }
        if (owner == null || !owner.isOpen()) {
            owner = session;
        }
        ownerUser = session.user();
        return true;
    }

    synchronized void addHalf(Half half) {
        halves.add(half);
    }

    /** Nothing here but the entry itself: no half, no vote, no end in progress, nothing consumed ahead. */
    synchronized boolean empty() {
        return halves.isEmpty() && consumedAhead.isEmpty() && !voted && ending == null
                && status == TransactionStatus.OPEN;
    }

    /**
     * Adds what the transaction consumed, sent ahead of its prepare or end; refused (false) unless
     * the transaction is open (not preparing, prepared or ending).
     */
    synchronized boolean consumedAhead(List<AckGroup> acks) {
        if (status != TransactionStatus.OPEN || voted) {
            return false;
        }
        consumedAhead.addAll(acks);
        return true;
    }

    /**
     * Takes what was sent ahead, for the prepare or end that now names the rest: each of them
     * names exactly what was sent ahead since the one before, whether it succeeds or not.
     */
    synchronized List<AckGroup> takeConsumedAhead() {
        List<AckGroup> taken = List.copyOf(consumedAhead);
        consumedAhead.clear();
        return taken;
    }

    /** The lowest CommitLog offset its records lie at: its first half, or the first part of its VOTE. */
    synchronized long oldestRecord() {
        return Math.min(votePartsFrom, halves.first());
    }

    /** Its VOTE names TX_PART records from {@code offset} on: a replay of the VOTE reads them. */
    synchronized void voteParts(long offset) {
        votePartsFrom = Math.min(votePartsFrom, offset);
    }

    /** The vote is durable: acknowledgements, xid, coordinator and owner user (null: none written) as written. */
    synchronized void prepared(String branch, String coordinatorAddress, List<AckGroup> acks, String user) {
        if (user != null) {
            ownerUser = user;
        }
        xid = branch;
        coordinator = coordinatorAddress;
        preparedAcks = List.copyOf(acks);
        voted = true;
        if (status != TransactionStatus.ENDING) {
            status = TransactionStatus.PREPARED;
        }
    }

    /** Moves OPEN or PREPARED to PREPARING; false if the transaction is already ending or preparing. */
    synchronized boolean startPreparing() {
        if (status == TransactionStatus.OPEN) {
            status = TransactionStatus.PREPARING;
            return true;
        }
        return false;
    }

    /** A failed vote write: back to OPEN. */
    synchronized void preparingFailed() {
        if (status == TransactionStatus.PREPARING) {
            status = TransactionStatus.OPEN;
        }
    }

    /**
     * Starts ending: returns null and records {@code future} as the end in progress, or returns
     * the end already in progress.
     */
    synchronized CompletableFuture<TxState> startEnding(CompletableFuture<TxState> future) {
        if (ending != null) {
            return ending;
        }
        ending = future;
        status = TransactionStatus.ENDING;
        return null;
    }

    /** The decision could not be written: the transaction stands as before. */
    synchronized void endingFailed() {
        ending = null;
        status = voted ? TransactionStatus.PREPARED : TransactionStatus.OPEN;
    }

    /** Starts a check-back unless one is running; counts it. */
    synchronized boolean startCheck() {
        if (checking || status == TransactionStatus.ENDING || status == TransactionStatus.PREPARING) {
            return false;
        }
        checking = true;
        checks++;
        return true;
    }

    /** The owner answered OPEN: it is there, and the checks counted so far are forgotten. */
    synchronized void ownerAnsweredOpen() {
        checks = 0;
    }

    synchronized void checkDone() {
        checking = false;
    }

    /** Checks since the owner last answered OPEN, counting the one running (every check if it never did). */
    synchronized int checks() {
        return checks;
    }

    /** What the snapshot keeps of a transaction. */
    synchronized SavedTransaction save() {
        return new SavedTransaction(id, since, xid, coordinator, halves.list(),
                AckGroup.toRecords(preparedAcks), voted, ownerUser);
    }

    static Transaction restore(SavedTransaction saved) {
        Transaction t = new Transaction(saved.id(), saved.since());
        saved.halves().forEach(t::addHalf);
        if (saved.prepared()) {
            t.prepared(saved.xid(), saved.coordinator(), AckGroup.held(saved.acks()), saved.ownerUser());
        }
        t.ownerUser = saved.ownerUser();
        return t;
    }

    @Override
    public synchronized String toString() {
        Map<String, Object> fields = new TreeMap<>();
        fields.put("status", status);
        fields.put("halves", halves.size());
        if (!xid.isEmpty()) {
            fields.put("xid", xid);
        }
        if (!coordinator.isEmpty()) {
            fields.put("coordinator", coordinator);
        }
        return "transaction " + id + " " + fields;
    }
}
