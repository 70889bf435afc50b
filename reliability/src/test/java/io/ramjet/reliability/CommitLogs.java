package io.ramjet.reliability;

import io.ramjet.storage.StoreConfig;
import io.ramjet.storage.StoreTruncation;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads the CommitLogs of stopped brokers from their data directories (segment files named by
 * their start offset, 20 digits, each {@code segmentSize} bytes): where each intact log ends, and
 * whether two logs hold the same bytes up to an offset. Only with no broker running on them.
 */
final class CommitLogs {

    private static final int CHUNK = 64 * 1024;

    private CommitLogs() {
    }

    /** Where the intact log of a stopped broker ends, as its next start would find it. */
    static long end(Path dataDir, int segmentSize) {
        return StoreTruncation.logEnd(StoreConfig.builder(dataDir).segmentSize(segmentSize).minFreeSpace(0).build());
    }

    /** The first offset below {@code length} where the two logs differ, or -1 when they agree up to it. */
    static long firstDifference(Path dataDirA, Path dataDirB, long length, int segmentSize) throws IOException {
        ByteBuffer a = ByteBuffer.allocate(CHUNK);
        ByteBuffer b = ByteBuffer.allocate(CHUNK);
        for (long offset = 0; offset < length; offset += CHUNK) {
            int n = (int) Math.min(CHUNK, length - offset);
            read(dataDirA, offset, n, segmentSize, a);
            read(dataDirB, offset, n, segmentSize, b);
            int mismatch = a.mismatch(b);
            if (mismatch >= 0) {
                return offset + mismatch;
            }
        }
        return -1;
    }

    /**
     * Whether {@code bytes} occur in a segment of {@code dataDir}'s CommitLog: readable while the
     * broker runs, since its appends reach the files' pages before any force. Each segment is
     * read whole, so only for the small segments of the tests.
     */
    static boolean contains(Path dataDir, byte[] bytes) throws IOException {
        try (var segments = Files.list(dataDir.resolve("commitlog"))) {
            for (Path segment : segments.toList()) {
                byte[] content = Files.readAllBytes(segment);
                for (int i = 0; i + bytes.length <= content.length; i++) {
                    if (Arrays.equals(content, i, i + bytes.length, bytes, 0, bytes.length)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Fills {@code into} with {@code n} bytes at {@code offset}, from the segment (or two) holding them. */
    private static void read(Path dataDir, long offset, int n, int segmentSize, ByteBuffer into) throws IOException {
        into.clear();
        while (into.position() < n) {
            long position = offset + into.position();
            long start = position - position % segmentSize;
            Path segment = dataDir.resolve("commitlog").resolve(String.format("%020d", start));
            into.limit((int) Math.min(n, into.position() + (start + segmentSize - position)));
            try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ)) {
                while (into.hasRemaining()) {
                    if (channel.read(into, offset + into.position() - start) < 0) {
                        throw new IOException(segment + " ends before offset " + (offset + into.position()));
                    }
                }
            }
        }
        into.flip();
    }
}
