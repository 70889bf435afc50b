package io.ramjet.controller;

/**
 * One epoch of a broker group: its number and the CommitLog offset at which its master began
 * writing. Every record at or above {@code startOffset} (and below the next epoch's start) was
 * written in this epoch.
 */
public record EpochEntry(int epoch, long startOffset) {

    public EpochEntry {
        if (epoch < 1 || startOffset < 0) {
            throw new IllegalArgumentException("epoch " + epoch + " at offset " + startOffset);
        }
    }
}
