package io.ramjet.bench.peer;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.activemq.artemis.core.io.IOCallback;
import org.apache.activemq.artemis.core.io.SequentialFile;
import org.apache.activemq.artemis.core.io.SequentialFileFactory;
import org.apache.activemq.artemis.core.io.aio.AIOSequentialFileFactory;
import org.apache.activemq.artemis.core.io.nio.NIOSequentialFileFactory;
import org.apache.activemq.artemis.core.server.JournalType;

/**
 * The disk test {@code artemis create} runs to choose {@code journal-buffer-timeout} (Artemis's
 * {@code SyncCalculation}, not on the benchmark's class path as it lives in the CLI): five tries
 * of 250 durable 4 KiB writes through Artemis's own journal file factory for the chosen journal
 * type, the fastest try in whole milliseconds, and the timeout is one write's share of it.
 */
final class ArtemisSyncTest {

    private static final int BLOCK = 4096;
    private static final int WRITES = 250;
    private static final int TRIES = 5;

    private ArtemisSyncTest() {
    }

    /** The timeout in nanoseconds that {@code artemis create} would write for {@code dir}. */
    static long bufferTimeoutNanos(Path dir, JournalType type, int maxAio) throws Exception {
        SequentialFileFactory factory = type == JournalType.ASYNCIO
                ? new AIOSequentialFileFactory(dir.toFile(), maxAio).setDatasync(true)
                : new NIOSequentialFileFactory(dir.toFile(), 1).setDatasync(true);
        factory.start();
        if (factory instanceof AIOSequentialFileFactory aio) {
            aio.disableBufferReuse();
            factory.setAlignment(BLOCK);
        } else {
            ((NIOSequentialFileFactory) factory).disableBufferReuse();
        }
        SequentialFile file = factory.createSequentialFile("journal-test.tmp");
        try {
            ByteBuffer block = factory.newBuffer(BLOCK);
            byte[] bytes = new byte[block.remaining()];
            Arrays.fill(bytes, (byte) 't');
            block.put(bytes).position(0);
            file.open();
            file.fill(block.remaining() * WRITES);
            file.close();
            long best = Long.MAX_VALUE;
            for (int attempt = 0; attempt < TRIES; attempt++) {
                file.open();
                file.position(0);
                CountDownLatch written = new CountDownLatch(WRITES);
                IOCallback done = new IOCallback() {
                    @Override
                    public void done() {
                        written.countDown();
                    }

                    @Override
                    public void onError(int errorCode, String errorMessage) {
                        // the latch then times out and the test fails below
                    }
                };
                long start = System.currentTimeMillis();
                for (int i = 0; i < WRITES; i++) {
                    block.position(0);
                    file.writeDirect(block, true, done);
                }
                if (!written.await(5, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the journal sync test did not complete its writes");
                }
                best = Math.min(best, System.currentTimeMillis() - start);
                file.close();
            }
            factory.releaseDirectBuffer(block);
            return best == 0 ? 0 : (long) (TimeUnit.MILLISECONDS.toNanos(1) / ((double) WRITES / best));
        } finally {
            file.close();
            file.delete();
            factory.stop();
        }
    }
}
