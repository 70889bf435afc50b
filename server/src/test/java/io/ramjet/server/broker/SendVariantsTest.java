package io.ramjet.server.broker;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ramjet.model.DestinationKind;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.command.SendResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.frame.FrameDecoder;
import io.ramjet.protocol.frame.FrameEncoder;
import io.ramjet.protocol.frame.HeaderCodec;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.broker.BrokerTestClient.Received;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One-way SEND over real sockets. */
class SendVariantsTest extends BrokerTestBase {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);


    private static byte[] message(String text) {
        byte[] properties = section(text);
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[properties.length + body.length];
        System.arraycopy(properties, 0, all, 0, properties.length);
        System.arraycopy(body, 0, all, properties.length, body.length);
        return all;
    }

    private static int propertiesLength(String text) {
        return section(text).length;
    }

    private static byte[] section(String text) {
        return MessagePropertiesCodec.encode(new MessageHeaders().property("p", text));
    }

    private static Frame oneWaySend(String destination, String text) {
        SendRequest header = new SendRequest(destination, DestinationKind.QUEUE, 0, false, 0, 0,
                propertiesLength(text));
        return Frame.oneWay(CommandCode.SEND, header, Unpooled.wrappedBuffer(message(text)));
    }

    /** Pulls until {@code count} messages arrived, acking what it gets; fails when they take over 20 s. */
    private List<Received> pullAll(SubscriptionRef ref, long consumer, int count) {
        List<Received> all = new ArrayList<>();
        // each pull waits up to 500 ms for messages itself
        await(count + " messages pulled").atMost(Duration.ofSeconds(20)).pollInSameThread()
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).until(() -> {
                    List<Received> got = client.pull(ref, consumer, 64, 500);
                    all.addAll(got);
                    if (!got.isEmpty()) {
                        client.ack(ref, got);
                    }
                    return all.size() >= count;
                });
        return all;
    }

    @Test
    void oneWaySendsAreStoredInOrderAndGetNoResponse() throws Exception {
        int count = 300;
        HeaderCodec headers = new HeaderCodec();
        EmbeddedChannel encoder = new EmbeddedChannel(new FrameEncoder(headers));
        EmbeddedChannel decoder = new EmbeddedChannel(new FrameDecoder(16 << 20, headers));
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", broker.port()), 5000);
            socket.setSoTimeout(10_000);
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            for (int i = 0; i < count; i++) {
                // one-way frames still carry distinct ids, so a stray response would be recognisable
                wire.writeBytes(encode(encoder, oneWaySend("fire", "m" + i).withRequestId(i + 1)));
            }
            SendRequest syncHeader = new SendRequest("fire", DestinationKind.QUEUE, 0, true, 0, 0,
                    propertiesLength("last"));
            wire.writeBytes(encode(encoder, Frame.request(CommandCode.SEND, syncHeader,
                    Unpooled.wrappedBuffer(message("last"))).withRequestId(10_000)));
            socket.getOutputStream().write(wire.toByteArray());
            socket.getOutputStream().flush();

            // the sends are processed in arrival order, so a response to a one-way send would come first
            Frame first = readFrame(socket.getInputStream(), decoder);
            assertEquals(10_000, first.requestId(), "the first frame back answers the request, not a one-way send");
            assertEquals(count, first.header(SendResponse.class).queueOffset(), "after all the one-way sends");
            socket.setSoTimeout(300);
            assertThrows(java.net.SocketTimeoutException.class, () -> socket.getInputStream().read(),
                    "nothing else is written");
        } finally {
            encoder.finishAndReleaseAll();
            decoder.finishAndReleaseAll();
        }

        SubscriptionRef queue = SubscriptionRef.queue("fire");
        client.subscribe(queue, 1);
        List<Received> received = pullAll(queue, 1, count + 1);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            expected.add("m" + i);
        }
        expected.add("last");
        assertEquals(expected, received.stream().map(Received::body).toList());
    }

    @Test
    void oneWaySendsThroughTheRemotingClientAreAllPulled() throws Exception {
        int count = 200;
        try (RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults())) {
            for (int i = 0; i < count; i++) {
                remoting.sendOneWay(broker.address(), oneWaySend("fire2", "n" + i)).get(10, TimeUnit.SECONDS);
            }
        }
        SubscriptionRef queue = SubscriptionRef.queue("fire2");
        client.subscribe(queue, 1);
        List<Received> received = pullAll(queue, 1, count);
        assertEquals(count, received.size());
        for (int i = 0; i < count; i++) {
            assertEquals("n" + i, received.get(i).body());
            assertEquals(i, received.get(i).offset());
        }
    }

    private static byte[] encode(EmbeddedChannel encoder, Frame frame) {
        assertTrue(encoder.writeOutbound(frame));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuf buf;
        while ((buf = encoder.readOutbound()) != null) {
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            buf.release();
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    private static Frame readFrame(InputStream in, EmbeddedChannel decoder) throws Exception {
        byte[] chunk = new byte[4096];
        while (true) {
            Frame frame = decoder.readInbound();
            if (frame != null) {
                return frame;
            }
            int n = in.read(chunk);
            assertTrue(n > 0, "connection closed before a frame came");
            decoder.writeInbound(Unpooled.copiedBuffer(chunk, 0, n));
        }
    }
}
