package io.ramjet.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@link ConsumeQueue} of the store, under {@code consumequeue/<destination>/<queue id>/},
 * the destination directory named by {@link QueueKey#directoryName()}. A hashed directory name
 * (a long destination name) holds the real name in a {@value QueueKey#NAME_FILE} file, written
 * and forced before any queue directory is created in it and deleted after every one of them.
 *
 * <p>Threading: {@link #put}, {@link #deleteQueues} and the maintenance calls from the
 * dispatcher (or, during recovery, the opening thread) or the checkpoint thread as each says;
 * lookups from any thread. After a crash: each queue recovers itself against the checkpoint,
 * see {@link ConsumeQueue}; what a deletion interrupted by the crash left is removed on load
 * (a hashed directory without its name file, queue directories without files), or by the
 * deletion dispatched again.
 *
 * <p>One preparer thread, the table's own, zero-fills every queue's next file ahead of need, and
 * keeps {@value #FIRST_FILES} first files ready for new queues in {@value #POOL_DIRECTORY}, a name
 * no destination's directory can have (the encoding never keeps a dot).
 */
final class ConsumeQueueTable implements ConsumeQueueWriter {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumeQueueTable.class);
    static final String POOL_DIRECTORY = ".pool";
    /**
     * First files kept ready: a burst of new queues takes them while the preparer, one thread,
     * makes more; 20 KiB each.
     */
    static final int FIRST_FILES = 32;

    private final Path directory;
    private final int entriesPerFile;
    private final long minFreeSpace;
    private final ForceRecorder recorder;
    private final boolean existed;
    private final Map<QueueKey, ConsumeQueue> queues = new ConcurrentHashMap<>();
    private final ExecutorService preparer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ramjet-queue-prepare");
        t.setDaemon(true);
        return t;
    });
    private final FirstFilePool firstFiles;

    /** @param minFreeSpace usable bytes that must remain after creating a queue file */
    ConsumeQueueTable(Path directory, int entriesPerFile, long minFreeSpace, ForceRecorder recorder) {
        this.recorder = recorder;
        this.directory = directory;
        this.entriesPerFile = entriesPerFile;
        this.minFreeSpace = minFreeSpace;
        this.existed = Files.isDirectory(directory);
        this.firstFiles = new FirstFilePool(directory.resolve(POOL_DIRECTORY),
                ConsumeQueueEntryDescriptor.position(ConsumeQueueEntryDescriptor.nextFileEntries(0, entriesPerFile)),
                minFreeSpace, preparer, FIRST_FILES);
        load();
        try {
            OwnerOnly.createDirectories(directory);
        } catch (IOException e) {
            throw new StoreException("cannot create " + directory, e);
        }
    }

    private void load() {
        if (!existed) {
            return;
        }
        try (Stream<Path> destinations = Files.list(directory)) {
            for (Path destination : (Iterable<Path>) destinations::iterator) {
                if (destination.getFileName().toString().equals(POOL_DIRECTORY)) {
                    continue;
                }
                String name = nameOf(destination);
                if (name == null) {
                    LOG.warn("{} has no {} file: left by an interrupted deletion, deleting it", destination,
                            QueueKey.NAME_FILE);
                    deleteTree(destination);
                    continue;
                }
                try (Stream<Path> ids = Files.list(destination)) {
                    for (Path id : (Iterable<Path>) ids::iterator) {
                        String idName = id.getFileName().toString();
                        if (!Files.isDirectory(id) || !idName.matches("\\d+")) {
                            continue;
                        }
                        if (MappedFile.list(id).isEmpty()) {
                            deleteTree(id);
                            continue;
                        }
                        QueueKey key = new QueueKey(name, Integer.parseInt(idName));
                        queues.put(key, new ConsumeQueue(id, entriesPerFile, minFreeSpace, preparer, firstFiles, recorder));
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new StoreException("cannot load ConsumeQueues from " + directory, e);
        }
    }

    /** The destination a directory holds, or null for a hashed one that lost its name file. */
    private static String nameOf(Path destination) throws IOException {
        String directoryName = destination.getFileName().toString();
        if (!QueueKey.isHashed(directoryName)) {
            return QueueKey.decodeDirectoryName(directoryName);
        }
        try {
            return Files.readString(destination.resolve(QueueKey.NAME_FILE), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Whether the {@code consumequeue} directory was there when the store opened. */
    boolean existed() {
        return existed;
    }

    /** The queue, or null if nothing was ever put in it. */
    ConsumeQueue find(String destination, int queueId) {
        return queues.get(new QueueKey(destination, queueId));
    }

    @Override
    public boolean put(String destination, int queueId, long queueOffset, long physicalOffset, int size,
                       long tagSignature) {
        QueueKey key = new QueueKey(destination, queueId);
        ConsumeQueue queue = queues.get(key);
        if (queue == null) {
            queue = queues.computeIfAbsent(key, this::newQueue);
        }
        return queue.put(queueOffset, physicalOffset, size, tagSignature);
    }

    private ConsumeQueue newQueue(QueueKey key) {
        String directoryName = key.directoryName();
        Path destination = directory.resolve(directoryName);
        if (QueueKey.isHashed(directoryName)) {
            writeName(destination, key.destination());
        }
        return new ConsumeQueue(destination.resolve(Integer.toString(key.queueId())), entriesPerFile, minFreeSpace,
                preparer, firstFiles, recorder);
    }

    /**
     * Writes the name file of a hashed directory, under a temporary name, forced, then renamed;
     * the directories it changed are forced.
     */
    private void writeName(Path destination, String name) {
        Path file = destination.resolve(QueueKey.NAME_FILE);
        if (Files.exists(file)) {
            return;
        }
        Path temporary = destination.resolve(QueueKey.NAME_FILE + ".tmp");
        try {
            List<Path> changed = MappedFile.createDirectories(destination);
            try (FileChannel channel = OwnerOnly.open(temporary, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                ByteBuffer bytes = StandardCharsets.UTF_8.encode(name);
                channel.write(bytes.duplicate());
                channel.force(true);
                recorder.replaced(temporary, bytes);
            }
            DurableRename.move(temporary, file, recorder);
            changed.stream().filter(d -> !d.equals(destination)).forEach(DurableRename::forceDirectory);
        } catch (IOException e) {
            MappedFile.deleteQuietly(temporary);
            throw new StoreFullException("cannot write " + file, e);
        }
    }

    @Override
    public void deleteQueues(String destination) {
        List<QueueKey> keys = queues.keySet().stream().filter(k -> k.destination().equals(destination)).toList();
        for (QueueKey key : keys) {
            ConsumeQueue queue = queues.remove(key);
            if (queue != null) {
                queue.deleteAll();
            }
        }
        Path path = directory.resolve(QueueKey.directoryName(destination));
        if (Files.exists(path)) {
            deleteTree(path);
            LOG.info("ConsumeQueues of {} deleted", destination);
        }
    }

    /** Deletes files before directories, and a directory's name file after its queue directories. */
    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            List<Path> all = paths.sorted(Comparator.comparing(Path::getNameCount).reversed()
                    .thenComparing(p -> p.getFileName().toString().equals(QueueKey.NAME_FILE))).toList();
            for (Path p : all) {
                Files.deleteIfExists(p);
            }
        } catch (NoSuchFileException e) {
            // already gone
        } catch (IOException e) {
            throw new StoreException("cannot delete " + root, e);
        }
    }

    /** The destinations that have queues. */
    Set<String> destinations() {
        return queues.keySet().stream().map(QueueKey::destination).collect(Collectors.toUnmodifiableSet());
    }

    boolean isEmpty() {
        return queues.isEmpty();
    }

    void recover(long checkpoint, ConsumeQueue.CommittedHalfCheck halves) {
        queues.values().forEach(q -> q.recover(checkpoint, halves));
    }

    void flush() {
        DirectoryForces directories = new DirectoryForces();
        queues.values().forEach(q -> q.flush(directories));
    }

    void close() {
        queues.values().forEach(ConsumeQueue::close);
        // the queues waited for their next files; what is left are first files, not needed any more
        firstFiles.close();
        preparer.shutdownNow();
        try {
            if (!preparer.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("{} still preparing a first file after 10 s", preparer);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deleteTree(directory.resolve(POOL_DIRECTORY));
    }

    int deleteFilesBelow(long physicalOffset) {
        return queues.values().stream().mapToInt(q -> q.deleteFilesBelow(physicalOffset)).sum();
    }
}
