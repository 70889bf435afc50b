package io.ramjet.provider.client;

import io.ramjet.model.record.LargeBodyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * A large message's body read from its broker chunk by chunk, as its chunk table names them,
 * {@link #READ_AHEAD} chunks asked for ahead of the one being read, so the next is on its way
 * while the application reads this one. Memory: {@code READ_AHEAD + 1} arrays of a chunk's
 * length, taken from the connection's {@link ChunkArrays} (or made as the first chunks arrive),
 * each filled again once read, and given back once the body is read or the stream closed: reading
 * a body allocates no array per chunk, whatever its length. A chunk that cannot be read ends the
 * stream: every later read throws the same failure, so an application that catches it and reads on
 * never gets a body with a gap. Not thread-safe (a message body is read by one thread at a time).
 */
public final class LargeBodyStream extends InputStream {

    /** Chunks asked for beyond the one being read. */
    static final int READ_AHEAD = 2;

    private static final ByteBuffer NONE = ByteBuffer.allocate(0);

    private final BrokerRequests client;
    private final ChunkArrays arrays;
    private final String address;
    private final String destination;
    private final LargeBodyDescriptor.Table table;
    private final ArrayDeque<CompletableFuture<ByteBuffer>> coming = new ArrayDeque<>();
    /** Arrays read already, to be filled with the chunks asked for next. */
    private final ArrayDeque<byte[]> free = new ArrayDeque<>();
    private int nextAsked;
    private ByteBuffer chunk = NONE;
    /** The failure that ended the stream, thrown again by every later read. */
    private IOException failed;

    private LargeBodyStream(BrokerRequests client, ChunkArrays arrays, String address, String destination,
                            LargeBodyDescriptor.Table table) {
        this.client = client;
        this.arrays = arrays;
        this.address = address;
        this.destination = destination;
        this.table = table;
    }

    /**
     * The body, as the application sent it (inflated if it was stored compressed), from its start.
     *
     * @param arrays      where the chunks' arrays are taken from, and given back to once the
     *                    body is read or the stream closed
     * @param address     the broker that holds the message
     * @param destination the queue or topic it was received or browsed from, whose consume or
     *                    browse right the broker asks for
     */
    public static InputStream open(BrokerRequests client, ChunkArrays arrays, String address, String destination,
                                   LargeBodyDescriptor.Table table) {
        InputStream stored = new LargeBodyStream(client, arrays, address, destination, table);
        return table.deflated() ? new InflaterInputStream(stored, new Inflater(true), 64 * 1024) {
            @Override
            public void close() throws IOException {
                super.close();
                inf.end();
            }
        } : stored;
    }

    @Override
    public int read() throws IOException {
        while (!chunk.hasRemaining()) {
            if (!nextChunk()) {
                return -1;
            }
        }
        return chunk.get() & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (!chunk.hasRemaining()) {
            if (!nextChunk()) {
                return -1;
            }
        }
        int n = Math.min(length, chunk.remaining());
        chunk.get(into, offset, n);
        return n;
    }

    @Override
    public int available() {
        return chunk.remaining();
    }

    private boolean nextChunk() throws IOException {
        if (failed != null) {
            throw new IOException(failed.getMessage(), failed);
        }
        if (chunk.capacity() > 0) {
            free.add(chunk.array());
        }
        long[] offsets = table.chunkOffsets();
        while (nextAsked < offsets.length && coming.size() <= READ_AHEAD) {
            byte[] into = free.isEmpty() ? arrays.take() : free.poll();
            coming.add(client.readChunk(address, destination, table.uploadId(), offsets[nextAsked++], into));
        }
        CompletableFuture<ByteBuffer> next = coming.poll();
        chunk = NONE;
        if (next == null) {
            giveBack();
            return false;
        }
        try {
            chunk = next.join();
        } catch (RuntimeException e) {
            ClientException failure = ClientException.of(e);
            failed = new IOException("reading a chunk of a large message from " + address + ": "
                    + failure.getMessage(), failure);
            close();
            throw failed;
        }
        return true;
    }

    /** Gives the arrays read to {@link #arrays}; those of chunks still on their way once they arrive. */
    @Override
    public void close() {
        if (chunk.capacity() > 0) {
            free.add(chunk.array());
        }
        chunk = NONE;
        nextAsked = table.chunkOffsets().length;
        for (CompletableFuture<ByteBuffer> asked : coming) {
            asked.thenAccept(arrived -> arrays.give(arrived.array()));
        }
        coming.clear();
        giveBack();
    }

    private void giveBack() {
        for (byte[] array; (array = free.poll()) != null; ) {
            arrays.give(array);
        }
    }
}
