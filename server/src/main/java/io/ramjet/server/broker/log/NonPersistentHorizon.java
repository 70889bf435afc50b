package io.ramjet.server.broker.log;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.storage.DurableRename;
import io.ramjet.storage.OwnerOnly;
import io.ramjet.storage.ForceRecorder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CommitLog offset below which NON_PERSISTENT messages are never delivered again: the end of
 * the log when the broker last came up after a crash (or on a former slave's copy). Their
 * deliveries and acknowledgements are not logged (a NON_PERSISTENT message may be lost when the
 * broker fails, as JMS allows), so after a crash nothing tells which of them were consumed:
 * rather than deliver one twice, the broker drops them all, and a NON_PERSISTENT message is
 * delivered at most once. After a clean stop the snapshot holds their state exactly and the
 * horizon does not move. PERSISTENT messages never depend on it.
 *
 * <p>On disk: {@value #FILE} in the given directory, one 8-byte big-endian offset, replaced
 * atomically (written beside, forced, renamed) when the horizon is raised; no file means 0. It
 * must outlive later clean restarts, since the acknowledgements it stands in for were never
 * logged. Reads are thread-safe; {@link #load} and {@link #raiseTo} run once, at start.
 */
public final class NonPersistentHorizon {

    static final String FILE = "nonpersistent.horizon";

    private final Path file;
    private volatile long horizon;

    private final ForceRecorder recorder;

    /** @param recorder told of the file's forces (see {@link ForceRecorder}) */
    public NonPersistentHorizon(Path directory, ForceRecorder recorder) {
        this.file = directory.resolve(FILE);
        this.recorder = recorder;
    }

    /** Reads the horizon a crash left, if any. */
    public void load() throws IOException {
        if (Files.exists(file)) {
            horizon = ByteBuffer.wrap(Files.readAllBytes(file)).getLong();
        }
    }

    /** After a crash, the log ending at {@code logEnd}: nothing NON_PERSISTENT below it is delivered. */
    public void raiseTo(long logEnd) throws IOException {
        if (logEnd <= horizon) {
            return;
        }
        OwnerOnly.createDirectories(file.getParent());
        DurableRename.replace(file, file.resolveSibling(FILE + ".next"), ByteBuffer.allocate(Long.BYTES).putLong(0, logEnd),
                recorder);
        horizon = logEnd;
    }

    /** Whether a stored message is a NON_PERSISTENT one from before the last crash, never to be delivered. */
    public boolean lost(MessageRecordView record) {
        return nonPersistent(record) && record.physicalOffset() < horizon;
    }

    /** Whether a stored message is NON_PERSISTENT: its deliveries and acknowledgements are not logged. */
    public static boolean nonPersistent(MessageRecordView record) {
        return (record.flags() & RecordFlags.NON_PERSISTENT) != 0;
    }

    public long horizon() {
        return horizon;
    }
}
