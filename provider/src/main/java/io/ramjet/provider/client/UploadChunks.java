package io.ramjet.provider.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;

/**
 * The chunks of a large body to upload, in order, each {@code chunkSize} bytes but the last:
 * slices of a body already in memory, not copied (the frame encoder copies each into its socket
 * buffer), or a stream's bytes read into pooled direct buffers through one small array, so that
 * the heap holds no chunk of it. Each chunk returned is the caller's, to hand to a request
 * (which releases it) or to release. Not thread-safe: one upload's thread.
 */
final class UploadChunks {

    /** The array a stream is read through into a chunk's direct buffer. */
    private static final int TRANSFER = 64 * 1024;

    private final byte[] body;
    private final InputStream stream;
    private final int chunkSize;
    private byte[] transfer;
    private int at;

    private UploadChunks(byte[] body, InputStream stream, int chunkSize) {
        this.body = body;
        this.stream = stream;
        this.chunkSize = chunkSize;
    }

    /** The chunks of {@code body}, views of it: the caller must not change it until they are written. */
    static UploadChunks slicesOf(byte[] body, int chunkSize) {
        return new UploadChunks(body, null, chunkSize);
    }

    /** The chunks of what {@code stream} reads to its end, in pooled direct buffers. */
    static UploadChunks readFrom(InputStream stream, int chunkSize) {
        return new UploadChunks(null, stream, chunkSize);
    }

    /**
     * The next chunk: {@code chunkSize} bytes, fewer only at the body's end, none once it is all
     * given.
     *
     * @throws IOException as the stream fails; no chunk is then left to release
     */
    ByteBuf next() throws IOException {
        if (stream == null) {
            int length = Math.min(chunkSize, body.length - at);
            ByteBuf slice = Unpooled.wrappedBuffer(body, at, length);
            at += length;
            return slice;
        }
        if (transfer == null) {
            transfer = new byte[Math.min(TRANSFER, chunkSize)];
        }
        ByteBuf chunk = ByteBufAllocator.DEFAULT.directBuffer(chunkSize, chunkSize);
        try {
            while (chunk.isWritable()) {
                int n = stream.read(transfer, 0, Math.min(transfer.length, chunk.writableBytes()));
                if (n < 0) {
                    break;
                }
                chunk.writeBytes(transfer, 0, n);
            }
            return chunk;
        } catch (IOException | RuntimeException e) {
            chunk.release();
            throw e;
        }
    }
}
