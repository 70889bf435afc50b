package io.ramjet.server.remoting;

import io.netty.buffer.Unpooled;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.QueryRouteRequest;
import io.ramjet.protocol.command.RouteData;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.frame.FrameDescriptor;
import io.ramjet.protocol.frame.FrameTooLongException;
import io.ramjet.protocol.remoting.ConnectionListener;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.protocol.remoting.RemotingConnectionException;
import io.ramjet.protocol.remoting.RemotingException;
import io.ramjet.protocol.remoting.RemotingTimeoutException;
import io.ramjet.server.config.RemotingServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RemotingTest {

    /** Test-only command codes: the remoting layer serves whatever codes have processors. */
    private static final short ECHO = 901;
    private static final short NEVER_ANSWERED = 902;
    private static final short FAILING = 903;
    private static final short ONE_WAY = 904;
    private static final short LATER = 905;
    private static final short CHECK_BACK = 906;
    private static final short LARGE = 908;
    private static final short UNSERVED = 999;

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final BlockingQueue<Frame> oneWays = new LinkedBlockingQueue<>();
    private final BlockingQueue<RemotingConnection> opened = new LinkedBlockingQueue<>();
    private final BlockingQueue<RemotingConnection> closed = new LinkedBlockingQueue<>();
    private final CompletableFuture<Frame> later = new CompletableFuture<>();
    private RemotingServer server;
    private RemotingClient client;
    private String address;

    @BeforeEach
    void start() throws Exception {
        server = new RemotingServer(RemotingServerConfig.onPort(0).withIdleTimeout(Duration.ofMillis(500)));
        server.registerProcessor(ECHO, (connection, request) ->
                request.reply(request.header(), Unpooled.wrappedBuffer(request.bodyBytes())), executor);
        server.registerAsyncProcessor(NEVER_ANSWERED, (connection, request) -> new CompletableFuture<>(), executor);
        server.registerProcessor(FAILING, (connection, request) -> {
            throw new RemotingCommandException(ErrorStatus.NOT_FOUND, "nothing here");
        }, executor);
        server.registerProcessor(ONE_WAY, (connection, request) -> {
            oneWays.add(request);
            return null;
        }, executor);
        server.registerProcessor(LARGE, (connection, request) ->
                request.reply(null, Unpooled.wrappedBuffer(new byte[Integer.parseInt(
                        request.header(QueryRouteRequest.class).destination())])), executor);
        server.registerAsyncProcessor(LATER, (connection, request) -> later.thenApply(request::reply), executor);
        server.addConnectionListener(new ConnectionListener() {
            @Override
            public void connected(RemotingConnection connection) {
                opened.add(connection);
            }

            @Override
            public void closed(RemotingConnection connection) {
                RemotingTest.this.closed.add(connection);
            }
        });
        server.start();
        address = server.address();
        client = new RemotingClient(RemotingClientConfig.defaults()
                .withHeartbeat(Duration.ofMillis(100), Duration.ofSeconds(2)));
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        executor.shutdownNow();
    }

    private static Frame query(String destination) {
        return Frame.request(ECHO, new QueryRouteRequest(destination));
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
        return e.getCause();
    }

    @Test
    void boundToAnEphemeralPort() {
        assertTrue(server.port() > 0);
        assertEquals("127.0.0.1:" + server.port(), address);
    }

    @Test
    void requestIsAnsweredWithItsHeaderAndBody() throws Exception {
        byte[] body = "payload".getBytes(StandardCharsets.UTF_8);
        Frame response = client.invokeSync(address,
                Frame.request(ECHO, new QueryRouteRequest("orders"), Unpooled.wrappedBuffer(body)), TIMEOUT);

        assertTrue(response.isResponse());
        assertEquals(new QueryRouteRequest("orders"), response.header());
        assertArrayEquals(body, response.bodyBytes());
    }

    @Test
    void responseBodyMayBeASliceOfAMappedFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("segment");
        Files.write(file, "....header....record-one....".getBytes(StandardCharsets.US_ASCII));
        MappedByteBuffer mapped;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        }
        server.registerProcessor(CHECK_BACK, (connection, request) ->
                request.reply(null, Unpooled.wrappedBuffer(mapped.slice(14, 10))), executor);

        Frame response = client.invokeSync(address, Frame.request(CHECK_BACK, null), TIMEOUT);

        assertEquals("record-one", new String(response.bodyBytes(), StandardCharsets.US_ASCII));
        assertEquals('.', mapped.get(0), "the mapping is still usable after the write released its wrapper");
    }

    @Test
    void concurrentRequestsAreCorrelatedById() throws Exception {
        List<CompletableFuture<Frame>> responses = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            responses.add(client.invoke(address, query("d" + i)));
        }
        for (int i = 0; i < 200; i++) {
            assertEquals(new QueryRouteRequest("d" + i), responses.get(i).get(10, TimeUnit.SECONDS).header());
        }
    }

    @Test
    void requestWithoutResponseTimesOut() {
        CompletableFuture<Frame> response = client.invoke(address, Frame.request(NEVER_ANSWERED, null),
                Duration.ofMillis(200));

        assertInstanceOf(RemotingTimeoutException.class, failureOf(response));
    }

    @Test
    void invokeSyncThrowsTheTimeout() {
        assertThrows(RemotingTimeoutException.class, () ->
                client.invokeSync(address, Frame.request(NEVER_ANSWERED, null), Duration.ofMillis(200)));
    }

    @Test
    void oneWayFrameReachesItsProcessor() throws Exception {
        client.sendOneWay(address, Frame.oneWay(ONE_WAY, new QueryRouteRequest("fire and forget"))).get(5, TimeUnit.SECONDS);

        Frame received = oneWays.poll(5, TimeUnit.SECONDS);
        assertNotNull(received);
        assertTrue(received.isOneWay());
        assertEquals(new QueryRouteRequest("fire and forget"), received.header());
    }

    @Test
    void processorFailureArrivesAsCommandExceptionWithItsStatus() {
        Throwable failure = failureOf(client.invoke(address, Frame.request(FAILING, null)));

        RemotingCommandException e = assertInstanceOf(RemotingCommandException.class, failure);
        assertEquals(ErrorStatus.NOT_FOUND, e.status());
        assertEquals("nothing here", e.getMessage());
    }

    @Test
    void wrongHeaderTypeIsABadRequest() {
        server.registerProcessor((short) 907, (connection, request) ->
                request.reply(request.header(RouteData.class)), executor);

        Throwable failure = failureOf(client.invoke(address, Frame.request((short) 907, new QueryRouteRequest("x"))));

        assertEquals(ErrorStatus.BAD_REQUEST, assertInstanceOf(RemotingCommandException.class, failure).status());
    }

    @Test
    void asyncProcessorAnswersWhenItsStageCompletes() throws Exception {
        CompletableFuture<Frame> response = client.invoke(address, Frame.request(LATER, null));
        CountDownLatch sent = new CountDownLatch(1);
        client.invoke(address, query("after")).thenRun(sent::countDown);
        assertTrue(sent.await(5, TimeUnit.SECONDS), "the held request does not block the connection");

        later.complete(null);

        assertTrue(response.get(5, TimeUnit.SECONDS).isResponse());
    }

    @Test
    void asyncCallbackRunsWithTheResponse() throws Exception {
        CompletableFuture<String> seen = new CompletableFuture<>();
        client.invoke(address, query("callback"))
                .whenComplete((response, failure) -> seen.complete(
                        ((QueryRouteRequest) response.header()).destination()));

        assertEquals("callback", seen.get(5, TimeUnit.SECONDS));
    }

    @Test
    void closingTheClientFailsPendingRequests() {
        CompletableFuture<Frame> pending = client.invoke(address, Frame.request(NEVER_ANSWERED, null), TIMEOUT);
        client.invoke(address, query("wait until sent")).join();

        client.close();

        Throwable failure = failureOf(pending);
        assertInstanceOf(RemotingConnectionException.class, failure);
        assertTrue(failure.getMessage().contains("closed"), failure.getMessage());
    }

    @Test
    void serverClosingTheConnectionFailsPendingRequests() throws Exception {
        CompletableFuture<Frame> pending = client.invoke(address, Frame.request(NEVER_ANSWERED, null), TIMEOUT);
        client.invoke(address, query("wait until sent")).join();

        opened.poll(5, TimeUnit.SECONDS).close();

        assertInstanceOf(RemotingConnectionException.class, failureOf(pending));
    }

    @Test
    void aRequestOverTheFrameLimitFailsAloneBeforeAnythingIsWritten() throws Exception {
        try (RemotingClient small = new RemotingClient(RemotingClientConfig.defaults().withMaxFrameLength(1024))) {
            RemotingConnection connection = small.connect(address).get(5, TimeUnit.SECONDS);

            Throwable failure = failureOf(connection.invoke(
                    Frame.request(ECHO, null, Unpooled.wrappedBuffer(new byte[2048])), TIMEOUT));

            assertEquals(RemotingException.class, failure.getClass());
            FrameTooLongException tooLong = assertInstanceOf(FrameTooLongException.class, failure.getCause());
            assertEquals(1024, tooLong.maxFrameLength());
            assertTrue(failure.getMessage().contains("exceeds the frame limit of 1024 bytes"), failure.getMessage());
            assertTrue(connection.invoke(query("after"), TIMEOUT).get(5, TimeUnit.SECONDS).isResponse());
            assertTrue(connection.isActive());
            assertNotNull(opened.poll(5, TimeUnit.SECONDS));
            assertEquals(null, closed.poll(200, TimeUnit.MILLISECONDS), "the server saw no protocol violation");
        }
    }

    @Test
    void aResponseOverTheFrameLimitBecomesAnErrorResponse() throws Exception {
        RemotingConnection connection = client.connect(address).get(5, TimeUnit.SECONDS);

        Throwable failure = failureOf(connection.invoke(
                Frame.request(LARGE, new QueryRouteRequest(Integer.toString(FrameDescriptor.DEFAULT_MAX_FRAME_LENGTH + 1))), TIMEOUT));

        RemotingCommandException error = assertInstanceOf(RemotingCommandException.class, failure);
        assertTrue(error.getMessage().contains("exceeds the frame limit"), error.getMessage());
        assertTrue(connection.invoke(query("after"), TIMEOUT).get(5, TimeUnit.SECONDS).isResponse());
    }

    @Test
    void aFrameTheClientRefusesClosesTheConnectionWithTheReasonInEveryFailure() throws Exception {
        try (RemotingClient small = new RemotingClient(RemotingClientConfig.defaults().withMaxFrameLength(1024))) {
            RemotingConnection connection = small.connect(address).get(5, TimeUnit.SECONDS);

            Throwable failure = failureOf(connection.invoke(Frame.request(LARGE, new QueryRouteRequest("4096")), TIMEOUT));

            assertInstanceOf(RemotingConnectionException.class, failure);
            assertTrue(failure.getMessage().contains("frame length"), failure.getMessage());
            connection.closeFuture().get(5, TimeUnit.SECONDS);
            assertTrue(connection.closeReason().contains("outside"), connection.closeReason());
        }
    }

    @Test
    void unknownCommandClosesTheConnection() throws Exception {
        RemotingConnection connection = client.connect(address).get(5, TimeUnit.SECONDS);

        Throwable failure = failureOf(connection.invoke(Frame.request(UNSERVED, null), TIMEOUT));

        assertInstanceOf(RemotingConnectionException.class, failure);
        connection.closeFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void nextRequestAfterAClosedConnectionOpensANewOne() throws Exception {
        RemotingConnection first = client.connect(address).get(5, TimeUnit.SECONDS);
        first.close().get(5, TimeUnit.SECONDS);

        assertTrue(client.invokeSync(address, query("again"), TIMEOUT).isResponse());
        assertNotSame(first, client.connect(address).get(5, TimeUnit.SECONDS));
    }

    @Test
    void connectionListenerSeesOpenAndClose() throws Exception {
        client.invokeSync(address, query("hello"), TIMEOUT);
        RemotingConnection connection = opened.poll(5, TimeUnit.SECONDS);
        assertNotNull(connection);

        client.closeConnection(address);

        assertEquals(connection, closed.poll(5, TimeUnit.SECONDS));
    }

    @Test
    void serverCanSendRequestsToItsClient() throws Exception {
        client.registerProcessor(CHECK_BACK, (connection, request) -> request.reply(new QueryRouteRequest("committed")),
                executor);
        client.invokeSync(address, query("hello"), TIMEOUT);

        Frame answer = opened.poll(5, TimeUnit.SECONDS).invoke(Frame.request(CHECK_BACK, null), TIMEOUT)
                .get(5, TimeUnit.SECONDS);

        assertEquals(new QueryRouteRequest("committed"), answer.header());
    }

    @Test
    void heartbeatsKeepAnIdleConnectionOpenPastTheServerIdleTimeout() throws Exception {
        RemotingConnection connection = client.connect(address).get(5, TimeUnit.SECONDS);

        // the server closes after 500 ms of silence; the client heartbeats every 100 ms
        assertThrows(TimeoutException.class, () -> connection.closeFuture().get(1500, TimeUnit.MILLISECONDS));
        assertTrue(connection.isActive());
    }

    @Test
    void silentConnectionIsClosedByTheServerIdleTimeout() throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
            socket.setSoTimeout(5000);

            assertEquals(-1, socket.getInputStream().read());
        }
    }

    @Test
    void clientClosesAConnectionWhosePeerStaysSilent() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            RemotingClient impatient = new RemotingClient(RemotingClientConfig.defaults()
                    .withHeartbeat(Duration.ofMillis(50), Duration.ofMillis(300)));
            try {
                RemotingConnection connection = impatient.connect("127.0.0.1:" + silent.getLocalPort())
                        .get(5, TimeUnit.SECONDS);
                CompletableFuture<Frame> pending = connection.invoke(Frame.request(ECHO, null), TIMEOUT);

                connection.closeFuture().get(5, TimeUnit.SECONDS);
                assertInstanceOf(RemotingConnectionException.class, failureOf(pending));
            } finally {
                impatient.close();
            }
        }
    }

    @Test
    void connectingToAPortWithoutServerFails() throws Exception {
        int freePort;
        try (ServerSocket probe = new ServerSocket(0)) {
            freePort = probe.getLocalPort();
        }

        Throwable failure = failureOf(client.invoke("127.0.0.1:" + freePort, query("nobody")));

        assertInstanceOf(RemotingConnectionException.class, failure);
    }
}
