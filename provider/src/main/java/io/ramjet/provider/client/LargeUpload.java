package io.ramjet.provider.client;

import io.netty.buffer.ByteBuf;
import io.ramjet.protocol.command.ChunkWriteRequest;
import io.ramjet.protocol.command.ChunkWriteResponse;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.model.record.LargeBodyDescriptor;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.provider.client.ClientException.Reason;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.zip.Deflater;
import java.util.zip.DeflaterInputStream;

/**
 * Writes a large message's body to one broker as chunks (LARGE_CHUNK_WRITE), at most
 * {@link #CHUNKS_IN_FLIGHT} unanswered at a time, and gives back the chunk table for its SEND.
 * Memory: about {@code (CHUNKS_IN_FLIGHT + 1) * chunkSize} bytes of direct memory, whatever the
 * body's size, and no copy of a chunk on the heap ({@link UploadChunks}). Runs on the calling
 * thread, which it blocks (a stream body is read there); one upload per call.
 */
final class LargeUpload {

    /** Chunks written and not yet answered: enough to keep the broker's disk busy while the next is read. */
    static final int CHUNKS_IN_FLIGHT = 4;
    /** The largest chunk, well below the brokers' default record and frame limits. */
    static final int MAX_CHUNK = 1 << 20;

    private static final SecureRandom IDS = new SecureRandom();

    private final RemotingClient remoting;
    private final Duration timeout;
    private final int chunkSize;
    private final boolean deflate;

    LargeUpload(RemotingClient remoting, Duration timeout, int chunkSize, boolean deflate) {
        this.remoting = remoting;
        this.timeout = timeout;
        this.chunkSize = Math.min(chunkSize, MAX_CHUNK);
        this.deflate = deflate;
    }

    /**
     * Writes the body of {@code m} (its stream if it has one, else its bytes) to {@code address}.
     *
     * @return the encoded chunk table
     * @throws ClientException if a chunk is refused or lost, or the stream fails; the chunks
     *                         written are orphans the broker never shows
     */
    byte[] upload(String address, OutgoingMessage m) throws ClientException {
        if (m.bodyStream() instanceof SingleUseStream once && !once.take()) {
            throw ClientException.refused(Reason.INVALID, "the body stream of a message to " + m.kind() + " '"
                    + m.destination() + "' was read by an earlier attempt to send it, which failed: not sent again");
        }
        long uploadId = nonZeroId();
        CountingStream counted = m.bodyStream() == null ? null : new CountingStream(m.bodyStream());
        Deflater deflater = deflate ? new Deflater(Deflater.BEST_SPEED, true) : null;
        UploadChunks source;
        if (deflate) {
            InputStream plain = counted != null ? counted : new ByteArrayInputStream(m.body());
            source = UploadChunks.readFrom(new DeflaterInputStream(plain, deflater, 64 * 1024), chunkSize);
        } else {
            source = counted != null ? UploadChunks.readFrom(counted, chunkSize)
                    : UploadChunks.slicesOf(m.body(), chunkSize);
        }
        Semaphore window = new Semaphore(CHUNKS_IN_FLIGHT);
        List<CompletableFuture<Long>> chunks = new ArrayList<>();
        long stored = 0;
        try {
            for (int index = 0; ; index++) {
                ByteBuf chunk = source.next();
                int length = chunk.readableBytes();
                if (length == 0 && index > 0) {
                    chunk.release();
                    break;
                }
                window.acquireUninterruptibly();
                CompletableFuture<Long> written = remoting.invoke(address, Frame.request(CommandCode.LARGE_CHUNK_WRITE,
                                new ChunkWriteRequest(m.destination(), m.kind(), uploadId, index), chunk), timeout)
                        .thenApply(LargeUpload::offsetOf);
                written.whenComplete((offset, failure) -> window.release());
                chunks.add(written);
                stored += length;
                if (written.isCompletedExceptionally() || length < chunkSize) {
                    break;
                }
            }
        } catch (IOException e) {
            throw ClientException.refused(Reason.INVALID, "reading the body of a large message to " + m.kind()
                    + " '" + m.destination() + "': " + e);
        } finally {
            if (deflater != null) {
                deflater.end();
            }
        }
        long[] offsets = new long[chunks.size()];
        for (int i = 0; i < offsets.length; i++) {
            try {
                offsets[i] = chunks.get(i).join();
            } catch (RuntimeException e) {
                throw RemotingFailures.of(e);
            }
        }
        return LargeBodyDescriptor.encode(new LargeBodyDescriptor.Table(deflate ? LargeBodyDescriptor.DEFLATED : 0,
                uploadId, counted != null ? counted.count() : m.body().length, stored, offsets));
    }

    private static long offsetOf(Frame response) {
        try {
            return response.header(ChunkWriteResponse.class).physicalOffset();
        } finally {
            Frames.release(response);
        }
    }

    private static long nonZeroId() {
        long id;
        do {
            id = IDS.nextLong();
        } while (id == 0);
        return id;
    }

    /** Counts the bytes of the body as the application gave it, before any compression. */
    private static final class CountingStream extends InputStream {
        private final InputStream in;
        private long count;

        CountingStream(InputStream in) {
            this.in = in;
        }

        long count() {
            return count;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            int n = in.read(into, offset, length);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }
}
