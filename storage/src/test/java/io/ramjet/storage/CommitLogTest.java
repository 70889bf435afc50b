package io.ramjet.storage;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.record.MessageRecordDescriptor;
import io.ramjet.storage.RecordReadException.Reason;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitLogTest {

    private static final int SEGMENT = 8 * 1024;

    @TempDir
    Path dir;

    private final List<CommitLog> opened = new ArrayList<>();

    private CommitLog newLog() {
        CommitLog log = new CommitLog(dir, SEGMENT, 0, ForceRecorder.NONE);
        opened.add(log);
        return log;
    }

    @AfterEach
    void closeLogs() {
        opened.forEach(CommitLog::close);
    }

    private List<AppendResult> appendRandom(CommitLog log, int count, long seed) {
        Random random = new Random(seed);
        List<AppendResult> results = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            results.add(log.append(TestRecords.record("d", 0, i, random.nextInt(1500)), 0));
        }
        return results;
    }

    private List<String> fileNames() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** The directory's files once the allocator has written what is expected, or a failure after 10 s. */
    private List<String> awaitFileNames(List<String> expected) {
        return await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                .until(this::fileNames, expected::equals);
    }

    @Test
    void aFreshLogPreparesOneSegmentAndTheNextOnlyOnceHalfFull() throws Exception {
        CommitLog log = newLog();
        log.recover(0, r -> { });
        String first = String.format("%020d", 0);
        String second = String.format("%020d", SEGMENT);
        assertEquals(List.of(first + ".next"), awaitFileNames(List.of(first + ".next")), "the first is prepared at open");
        log.append(TestRecords.record("d", 0, 0, 100), 0);
        assertEquals(List.of(first), fileNames(), "nothing prepared while the segment is less than half full");
        int i = 1;
        while (log.writePosition() < SEGMENT / 2) {
            log.append(TestRecords.record("d", 0, i++, 100), 0);
        }
        log.append(TestRecords.record("d", 0, i, 100), 0);
        assertEquals(List.of(first, second + ".next"), awaitFileNames(List.of(first, second + ".next")));
    }

    @Test
    void recordsReadBackAcrossManyRollovers() throws Exception {
        CommitLog log = newLog();
        log.recover(0, r -> { });
        List<AppendResult> results = appendRandom(log, 2_000, 1);
        assertTrue(log.segmentCount() > 50, "segments: " + log.segmentCount());
        for (int i = 0; i < results.size(); i++) {
            AppendResult r = results.get(i);
            long segmentStart = r.physicalOffset() / SEGMENT * SEGMENT;
            assertTrue(r.endOffset() <= segmentStart + SEGMENT, "record " + i + " spans two segments");
            TestRecords.assertIntact(log.read(r.physicalOffset()), i);
            assertEquals(r.size(), log.read(r.physicalOffset()).totalSize());
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
            assertEquals(String.format("%020d", 0), names.get(0));
            assertEquals(String.format("%020d", SEGMENT), names.get(1));
            assertTrue(names.stream().allMatch(n -> n.matches("\\d{20}") || n.matches("\\d{20}\\.next")), names.toString());
            assertTrue(names.stream().filter(n -> n.endsWith(".next")).count() <= 1, "one segment prepared ahead");
        }
    }

    @Test
    void reopenedLogRecoversEveryRecord() {
        CommitLog log = newLog();
        log.recover(0, r -> { });
        List<AppendResult> results = appendRandom(log, 500, 2);
        log.close();

        CommitLog reopened = newLog();
        List<Long> seen = new ArrayList<>();
        CommitLog.Scan scan = reopened.recover(0, r -> seen.add(TestRecords.seqOf(r)));
        assertEquals(500, scan.records());
        assertEquals(0, scan.truncatedBytes());
        assertEquals(results.get(499).endOffset(), scan.end());
        for (int i = 0; i < 500; i++) {
            assertEquals(i, seen.get(i));
        }
    }

    @Test
    void readInsideARecordIsNotARecord() {
        CommitLog log = newLog();
        log.recover(0, r -> { });
        AppendResult r = log.append(TestRecords.record("d", 0, 1, 300), 0);
        log.append(TestRecords.record("d", 0, 2, 300), 0);
        for (long offset = r.physicalOffset() + 1; offset < r.endOffset(); offset += 7) {
            long at = offset;
            RecordReadException e = assertThrows(RecordReadException.class, () -> log.read(at));
            assertEquals(Reason.NOT_A_RECORD, e.reason(), "at " + at);
        }
    }

    @Test
    void readAtOrPastTheEndIsPastEnd() {
        CommitLog log = newLog();
        log.recover(0, r -> { });
        AppendResult r = log.append(TestRecords.record("d", 0, 1, 10), 0);
        assertEquals(Reason.PAST_END, assertThrows(RecordReadException.class,
                () -> log.read(r.endOffset())).reason());
        assertEquals(Reason.PAST_END, assertThrows(RecordReadException.class,
                () -> log.read(1L << 40)).reason());
        assertEquals(Reason.BELOW_RETAINED, assertThrows(RecordReadException.class,
                () -> log.read(-1)).reason());
    }

    @Test
    void readOfPaddingIsNotARecord() {
        CommitLog log = newLog();
        log.recover(0, r -> { });
        List<AppendResult> results = appendRandom(log, 40, 3);
        AppendResult firstInSecond = results.stream().filter(r -> r.physicalOffset() >= SEGMENT).findFirst().get();
        AppendResult lastInFirst = results.get(results.indexOf(firstInSecond) - 1);
        if (lastInFirst.endOffset() < SEGMENT) {
            RecordReadException e = assertThrows(RecordReadException.class, () -> log.read(lastInFirst.endOffset()));
            assertEquals(Reason.NOT_A_RECORD, e.reason());
            assertEquals(SEGMENT, log.skipPadding(lastInFirst.endOffset()));
        }
        assertEquals(SEGMENT, firstInSecond.physicalOffset());
    }

    private static void flipByte(Path segmentFile, int at) {
        MappedFile segment = MappedFile.open(segmentFile);
        segment.buffer().put(at, (byte) (segment.buffer().get(at) ^ 1));
        segment.close();
    }

    @Test
    void flippedByteInARecordWrittenBeforeThisOpenIsReportedCorrupt() {
        CommitLog writer = newLog();
        writer.recover(0, r -> { });
        AppendResult r = writer.append(TestRecords.record("d", 0, 1, 200), 0);
        writer.close();
        opened.remove(writer);
        flipByte(dir.resolve(MappedFile.name(0)), (int) r.physicalOffset() + r.size() - 5);

        CommitLog log = newLog();
        log.recover(r.endOffset(), x -> { });
        RecordReadException e = assertThrows(RecordReadException.class, () -> log.read(r.physicalOffset()));
        assertEquals(Reason.CORRUPT, e.reason());
    }

    @Test
    void flippedByteInAnOlderSegmentIsReportedCorrupt() {
        CommitLog log = newLog();
        log.recover(0, r -> { });
        AppendResult first = log.append(TestRecords.record("d", 0, 1, 200), 0);
        while (log.segmentCount() < 3) {
            log.append(TestRecords.record("d", 0, 2, 1500), 0);
        }
        flipByte(dir.resolve(MappedFile.name(0)), (int) first.physicalOffset() + first.size() - 5);
        RecordReadException e = assertThrows(RecordReadException.class, () -> log.read(first.physicalOffset()));
        assertEquals(Reason.CORRUPT, e.reason());
    }

    @Test
    void aRecentRecordThisProcessWroteIsReadWithoutRecomputingItsChecksum() {
        CommitLog log = newLog();
        log.recover(0, r -> { });
        AppendResult r = log.append(TestRecords.record("d", 0, 1, 200), 0);
        flipByte(dir.resolve(MappedFile.name(0)), (int) r.physicalOffset() + r.size() - 5);
        assertEquals(r.size(), log.read(r.physicalOffset()).totalSize());
    }

    @Test
    void recordExactlyFillingASegmentNeedsNoPadding() {
        CommitLog log = newLog();
        log.recover(0, r -> { });
        int overhead = MessageRecordDescriptor.recordLength(TestRecords.record("d", 0, 1, 0));
        AppendResult r = log.append(TestRecords.record("d", 0, 1, SEGMENT - overhead), 0);
        assertEquals(SEGMENT, r.size());
        AppendResult next = log.append(TestRecords.record("d", 0, 2, 10), 0);
        assertEquals(SEGMENT, next.physicalOffset());
        TestRecords.assertIntact(log.read(0), 1);
    }

    @Test
    void aSegmentPreparedAheadIsNotPartOfTheLogAfterARestart() throws Exception {
        CommitLog log = newLog();
        log.recover(0, r -> { });
        List<AppendResult> results = appendRandom(log, 30, 4);
        int segments = log.segmentCount();
        Files.write(dir.resolve(MappedFile.name((long) segments * SEGMENT) + ".next"), new byte[SEGMENT]);

        CommitLog reopened = newLog();
        assertEquals(segments, reopened.segmentCount());
        CommitLog.Scan scan = reopened.recover(0, r -> { });
        assertEquals(30, scan.records());
        assertEquals(results.get(29).endOffset(), scan.end());
        reopened.close();
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().endsWith(".next")));
        }
    }
}
