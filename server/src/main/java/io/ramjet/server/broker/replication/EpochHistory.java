package io.ramjet.server.broker.replication;

import io.ramjet.model.EpochEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * Where two CommitLogs stop agreeing, from their epoch histories (RocketMQ 5's AutoSwitchHA,
 * Kafka's leader epochs): bytes written in the same epoch at the same offset are the same bytes,
 * since one master wrote them. The last common offset is the end of the newest epoch both
 * histories hold, taken at the shorter of the two logs' ends of it.
 */
public final class EpochHistory {

    private EpochHistory() {
    }

    /**
     * The offset up to which a slave's log ({@code local}, ending at {@code localEnd}) equals the
     * master's ({@code master}, ending at {@code masterEnd}); the slave truncates there if its log
     * is longer, then fetches from there.
     */
    public static long lastCommonOffset(List<EpochEntry> local, long localEnd, List<EpochEntry> master, long masterEnd) {
        List<EpochEntry> mine = withEpochZero(local);
        List<EpochEntry> theirs = withEpochZero(master);
        for (int i = mine.size() - 1; i >= 0; i--) {
            int at = indexOf(theirs, mine.get(i).epoch());
            if (at < 0 || theirs.get(at).startOffset() != mine.get(i).startOffset()) {
                continue;
            }
            long myEnd = i + 1 < mine.size() ? mine.get(i + 1).startOffset() : localEnd;
            long theirEnd = at + 1 < theirs.size() ? theirs.get(at + 1).startOffset() : masterEnd;
            return Math.min(Math.min(myEnd, theirEnd), localEnd);
        }
        return 0;
    }

    /** The history with the implicit epoch 0 from offset 0 in front, when its first entry starts later. */
    private static List<EpochEntry> withEpochZero(List<EpochEntry> history) {
        if (!history.isEmpty() && history.get(0).startOffset() == 0) {
            return history;
        }
        List<EpochEntry> whole = new ArrayList<>(history.size() + 1);
        whole.add(new EpochEntry(0, 0));
        whole.addAll(history);
        return whole;
    }

    /** The epoch whose range holds {@code offset} in {@code history}, 0 before the first entry. */
    static int epochAt(List<EpochEntry> history, long offset) {
        int epoch = 0;
        for (EpochEntry e : history) {
            if (e.startOffset() > offset) {
                break;
            }
            epoch = e.epoch();
        }
        return epoch;
    }

    private static int indexOf(List<EpochEntry> history, int epoch) {
        for (int i = 0; i < history.size(); i++) {
            if (history.get(i).epoch() == epoch) {
                return i;
            }
        }
        return -1;
    }
}
