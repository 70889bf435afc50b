package io.ramjet.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One fixed-size file of the CommitLog or of a ConsumeQueue, memory-mapped whole, named by the
 * 20-digit offset of its first byte or entry.
 *
 * <p>On disk: exactly {@link #size()} bytes, preallocated with zeros when created (written
 * under a temporary name and renamed), so a full disk fails at creation and never as a fault
 * while writing. Bytes are written either through the mapping or, cheaper when each write is
 * soon forced, by {@link #write} through the file channel; both land in the same page cache, so
 * readers of the mapping see either. Threading: one writer at a time; readers read absolute
 * indexes below what the owner has published; {@link #force} may run on any one thread. A
 * channel closed by an interrupted thread is reopened. After a crash: a file is complete or
 * absent; leftover temporary files are deleted by {@link #list}. The mapping is left to the
 * garbage collector, so a reader holding a slice of a deleted file never faults. After a power
 * loss: a file's name is forced with its first bytes ({@link #install}), see {@link DurableRename}.
 */
final class MappedFile {

    private static final Pattern NAME = Pattern.compile("\\d{20}");
    private static final String TEMPORARY_SUFFIX = ".tmp";
    private static final int ZERO_CHUNK = 1 << 20;
    /**
     * Zeros written between two forces while a file is prepared. Forced once at the end, a 1 GiB
     * segment's zeros go to the disk in one burst that holds a concurrent fdatasync (the
     * CommitLog's group commit, so every persistent send) for hundreds of milliseconds; forced
     * every 4 MiB, the bursts are small enough that a send waits tens of milliseconds at worst,
     * and the file takes no longer to fill (docs/benchmarks.md has the waits measured).
     */
    private static final int FORCE_EVERY = 4 << 20;

    private final Path path;
    private final long start;
    private final MappedByteBuffer buffer;
    private volatile FileChannel channel;
    /** Directories whose entries naming this file are not forced yet; empty once they are. */
    private volatile List<Path> unforcedDirectories = List.of();
    /** When {@link #install} renamed it, by {@link System#nanoTime()}; published with {@link #unforcedDirectories}. */
    private long installedNanos;

    private MappedFile(Path path, long start, MappedByteBuffer buffer, FileChannel channel) {
        this.path = path;
        this.start = start;
        this.buffer = buffer;
        this.channel = channel;
    }

    static String name(long start) {
        return String.format("%020d", start);
    }

    /** Creates and maps a zero-filled file for {@code start} in {@code directory}. */
    static MappedFile create(Path directory, long start, int size, long minFreeSpace) {
        List<Path> changed = createDirectories(directory);
        return install(prepare(directory, start, size, minFreeSpace, TEMPORARY_SUFFIX),
                directory.resolve(name(start)), changed);
    }

    /**
     * Creates {@code directory} and its missing parents; returns the directories whose entries a
     * new file in it changes, to force with the file: {@code directory} and the parent of every
     * directory created.
     */
    static List<Path> createDirectories(Path directory) {
        List<Path> changed = new ArrayList<>();
        changed.add(directory);
        for (Path d = directory; d != null && !Files.isDirectory(d); d = d.getParent()) {
            if (d.getParent() != null) {
                changed.add(d.getParent());
            }
        }
        try {
            OwnerOnly.createDirectories(directory);
        } catch (IOException e) {
            throw new StoreException("cannot create " + directory, e);
        }
        return changed;
    }

    /**
     * Writes a zero-filled file for {@code start} under a name ending in {@code suffix}, which
     * {@link #list} neither returns nor keeps, so a crash before {@link #install} leaves nothing.
     * The zeros are forced as they go ({@link #FORCE_EVERY}), so that preparing the next segment
     * never queues a burst of writes ahead of the active segment's group commit.
     */
    static Path prepare(Path directory, long start, int size, long minFreeSpace, String suffix) {
        Path temporary = directory.resolve(name(start) + suffix);
        try {
            OwnerOnly.createDirectories(directory);
            checkRoom(directory, start, size, minFreeSpace, suffix);
            try (FileChannel channel = OwnerOnly.open(temporary, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                ByteBuffer zeros = ByteBuffer.allocateDirect(Math.min(ZERO_CHUNK, size));
                long written = 0;
                long forced = 0;
                while (written < size) {
                    zeros.clear().limit((int) Math.min(zeros.capacity(), size - written));
                    written += channel.write(zeros, written);
                    if (written - forced >= FORCE_EVERY) {
                        channel.force(false);
                        forced = written;
                    }
                }
                channel.force(true);
            }
            return temporary;
        } catch (IOException e) {
            deleteQuietly(temporary);
            throw new StoreFullException("cannot create " + temporary + " of " + size + " bytes", e);
        }
    }

    /**
     * Throws unless a file of {@code size} bytes leaves {@code minFreeSpace} usable in the
     * existing {@code directory}: what {@link #prepare} checks before it writes.
     *
     * @throws IOException if the directory's file system cannot be asked
     */
    static void checkRoom(Path directory, long start, int size, long minFreeSpace, String suffix) throws IOException {
        long usable = Files.getFileStore(directory).getUsableSpace();
        if (usable - size < minFreeSpace) {
            throw new StoreFullException("cannot create " + directory.resolve(name(start) + suffix) + " of " + size
                    + " bytes: " + usable + " bytes usable, " + minFreeSpace + " must stay free");
        }
    }

    /** Renames a {@link #prepare}d file to its final name, in the same directory, and maps it. */
    static MappedFile install(Path prepared) {
        String name = prepared.getFileName().toString();
        return install(prepared, prepared.resolveSibling(name.substring(0, name.indexOf('.'))),
                List.of(prepared.getParent()));
    }

    /**
     * Renames a {@link #prepare}d file to {@code path} (on the same file system) and maps it; the
     * {@code changed} directories are forced before the file's first {@link #force} or
     * {@link #forceWritten} returns, so that bytes reported durable never sit in a file whose
     * name a power loss could take back.
     */
    static MappedFile install(Path prepared, Path path, List<Path> changed) {
        try {
            Files.move(prepared, path, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(prepared);
            throw new StoreException("cannot rename " + prepared + " to " + path, e);
        }
        MappedFile file = open(path);
        file.installedNanos = System.nanoTime();
        file.unforcedDirectories = List.copyOf(changed);
        return file;
    }

    /** Maps an existing file whose name is its start offset. */
    static MappedFile open(Path path) {
        FileChannel channel = null;
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            long size = channel.size();
            if (size > Integer.MAX_VALUE) {
                throw new StoreException(path + " is larger than 2 GiB");
            }
            MappedByteBuffer buffer = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
            return new MappedFile(path, Long.parseLong(path.getFileName().toString()), buffer, channel);
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            throw e instanceof StoreException se ? se : new StoreException("cannot map " + path, e);
        }
    }

    /** The files of {@code directory} in offset order, after deleting prepared or unfinished ones. */
    static List<Path> list(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<Path> files = new ArrayList<>();
        try (Stream<Path> entries = Files.list(directory)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                String name = p.getFileName().toString();
                if (name.matches("\\d{20}\\..+")) {
                    Files.deleteIfExists(p);
                } else if (NAME.matcher(name).matches()) {
                    files.add(p);
                }
            }
        } catch (IOException e) {
            throw new StoreException("cannot list " + directory, e);
        }
        files.sort(null);
        return files;
    }

    Path path() {
        return path;
    }

    long start() {
        return start;
    }

    int size() {
        return buffer.capacity();
    }

    long end() {
        return start + size();
    }

    /** The shared mapping: absolute access only, never its position or limit. */
    ByteBuffer buffer() {
        return buffer;
    }

    /** Writes {@code source}'s remaining bytes at {@code index} through the file channel. */
    void write(ByteBuffer source, int index) {
        boolean interrupted = false;
        try {
            for (int attempt = 0; ; attempt++) {
                ByteBuffer bytes = source.duplicate();
                long at = index;
                try {
                    while (bytes.hasRemaining()) {
                        at += channel.write(bytes, at);
                    }
                    return;
                } catch (ClosedChannelException e) {
                    interrupted |= Thread.interrupted();
                    reopen(e, attempt);
                } catch (IOException e) {
                    throw new StoreException("cannot write " + path, e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Forces bytes written through the mapping in [from, to). */
    void force(int from, int to) {
        force(from, to, new DirectoryForces());
    }

    /**
     * As {@link #force(int, int)}, the directories this file's name waits for forced through
     * {@code directories}: for a caller forcing the first entries of many new files at once.
     */
    void force(int from, int to, DirectoryForces directories) {
        if (to > from) {
            forceDirectories(directories);
            try {
                buffer.force(from, to - from);
            } catch (UncheckedIOException e) {
                throw new StoreException("cannot force " + path, e);
            }
        }
    }

    /** Forces bytes written by {@link #write}. */
    void forceWritten() {
        if (!unforcedDirectories.isEmpty()) {
            // once per new segment: the group commit's every other force allocates nothing here
            forceDirectories(new DirectoryForces());
        }
        boolean interrupted = false;
        try {
            for (int attempt = 0; ; attempt++) {
                try {
                    channel.force(false);
                    return;
                } catch (ClosedChannelException e) {
                    interrupted |= Thread.interrupted();
                    reopen(e, attempt);
                } catch (IOException e) {
                    throw new StoreException("cannot force " + path, e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The directories not forced since this file was named in them (for tests). */
    List<Path> unforcedDirectories() {
        return unforcedDirectories;
    }

    private void forceDirectories(DirectoryForces forces) {
        List<Path> directories = unforcedDirectories;
        if (!directories.isEmpty()) {
            directories.forEach(directory -> forces.forceSince(directory, installedNanos));
            unforcedDirectories = List.of();
        }
    }

    private synchronized void reopen(ClosedChannelException cause, int attempt) {
        if (attempt >= 2) {
            throw new StoreException("channel of " + path + " keeps closing", cause);
        }
        if (!channel.isOpen()) {
            try {
                channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new StoreException("cannot reopen " + path, e);
            }
        }
    }

    /**
     * Closes the channel of a file written only through its mapping, which stays valid: a store
     * of 10,000 queues would otherwise hold 10,000 descriptors. {@link #write} and
     * {@link #forceWritten} reopen it if ever called.
     */
    MappedFile withoutChannel() {
        closeQuietly(channel);
        return this;
    }

    void close() {
        closeQuietly(channel);
    }

    /** Zeros bytes [from, size) and forces them. */
    void zeroFrom(int from) {
        zero(from, size());
    }

    /** Zeros bytes [from, to) and forces them. */
    void zero(int from, int to) {
        byte[] zeros = new byte[Math.min(ZERO_CHUNK, Math.max(1, to - from))];
        for (int at = from; at < to; at += zeros.length) {
            buffer.put(at, zeros, 0, Math.min(zeros.length, to - at));
        }
        force(from, to);
    }

    void delete() {
        close();
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new StoreException("cannot delete " + path, e);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing was pending on it
            }
        }
    }

    static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // the temporary file is deleted again by the next list()
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
