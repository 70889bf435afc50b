package io.ramjet.provider.jms;

import io.netty.buffer.Unpooled;
import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.ChunkReadRequest;
import io.ramjet.protocol.command.ChunkWriteRequest;
import io.ramjet.protocol.command.ChunkWriteResponse;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.broker.BrokerConfigBuilder;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.embedded.EmbeddedBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A LARGE_CHUNK_WRITE's chunk goes from the pooled buffer it arrived in into the CommitLog, and a
 * LARGE_CHUNK_READ's answer from the CommitLog into a pooled direct buffer: the broker's threads
 * allocate on the heap a small part of the bytes they move, over real sockets. Every path a
 * received chunk takes (stored, turned away by the login gate, refused by security, bad input,
 * left behind by a connection that closed) releases its buffer: Netty's leak detector runs at
 * PARANOID while this class runs ({@link NettyLeakCheck}) and any leak it reports fails the class.
 * {@code alice} may send to {@code large.#}, {@code bob} consume it, {@code eve} neither;
 * connections must log in.
 */
class LargeChunkBuffersTest {

    @RegisterExtension
    static final NettyLeakCheck LEAKS = new NettyLeakCheck();

    private static final String PASSWORD = "chunk secret";
    private static final String QUEUE = "large.buffers";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int MIB = 1 << 20;
    private static final int CHUNKS = 16;

    @TempDir
    static Path dir;
    private static EmbeddedBroker broker;
    private static final List<RemotingClient> clients = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        String hash = PasswordHash.of(PASSWORD.toCharArray()).encoded();
        Path users = Files.writeString(dir.resolve("users.properties"),
                "alice = " + hash + "\nbob = " + hash + "\neve = " + hash + "\n");
        Path roles = Files.writeString(dir.resolve("roles.properties"), "producers = alice\nconsumers = bob\n");
        Path permissions = Files.writeString(dir.resolve("permissions.properties"),
                "send large.# = producers\nconsume large.# = consumers\n");
        broker = EmbeddedBroker.start(dir.resolve("data"), c -> {
            BrokerConfigBuilder b = c.withDestinations(List.of(QUEUE), List.of()).withSecurity(users, false)
                    .toBuilder().rolesFile(roles).permissionsFile(permissions);
            b.store().segmentSize(64 * MIB);
            return b.build();
        });
    }

    @AfterAll
    static void stop() {
        clients.forEach(RemotingClient::close);
        if (broker != null) {
            broker.close();
        }
    }

    private static RemotingClient as(String user) throws Exception {
        RemotingClient client = new RemotingClient(RemotingClientConfig.defaults());
        clients.add(client);
        if (user != null) {
            client.invokeSync(broker.brokerAddress(), Frame.request(CommandCode.AUTHENTICATE,
                    new AuthenticateRequest(user, PASSWORD)), TIMEOUT);
        }
        return client;
    }

    private static Frame chunkWrite(long uploadId, int index, byte[] chunk) {
        return Frame.request(CommandCode.LARGE_CHUNK_WRITE,
                new ChunkWriteRequest(QUEUE, DestinationKind.QUEUE, uploadId, index), Unpooled.wrappedBuffer(chunk));
    }

    private static long write(RemotingClient client, long uploadId, int index, byte[] chunk) throws Exception {
        return client.invokeSync(broker.brokerAddress(), chunkWrite(uploadId, index, chunk), TIMEOUT)
                .header(ChunkWriteResponse.class).physicalOffset();
    }

    private static byte[] read(RemotingClient client, long uploadId, long offset) throws Exception {
        Frame answer = client.invokeSync(broker.brokerAddress(), Frame.request(CommandCode.LARGE_CHUNK_READ,
                new ChunkReadRequest(QUEUE, uploadId, offset)), TIMEOUT);
        try {
            return answer.bodyBytes();
        } finally {
            answer.body().release();
        }
    }

    private static int refusal(RemotingClient client, Frame request) {
        return assertThrows(RemotingCommandException.class,
                () -> client.invokeSync(broker.brokerAddress(), request, TIMEOUT)).status();
    }

    /** The heap bytes each live broker thread has allocated so far, by thread id. */
    private static Map<Long, Long> brokerAllocations() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Map<Long, Long> allocated = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("ramjet-server-io") || t.getName().startsWith("ramjet-broker")) {
                allocated.put(t.getId(), threads.getThreadAllocatedBytes(t.getId()));
            }
        }
        return allocated;
    }

    private static long allocatedSince(Map<Long, Long> before) {
        long sum = 0;
        for (Map.Entry<Long, Long> now : brokerAllocations().entrySet()) {
            sum += now.getValue() - before.getOrDefault(now.getKey(), 0L);
        }
        return sum;
    }

    @Test
    void chunksGoThroughTheBrokerWithoutHeapCopies() throws Exception {
        RemotingClient alice = as("alice");
        RemotingClient bob = as("bob");
        Random random = new Random(41);
        for (int round = 0; round < 2; round++) { // the first warms the paths up
            long uploadId = random.nextLong() | 1;
            byte[][] chunks = new byte[CHUNKS][MIB];
            long[] offsets = new long[CHUNKS];
            Map<Long, Long> beforeWrites = brokerAllocations();
            for (int i = 0; i < CHUNKS; i++) {
                random.nextBytes(chunks[i]);
                offsets[i] = write(alice, uploadId, i, chunks[i]);
            }
            long writing = allocatedSince(beforeWrites);
            Map<Long, Long> beforeReads = brokerAllocations();
            for (int i = 0; i < CHUNKS; i++) {
                assertArrayEquals(chunks[i], read(bob, uploadId, offsets[i]), "chunk " + i + " as written");
            }
            long reading = allocatedSince(beforeReads);
            System.out.printf("LargeChunkBuffersTest round %d: the broker's threads allocated %d KiB writing and"
                    + " %d KiB reading %d MiB of chunks%n", round, writing >> 10, reading >> 10, CHUNKS);
            if (round == 1) {
                assertTrue(writing < CHUNKS * MIB / 4, "heap allocated writing " + CHUNKS + " MiB: " + writing);
                assertTrue(reading < CHUNKS * MIB / 4, "heap allocated reading " + CHUNKS + " MiB: " + reading);
            }
        }
    }

    @Test
    void everyWayAChunkEndsReleasesItsBuffer() throws Exception {
        byte[] chunk = new byte[4096];
        new Random(7).nextBytes(chunk);
        // turned away by the login gate
        RemotingClient anonymous = as(null);
        refusal(anonymous, chunkWrite(11, 0, chunk));
        // refused by security
        RemotingClient eve = as("eve");
        assertEquals(ErrorStatus.NOT_AUTHORIZED, refusal(eve, chunkWrite(12, 0, chunk)));
        // bad input: a header of another command, upload id 0
        RemotingClient alice = as("alice");
        assertEquals(ErrorStatus.BAD_REQUEST, refusal(alice, Frame.request(CommandCode.LARGE_CHUNK_WRITE,
                new ChunkReadRequest(QUEUE, 13, 0), Unpooled.wrappedBuffer(chunk))));
        assertTrue(refusal(alice, chunkWrite(0, 0, chunk)) != 0, "upload id 0 refused");
        // stored, and the connection still serves
        long offset = write(alice, 14, 0, chunk);
        assertArrayEquals(chunk, read(as("bob"), 14, offset));
        // a connection closed with chunk writes under way: they are processed, or not, after it closed
        RemotingClient leaving = as("alice");
        List<CompletableFuture<Frame>> underWay = new ArrayList<>();
        byte[] big = new byte[MIB];
        for (int i = 0; i < 8; i++) {
            underWay.add(leaving.invoke(broker.brokerAddress(), chunkWrite(15, i, big), TIMEOUT));
        }
        leaving.closeConnection(broker.brokerAddress());
        for (CompletableFuture<Frame> write : underWay) {
            write.handle((answer, failure) -> answer == null ? null : answer.body().release())
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        // the broker serves on
        assertTrue(write(alice, 16, 0, chunk) > offset, "a chunk stored after");
    }
}
