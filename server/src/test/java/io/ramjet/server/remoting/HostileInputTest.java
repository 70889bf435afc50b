package io.ramjet.server.remoting;

import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.QueryRouteRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.frame.FrameDescriptor;
import io.ramjet.protocol.frame.HeaderCodec;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.config.RemotingServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whatever one peer sends, only its own connection is closed: a well-behaved client on the
 * same server keeps being served.
 */
class HostileInputTest {

    private static final short ECHO = 901;
    private static final int MAX_FRAME = 64 * 1024;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private RemotingServer server;
    private RemotingClient goodClient;

    @BeforeEach
    void start() throws Exception {
        server = new RemotingServer(RemotingServerConfig.onPort(0).withMaxFrameLength(MAX_FRAME));
        server.registerProcessor(ECHO, (connection, request) -> request.reply(request.header()), executor);
        server.registerProcessor(CommandCode.QUERY_ROUTE, (connection, request) -> request.reply(null), executor);
        server.start();
        goodClient = new RemotingClient(RemotingClientConfig.defaults());
        assertGoodClientIsServed();
    }

    @AfterEach
    void stop() {
        goodClient.close();
        server.close();
        executor.shutdownNow();
    }

    private void assertGoodClientIsServed() throws Exception {
        Frame response = goodClient.invokeSync(server.address(),
                Frame.request(ECHO, new QueryRouteRequest("still here")), TIMEOUT);
        assertEquals(new QueryRouteRequest("still here"), response.header());
    }

    /** Sends the bytes from a raw socket and asserts the server closes that connection. */
    private void assertServerClosesAfter(byte[] bytes) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            assertClosedByPeer(socket.getInputStream());
        }
        assertGoodClientIsServed();
    }

    private static void assertClosedByPeer(InputStream in) throws IOException {
        try {
            assertEquals(-1, in.read(), "the server sent bytes instead of closing");
        } catch (SocketException reset) {
            // a reset is a close too
        }
    }

    private static byte[] frame(short code, byte flags, byte[] header, byte[] body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(FrameDescriptor.frameLength(header.length, body.length));
        out.writeByte(FrameDescriptor.VERSION);
        out.writeInt(1);
        out.writeShort(code);
        out.writeByte(flags);
        out.writeInt(header.length);
        out.write(header);
        out.write(body);
        return bytes.toByteArray();
    }

    @Test
    void garbageTextIsRefused() throws Exception {
        assertServerClosesAfter("GET / HTTP/1.1\r\nHost: ramjet\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void garbageWithAPlausibleLengthIsRefused() throws Exception {
        byte[] bytes = new byte[64];
        Arrays.fill(bytes, (byte) 0x5a);
        bytes[0] = 0;
        bytes[1] = 0;
        bytes[2] = 0;
        bytes[3] = 60;
        assertServerClosesAfter(bytes);
    }

    @Test
    void lengthPrefixOverTheMaximumIsRefusedBeforeTheFrameArrives() throws Exception {
        byte[] prefix = {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        assertServerClosesAfter(prefix);
    }

    @Test
    void frameJustOverTheMaximumIsRefused() throws Exception {
        byte[] body = new byte[MAX_FRAME - FrameDescriptor.FIXED_LENGTH + 1];
        byte[] frame = frame(ECHO, FrameDescriptor.FLAG_REQUEST, new byte[0], body);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
            socket.setSoTimeout(5000);
            try {
                socket.getOutputStream().write(frame);
            } catch (SocketException closedWhileWriting) {
                // the server may close before the whole frame is written
            }
            assertClosedByPeer(socket.getInputStream());
        }
        assertGoodClientIsServed();
    }

    @Test
    void frameAtTheMaximumIsServed() throws Exception {
        byte[] body = new byte[MAX_FRAME - FrameDescriptor.FIXED_LENGTH];
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(frame(ECHO, FrameDescriptor.FLAG_REQUEST, new byte[0], body));
            assertTrue(socket.getInputStream().read() >= 0, "a response arrives");
        }
    }

    @Test
    void unknownCommandIsRefused() throws Exception {
        assertServerClosesAfter(frame((short) 4242, FrameDescriptor.FLAG_REQUEST, new byte[0], new byte[0]));
    }

    @Test
    void unregisteredHeaderClassIdIsRefused() throws Exception {
        byte[] header = {(byte) 0xf6, 0x03};
        assertServerClosesAfter(frame(CommandCode.QUERY_ROUTE, FrameDescriptor.FLAG_REQUEST, header, new byte[0]));
    }

    @Test
    void undecodableHeaderIsRefused() throws Exception {
        byte[] valid = new HeaderCodec().encode(new QueryRouteRequest("orders"));
        byte[] truncated = Arrays.copyOf(valid, valid.length - 2);
        assertServerClosesAfter(frame(CommandCode.QUERY_ROUTE, FrameDescriptor.FLAG_REQUEST, truncated, new byte[0]));
    }

    @Test
    void unknownVersionIsRefused() throws Exception {
        byte[] bytes = frame(ECHO, FrameDescriptor.FLAG_REQUEST, new byte[0], new byte[0]);
        bytes[FrameDescriptor.VERSION_OFFSET] = 2;
        assertServerClosesAfter(bytes);
    }

    @Test
    void halfFrameAtCloseIsDiscarded() throws Exception {
        byte[] whole = frame(ECHO, FrameDescriptor.FLAG_REQUEST, new HeaderCodec().encode(new QueryRouteRequest("q")),
                new byte[100]);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
            socket.getOutputStream().write(whole, 0, whole.length / 2);
            socket.getOutputStream().flush();
        }
        assertGoodClientIsServed();
    }

    @Test
    void manyHostileConnectionsInARowLeaveTheServerServing() throws Exception {
        for (int i = 0; i < 50; i++) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
                socket.setSoTimeout(5000);
                socket.getOutputStream().write(new byte[] {0x7f, 0, 0, 0});
                assertClosedByPeer(socket.getInputStream());
            }
        }
        assertGoodClientIsServed();
    }
}
