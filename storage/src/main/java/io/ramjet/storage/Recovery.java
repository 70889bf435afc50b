package io.ramjet.storage;

import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a store's files back to a consistent state when it opens: ConsumeQueues are cut back
 * to the checkpoint, then the CommitLog is scanned from the checkpoint, every record's checksum
 * checked and every valid record dispatched again, and the log is truncated at the first bad one.
 * The work done grows with what was written after the checkpoint, not with the log's size.
 *
 * <p>A record whose entries cannot be written (a full disk) fails the open rather than be passed
 * over: the checkpoint is untouched, so the next open redoes it.
 *
 * <p>On disk: reads the checkpoint, truncates the CommitLog and ConsumeQueue tails. Threading:
 * the opening thread, before any other thread of the store starts. After a crash during
 * recovery itself: it only ever cuts data past the checkpoint, so running it again is safe.
 */
final class Recovery {

    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    private Recovery() {
    }

    static RecoveryReport run(boolean cleanShutdown, CheckpointFile checkpoint, CommitLog log,
                              ConsumeQueueTable queues, DispatchListener listener) {
        OptionalLong saved = checkpoint.read();
        long from = Math.max(saved.orElse(log.minOffset()), log.minOffset());
        if (!queues.existed() && from > log.minOffset()) {
            LOG.warn("no ConsumeQueue directory found: rebuilding the queues from the whole CommitLog");
            from = log.minOffset();
        }
        queues.recover(from, log::isHalfRecord);
        CommitLog.Scan scan = log.recover(from, record -> {
            try {
                listener.onRecord(record, queues);
            } catch (RecordReadException e) {
                LOG.error("dispatch listener failed on {} during recovery", record, e);
            } catch (StoreException e) {
                throw new StoreException("cannot index " + record + " during recovery; the store stays closed "
                        + "so that nothing after it is passed over (free disk space and open it again)", e);
            } catch (RuntimeException e) {
                LOG.error("dispatch listener failed on {} during recovery", record, e);
            }
        });
        RecoveryReport report = new RecoveryReport(cleanShutdown, from, scan.records(), scan.end(),
                scan.truncatedBytes());
        if (cleanShutdown && scan.records() == 0 && scan.truncatedBytes() == 0) {
            LOG.info("store opened after a clean shutdown at offset {}", scan.end());
        } else {
            LOG.warn("store recovered: {}", report);
        }
        return report;
    }
}
