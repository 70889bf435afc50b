package io.ramjet.reliability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a power cut leaves of a broker's data directory, applied after its process was killed:
 * every file rewritten as its {@link ShadowFiles} shadow says its completed forces left it, and
 * everything else in it zeroed (as a page never written back reads), a file replaced whole cut to
 * its durable length; a file with no shadow is zeroed whole. The directory entries themselves are kept (files created, renamed or deleted stay
 * so), and so is {@code lock}.
 */
final class PowerCut {

    private PowerCut() {
    }

    /** What a cut changed: files rewritten, and bytes that differed from their durable image (unforced writes lost). */
    record Result(int files, long droppedBytes) {
    }

    static Result apply(Path dataDir, Path shadowDir) throws IOException {
        long dropped = 0;
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dataDir)) {
            files = walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals("lock")).toList();
        }
        for (Path file : files) {
            Path shadow = shadowDir.resolve(dataDir.relativize(file).toString());
            byte[] durable = Files.exists(shadow) ? Files.readAllBytes(shadow) : new byte[0];
            boolean exact = Files.exists(ShadowFiles.exactMarker(shadow));
            long length = exact ? durable.length : Math.max(Files.size(file), durable.length);
            dropped += differing(Files.readAllBytes(file), durable, length);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(length);
                ByteBuffer bytes = ByteBuffer.wrap(durable);
                while (bytes.hasRemaining()) {
                    channel.write(bytes, bytes.position());
                }
                ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
                for (long at = durable.length; at < length; at += zeros.capacity()) {
                    zeros.clear().limit((int) Math.min(zeros.capacity(), length - at));
                    channel.write(zeros, at);
                }
            }
        }
        return new Result(files.size(), dropped);
    }

    /** How many of the first {@code length} bytes of {@code current} differ from {@code durable} followed by zeros. */
    private static long differing(byte[] current, byte[] durable, long length) {
        long count = 0;
        for (int i = 0; i < length; i++) {
            byte was = i < current.length ? current[i] : 0;
            byte stays = i < durable.length ? durable[i] : 0;
            if (was != stays) {
                count++;
            }
        }
        return count;
    }
}
