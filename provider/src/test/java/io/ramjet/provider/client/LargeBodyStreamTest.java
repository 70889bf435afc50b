package io.ramjet.provider.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.model.record.LargeBodyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A large body's chunks as {@link LargeBodyStream} reads them. The broker is replaced by an answer
 * per chunk because the case under test, one chunk failing while the next ones would still be
 * served (a timeout on a loaded connection), is not one a real broker produces on demand; the
 * stream through real brokers is covered by {@code LargeMessagesTest} and reliability's
 * {@code LargeMessageTest}.
 */
class LargeBodyStreamTest {

    private static final int CHUNK = 4;

    @Test
    void aBodyIsReadChunkByChunkInTheTablesOrder() throws IOException {
        try (InputStream body = LargeBodyStream.open(chunksFailingAt(-1), new ChunkArrays(), "broker", "q", table(3))) {
            assertArrayEquals(new byte[] {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, body.readAllBytes());
        }
    }

    /** Reading on after a failed chunk must not skip to the chunk after it: the body would have a gap. */
    @Test
    void aChunkThatCannotBeReadEndsTheStreamForEveryLaterRead() throws IOException {
        InputStream body = LargeBodyStream.open(chunksFailingAt(1), new ChunkArrays(), "broker", "q", table(3));
        byte[] first = new byte[CHUNK];
        assertEquals(CHUNK, body.read(first));
        IOException failure = assertThrows(IOException.class, () -> body.read(new byte[CHUNK]));
        IOException again = assertThrows(IOException.class, () -> body.read(new byte[CHUNK]),
                "a read after the failure returned bytes of a later chunk");
        assertEquals(failure.getMessage(), again.getMessage());
        assertThrows(IOException.class, body::read);
        body.close();
    }

    private static LargeBodyDescriptor.Table table(int chunks) {
        long[] offsets = new long[chunks];
        for (int i = 0; i < chunks; i++) {
            offsets[i] = i;
        }
        return new LargeBodyDescriptor.Table(0, 7, (long) chunks * CHUNK, (long) chunks * CHUNK, offsets);
    }

    /** Chunk {@code i} (its "offset" is its index) is {@code CHUNK} bytes of value i; chunk {@code failing} times out. */
    private static BrokerRequests chunksFailingAt(int failing) {
        return (BrokerRequests) Proxy.newProxyInstance(BrokerRequests.class.getClassLoader(),
                new Class<?>[] {BrokerRequests.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("readChunk")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    int index = (int) (long) (Long) args[3];
                    if (index == failing) {
                        return CompletableFuture.failedFuture(new ClientException(ClientException.Reason.TIMEOUT,
                                ClientException.Outcome.OUTCOME_UNKNOWN, "no answer within 30000 ms", null));
                    }
                    byte[] into = args[4] != null && ((byte[]) args[4]).length >= CHUNK ? (byte[]) args[4] : new byte[CHUNK];
                    Arrays.fill(into, 0, CHUNK, (byte) index);
                    return CompletableFuture.completedFuture(ByteBuffer.wrap(into, 0, CHUNK).slice());
                });
    }
}
