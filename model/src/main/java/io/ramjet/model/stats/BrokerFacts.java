package io.ramjet.model.stats;

/**
 * What an operator asks a broker first (the admin command {@code ADMIN_BROKER} answers it).
 *
 * @param diskUseLimit        the fraction of the disk past which sends are refused or held
 * @param commitLogBytes      bytes of the CommitLog segment files on disk (each created at its full
 *                            size, so a fresh broker shows a whole segment)
 * @param consumeQueueBytes   bytes of the ConsumeQueue files on disk
 * @param openTransactions    local transactions and XA branches not yet decided
 * @param preparedXaBranches  of those, prepared XA branches waiting for their transaction manager
 * @param commitLogRetainedBytes bytes of records the CommitLog retains (the metric
 *                            {@code ramjet_store_commitlog_bytes})
 */
public record BrokerFacts(String version, String brokerName, String address, long startedAt, long uptimeMillis,
                          long diskTotalBytes, long diskUsableBytes, double diskUseLimit, long commitLogBytes,
                          long consumeQueueBytes, int segments, int destinations, int openTransactions,
                          int preparedXaBranches, long commitLogRetainedBytes) {

    /** The fraction of the disk in use, 0 to 1. */
    public double diskUse() {
        return diskTotalBytes == 0 ? 0 : 1.0 - (double) diskUsableBytes / diskTotalBytes;
    }
}
