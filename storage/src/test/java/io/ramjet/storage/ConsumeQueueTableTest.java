package io.ramjet.storage;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.model.record.MessageRecord;
import io.ramjet.model.record.MessageRecordView;
import io.ramjet.model.record.RecordFlags;
import io.ramjet.model.record.RecordType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsumeQueueTableTest {

    private static final String DELETE = "$delete";

    @TempDir
    Path dir;

    private Path queues() {
        return dir.resolve("consumequeue");
    }

    private List<String> directories() throws Exception {
        try (Stream<Path> list = Files.list(queues())) {
            return list.map(p -> p.getFileName().toString())
                    .filter(name -> !name.equals(ConsumeQueueTable.POOL_DIRECTORY)).sorted().toList();
        }
    }

    private Path pool() {
        return queues().resolve(ConsumeQueueTable.POOL_DIRECTORY);
    }

    private List<Object> poolInodes() throws Exception {
        try (Stream<Path> files = Files.list(pool())) {
            return files.map(p -> {
                try {
                    return Files.getAttribute(p, "unix:ino");
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    }

    @Test
    void aNewQueuesFirstFileIsOneThePoolPreparedAhead() throws Exception {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                    .until(() -> poolInodes().size() >= ConsumeQueueTable.FIRST_FILES);
            List<Object> prepared = poolInodes();
            assertEquals(ConsumeQueueTable.FIRST_FILES, prepared.size());
            store.append(TestRecords.record("Q.new", 2, 0, 10), true).join();
            TestRecords.awaitDispatched(store);
            Path file = queues().resolve("Q%2Enew").resolve("2").resolve(MappedFile.name(0));
            assertTrue(prepared.contains(Files.getAttribute(file, "unix:ino")), "renamed from the pool");
            assertEquals(1, store.readQueue("Q.new", 2, 0, 10).size());
        }
        assertFalse(Files.exists(pool()), "a closed store leaves no pool");
    }

    @Test
    void aPoolLeftByACrashIsEmptiedAndNeverLoadedAsAQueue() throws Exception {
        MessageStore crashed = MessageStore.open(TestRecords.config(dir));
        crashed.append(TestRecords.record("Q.a", 0, 0, 10), true).join();
        TestRecords.awaitDispatched(crashed);
        crashed.closeAbruptly();
        Files.createDirectories(pool());
        Files.writeString(pool().resolve("00000000000000000077.first"), "cut short by the crash");
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            assertEquals(java.util.Set.of("Q.a"), store.queueDestinations());
            assertFalse(Files.exists(pool().resolve("00000000000000000077.first")));
            assertEquals(1, store.readQueue("Q.a", 0, 0, 10).size());
        }
    }

    @Test
    void everyAcceptedNameMapsToADirectoryNameThatFits() throws Exception {
        List<String> names = List.of("Q." + "a".repeat(300), "Q." + "é".repeat(200), "Q." + ".".repeat(90) + "x",
                "Q." + "z".repeat(1024), "Q.DLQ." + "é".repeat(512), "Q.short");
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            for (int i = 0; i < names.size(); i++) {
                store.append(TestRecords.record(names.get(i), 1, i, 10), true).join();
            }
            TestRecords.awaitDispatched(store);
        }
        for (String directory : directories()) {
            assertTrue(directory.getBytes(StandardCharsets.UTF_8).length <= 120, directory);
        }
        assertTrue(directories().contains("Q%2Eshort"), "short names stay readable and unhashed");
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            for (int i = 0; i < names.size(); i++) {
                List<ConsumeQueueEntry> entries = store.readQueue(names.get(i), 1, 0, 10);
                assertEquals(1, entries.size(), names.get(i));
                MessageRecordView view = store.read(entries.get(0).physicalOffset());
                assertEquals(names.get(i), view.destination());
                TestRecords.assertIntact(view, i);
            }
            assertEquals(new java.util.HashSet<>(names), store.queueDestinations());
        }
    }

    @Test
    void namesSharingAPrefixGetDistinctDirectories() {
        String a = "p".repeat(200) + "a";
        String b = "p".repeat(200) + "b";
        assertFalse(QueueKey.directoryName(a).equals(QueueKey.directoryName(b)));
        assertTrue(QueueKey.isHashed(QueueKey.directoryName(a)));
        assertEquals("%C3%A9%2E", QueueKey.directoryName("é."));
    }

    @Test
    void aHashedDirectoryThatLostItsNameIsDeletedOnLoad() throws Exception {
        String name = "Q." + "b".repeat(400);
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            store.append(TestRecords.record(name, 0, 0, 10), true).join();
            TestRecords.awaitDispatched(store);
        }
        Path hashed = queues().resolve(QueueKey.directoryName(name));
        Files.delete(hashed.resolve(QueueKey.NAME_FILE));
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            assertFalse(Files.exists(hashed));
            assertTrue(store.queueDestinations().isEmpty());
        }
    }

    @Test
    void deletedQueuesLeaveNoFilesAndNewRecordsStartAfresh() throws Exception {
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            for (int i = 0; i < 100; i++) {
                store.append(TestRecords.record("Q.tmp-" + "x".repeat(300), i % 3, i, 10), false);
                store.append(TestRecords.record("Q.kept", 0, i, 10), false);
            }
            store.deleteQueues("Q.tmp-" + "x".repeat(300)).get(10, TimeUnit.SECONDS);
            assertEquals(List.of("Q%2Ekept"), directories());
            assertEquals(0, store.maxQueueOffset("Q.tmp-" + "x".repeat(300), 0));
            assertEquals(100, store.maxQueueOffset("Q.kept", 0));
        }
        try (MessageStore store = MessageStore.open(TestRecords.config(dir))) {
            assertEquals(List.of("Q%2Ekept"), directories());
            assertEquals(100, store.maxQueueOffset("Q.kept", 0));
        }
    }

    /** As the broker does: a record that deletes a destination, dispatched again by recovery. */
    private static DispatchListener deletingOnRecord() {
        return TestRecords.normalMessagesThen((record, queues) -> {
            if (record.type() == RecordType.SUBSCRIPTION && record.destination().equals(DELETE)) {
                ByteBufferText body = new ByteBufferText(record);
                queues.deleteQueues(body.text);
            }
        });
    }

    private record ByteBufferText(String text) {
        ByteBufferText(MessageRecordView record) {
            this(StandardCharsets.UTF_8.decode(record.body()).toString());
        }
    }

    private static MessageRecord deletion(String destination) {
        return new MessageRecord(RecordFlags.of(RecordType.SUBSCRIPTION, 0), DELETE, 0, -1, 0, 0, 0, new byte[0],
                destination.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void recoveryNeverBringsBackTheEntriesOfADestinationDeletedByARecord() throws Exception {
        MessageStore store = MessageStore.open(TestRecords.config(dir), deletingOnRecord());
        store.checkpoint();
        for (int i = 0; i < 50; i++) {
            store.append(TestRecords.record("Q.gone", 0, i, 10), false);
        }
        store.append(deletion("Q.gone"), true).join();
        store.append(TestRecords.record("Q.other", 0, 0, 10), true).join();
        TestRecords.awaitDispatched(store);
        assertEquals(List.of("Q%2Eother"), directories());
        store.closeAbruptly();

        try (MessageStore reopened = MessageStore.open(TestRecords.config(dir), deletingOnRecord())) {
            assertTrue(reopened.recoveryReport().recordsScanned() >= 52, "the records were dispatched again");
            assertEquals(List.of("Q%2Eother"), directories());
            assertEquals(0, reopened.maxQueueOffset("Q.gone", 0));
        }
    }
}
