package io.ramjet.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * A small state file kept as two copies, {@code name} and {@code name.b}, written in turn and in
 * place: truncated, written, forced. The caller's format must carry its own checksum, so that a
 * copy torn by a crash is recognised and the other one, the previous state, is used. This costs
 * one force a write where writing a temporary file and renaming it over the old cost two forces,
 * a rename and a directory force. The first copy has the name the single file had, so a file
 * written before there were two copies is read as one.
 *
 * <p>Threading: {@link #readNewest} then {@link #write}, from one thread at a time. After a
 * crash: at most the copy being written is damaged; the next write goes to the other copy only
 * after a read chose it, so a write never overwrites the one valid copy.
 */
public final class AlternatingFile {

    private final Path[] copies;
    private final ForceRecorder recorder;
    private int next;

    public AlternatingFile(Path directory, String name, ForceRecorder recorder) {
        this.recorder = recorder;
        this.copies = new Path[] {directory.resolve(name), directory.resolve(name + ".b")};
    }

    /**
     * The newest valid copy: each copy that exists is given to {@code decode} (empty when it is
     * damaged) and the one with the highest {@code order} wins; the next write goes to the other.
     */
    public <T> Optional<T> readNewest(Function<byte[], Optional<T>> decode, ToLongFunction<T> order) {
        T newest = null;
        int newestCopy = -1;
        for (int i = 0; i < copies.length; i++) {
            Optional<T> decoded = read(copies[i]).flatMap(decode);
            if (decoded.isPresent() && (newest == null || order.applyAsLong(decoded.get()) > order.applyAsLong(newest))) {
                newest = decoded.get();
                newestCopy = i;
            }
        }
        next = newestCopy == 0 ? 1 : 0;
        return Optional.ofNullable(newest);
    }

    private static Optional<byte[]> read(Path copy) {
        try {
            return Optional.of(Files.readAllBytes(copy));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new StoreException("cannot read " + copy, e);
        }
    }

    /** Replaces the older copy with {@code bytes} and forces it; the directory too when the copy is new. */
    public void write(ByteBuffer bytes) {
        Path copy = copies[next];
        boolean created = !Files.exists(copy);
        try (FileChannel channel = OwnerOnly.open(copy, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer remaining = bytes.duplicate();
            while (remaining.hasRemaining()) {
                channel.write(remaining);
            }
            channel.force(false);
            recorder.replaced(copy, bytes.duplicate());
        } catch (IOException e) {
            throw new StoreException("cannot write " + copy, e);
        }
        if (created) {
            DurableRename.forceDirectory(copy.getParent());
        }
        next ^= 1;
    }

    /**
     * Writes as {@link #write} does, then deletes the other copy: for a state that changed while
     * its order did not, which a tie in {@link #readNewest} would not choose. A crash in between
     * leaves two copies of equal order, either of which may be read.
     */
    public void replace(ByteBuffer bytes) {
        write(bytes);
        Path older = copies[next];
        try {
            Files.deleteIfExists(older);
        } catch (IOException e) {
            throw new StoreException("cannot delete " + older, e);
        }
        DurableRename.forceDirectory(older.getParent());
    }

    /**
     * Deletes both copies, so that nothing is read until the next write (which goes to the first
     * copy): for a state that must go back, which the newest-wins rule of {@link #readNewest}
     * would otherwise never choose.
     */
    public void deleteAll() {
        for (Path copy : copies) {
            try {
                Files.deleteIfExists(copy);
            } catch (IOException e) {
                throw new StoreException("cannot delete " + copy, e);
            }
        }
        next = 0;
        DurableRename.forceDirectory(copies[0].getParent());
    }
}
