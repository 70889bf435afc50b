package io.ramjet.server.remoting;

import io.netty.buffer.Unpooled;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.Transport;
import io.ramjet.server.config.RemotingServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Frames over the native epoll transport and over NIO, each side on either. */
class TransportTest {

    private static final short ECHO = 901;

    /** The builds this project ships the native library for: there, epoll must load. */
    private static boolean nativeShipped() {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        return System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux")
                && (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"));
    }

    @Test
    void epollIsChosenWhereItsLibraryShipsAndNioWhenNativeIsNotAllowed() {
        assertEquals(Transport.NIO, Transport.choose(false));
        assumeTrue(nativeShipped(), "no native library is shipped for this platform");
        assertEquals(Transport.EPOLL, Transport.choose(true));
    }

    @Test
    void aSocketFailureReadsAsNiosWhicheverTransportRaisedIt() {
        assertEquals("Address already in use", Transport.systemMessage(
                new IOException("bind(..) failed with error(-98): Address already in use")));
        assertEquals("Connection refused", Transport.systemMessage(
                new IOException("connect(..) failed: Connection refused")));
        assertEquals("Address already in use", Transport.systemMessage(new IOException("Address already in use")));
    }

    @ParameterizedTest(name = "server native {0}, client native {1}")
    @CsvSource({"true, true", "true, false", "false, true", "false, false"})
    void framesCrossEitherPairOfTransports(boolean serverNative, boolean clientNative) throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        RemotingServer server = new RemotingServer(RemotingServerConfig.onPort(0).withNativeTransport(serverNative));
        server.registerProcessor(ECHO, (connection, request) ->
                request.reply(null, Unpooled.wrappedBuffer(request.bodyBytes())), executor);
        server.start();
        try (RemotingClient client = new RemotingClient(RemotingClientConfig.defaults()
                .withNativeTransport(clientNative))) {
            assertEquals(expected(serverNative), server.transport());
            assertEquals(expected(clientNative), client.transport());
            byte[] large = new byte[4 << 20];
            new Random(7).nextBytes(large);
            Frame echoed = client.invoke(server.address(), Frame.request(ECHO, null, Unpooled.wrappedBuffer(large)))
                    .get(10, TimeUnit.SECONDS);
            assertArrayEquals(large, echoed.bodyBytes());
            List<CompletableFuture<Frame>> pipelined = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                pipelined.add(client.invoke(server.address(),
                        Frame.request(ECHO, null, Unpooled.wrappedBuffer(new byte[] {(byte) i}))));
            }
            for (int i = 0; i < pipelined.size(); i++) {
                assertArrayEquals(new byte[] {(byte) i}, pipelined.get(i).get(10, TimeUnit.SECONDS).bodyBytes());
            }
        } finally {
            server.close();
            executor.shutdownNow();
        }
    }

    private static Transport expected(boolean nativeAllowed) {
        return nativeAllowed && nativeShipped() ? Transport.EPOLL : Transport.NIO;
    }
}
