package io.ramjet.storage;

/**
 * What opening a store found and repaired.
 *
 * @param cleanShutdown    whether the previous run closed the store cleanly
 * @param checkpointOffset the CommitLog offset the scan started from
 * @param recordsScanned   records validated and re-dispatched after the checkpoint
 * @param endOffset        the CommitLog write position after recovery
 * @param truncatedBytes   bytes cut from a torn or corrupt tail, 0 if the tail was intact
 */
public record RecoveryReport(boolean cleanShutdown, long checkpointOffset, long recordsScanned,
                             long endOffset, long truncatedBytes) {
}
