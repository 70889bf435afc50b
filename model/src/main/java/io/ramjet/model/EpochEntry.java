package io.ramjet.model;

/**
 * One line of a broker's epoch history: from CommitLog offset {@code startOffset} on, records
 * were written by the master of {@code epoch}, until the next entry's start.
 *
 * @param epoch       the master's epoch, increasing along the history
 * @param startOffset the first CommitLog offset written in it
 */
public record EpochEntry(int epoch, long startOffset) {
}
