package io.ramjet.server.broker.timer;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import io.ramjet.storage.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The timer store: a message sent with a delivery time in the future is written as a TIMER
 * record, which no ConsumeQueue holds; when it is due, a NORMAL copy enters its queue. The
 * pending timers are in the consumption snapshot; TIMER records after it are scheduled again
 * while the store recovers, and a replayed NORMAL copy cancels the timer it came from, so a
 * timer fires once across a crash. A timer is forgotten before its copy is written (and
 * restored if the write fails), so a snapshot never holds a timer whose copy it precedes.
 * Thread-safe.
 */
public final class DelayedMessages {

    private static final Logger LOG = LoggerFactory.getLogger(DelayedMessages.class);

    /** A pending timer: where its TIMER record is and what its NORMAL copy will look like. */
    public record Timer(long physicalOffset, long deliveryTime, String destination, int queueId, long bornTimestamp) {

        Match match() {
            return new Match(destination, queueId, bornTimestamp, deliveryTime);
        }
    }

    private record Match(String destination, int queueId, long bornTimestamp, long deliveryTime) {
    }

    private final Map<Long, Timer> pending = new ConcurrentHashMap<>();
    private final Map<Match, Long> byMatch = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private volatile MessageStore store;

    public DelayedMessages(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Restores timers from a snapshot, before the store opens. */
    public void restore(List<Timer> timers) {
        timers.forEach(this::add);
    }

    /** The pending timers, for the snapshot. */
    public List<Timer> pending() {
        return List.copyOf(pending.values());
    }

    /** The store is open: schedules every pending timer, and those dispatched from now on. */
    public void start(MessageStore openedStore) {
        this.store = openedStore;
        pending.values().forEach(this::schedule);
    }

    /** A TIMER record was dispatched (or replayed). */
    public void onTimerRecord(MessageRecordView record) {
        Timer t = new Timer(record.physicalOffset(), record.deliveryTime(), record.destination(), record.queueId(),
                record.bornTimestamp());
        if (add(t) && store != null) {
            schedule(t);
        }
    }

    /**
     * A committed transaction's delayed half record (dispatched or replayed COMMIT) waits here
     * as a TIMER record would; its copy enters the queue when due.
     */
    public void onCommittedHalf(Timer t) {
        if (add(t) && store != null) {
            schedule(t);
        }
    }

    /** A NORMAL record was replayed: if it is a fired timer's copy, that timer is done. */
    public void onReplayedMessage(MessageRecordView record) {
        if (record.deliveryTime() == 0) {
            return;
        }
        Long offset = byMatch.remove(new Match(record.destination(), record.queueId(), record.bornTimestamp(),
                record.deliveryTime()));
        if (offset != null) {
            pending.remove(offset);
        }
    }

    private boolean add(Timer t) {
        if (pending.putIfAbsent(t.physicalOffset(), t) != null) {
            return false;
        }
        byMatch.put(t.match(), t.physicalOffset());
        return true;
    }

    private void schedule(Timer t) {
        long delay = Math.max(0, t.deliveryTime() - System.currentTimeMillis());
        try {
            timer.schedule(() -> fire(t), delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            LOG.debug("broker stopping: timer at {} stays for the next start", t.physicalOffset());
        }
    }

    private void fire(Timer t) {
        if (!pending.remove(t.physicalOffset(), t)) {
            return;
        }
        byMatch.remove(t.match());
        try {
            MessageRecord original = store.read(t.physicalOffset()).toRecord();
            int keptFlags = original.flags() & (RecordFlags.NON_PERSISTENT | RecordFlags.LARGE);
            MessageRecord copy = new MessageRecord(RecordFlags.of(RecordType.NORMAL, keptFlags),
                    original.destination(), original.queueId(), -1, original.bornTimestamp(), original.deliveryTime(),
                    original.tagSignature(), original.properties(), original.body());
            store.append(copy, true).whenComplete((result, failure) -> {
                if (failure != null) {
                    retry(t, failure);
                }
            });
        } catch (RuntimeException e) {
            retry(t, e);
        }
    }

    private void retry(Timer t, Throwable failure) {
        LOG.error("delayed message at {} could not enter {}; retrying in a second", t.physicalOffset(),
                t.destination(), failure);
        add(t);
        try {
            timer.schedule(() -> fire(t), 1, TimeUnit.SECONDS);
        } catch (RejectedExecutionException stopping) {
            LOG.debug("broker stopping: timer at {} stays for the next start", t.physicalOffset());
        }
    }
}
