package io.ramjet.protocol.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.ChunkReadRequest;
import io.ramjet.protocol.command.ChunkWriteRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.DestinationInfo;
import io.ramjet.protocol.command.ErrorHeader;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.Permission;
import io.ramjet.protocol.command.QueryRouteRequest;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameCodecTest {

    private static final int MAX = 1024;

    private final HeaderCodec headers = new HeaderCodec();
    private final EmbeddedChannel out = new EmbeddedChannel(new FrameEncoder(headers));
    private final EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(MAX, headers));

    @AfterEach
    void close() {
        out.finishAndReleaseAll();
        in.finishAndReleaseAll();
    }

    private static RegisterBrokerRequest registration() {
        return new RegisterBrokerRequest(new BrokerInfo("c1", "b1", 0, "127.0.0.1:10911"),
                List.of(new DestinationInfo("orders", DestinationKind.QUEUE, 4, Permission.READ_WRITE),
                        new DestinationInfo("prices", DestinationKind.TOPIC, 1, Permission.READ)), 1);
    }

    /** Encodes the frame and returns its bytes as one buffer. */
    private ByteBuf encode(Frame frame) {
        assertTrue(out.writeOutbound(frame));
        ByteBuf all = Unpooled.buffer();
        for (ByteBuf part; (part = out.readOutbound()) != null; ) {
            all.writeBytes(part);
            part.release();
        }
        return all;
    }

    private Frame roundTrip(Frame frame) {
        in.writeInbound(encode(frame));
        return in.readInbound();
    }

    @Test
    void requestWithHeaderAndBodySurvivesARoundTrip() {
        byte[] body = "hello body".getBytes(StandardCharsets.UTF_8);
        Frame decoded = roundTrip(new Frame(42, CommandCode.REGISTER_BROKER, FrameDescriptor.FLAG_REQUEST,
                registration(), Unpooled.wrappedBuffer(body)));

        assertEquals(42, decoded.requestId());
        assertEquals(CommandCode.REGISTER_BROKER, decoded.code());
        assertTrue(decoded.isRequest());
        assertEquals(registration(), decoded.header());
        assertArrayEquals(body, decoded.bodyBytes());
    }

    @Test
    void bodyArrayOfAnInboundFrameIsItsOwnBytesNotACopy() {
        byte[] body = "a message body".getBytes(StandardCharsets.UTF_8);
        Frame decoded = roundTrip(Frame.request(CommandCode.QUERY_ROUTE, null, Unpooled.wrappedBuffer(body)));

        byte[] bytes = decoded.bodyArray();
        assertArrayEquals(body, bytes);
        assertSame(bytes, decoded.bodyArray(), "the decoded body's own array, handed out twice");
    }

    @Test
    void aChunkWriteBodyStaysInTheReceivedBufferUntilReleased() {
        byte[] body = "one chunk of a large body".getBytes(StandardCharsets.US_ASCII);
        ByteBuf received = Unpooled.directBuffer().writeBytes(encode(Frame.request(CommandCode.LARGE_CHUNK_WRITE,
                new ChunkWriteRequest("big", DestinationKind.QUEUE, 7, 0), Unpooled.wrappedBuffer(body))));
        in.writeInbound(received);
        Frame decoded = in.readInbound();

        assertArrayEquals(body, decoded.bodyBytes());
        assertFalse(decoded.body().hasArray(), "a view of the received buffer, not a heap copy");
        assertEquals(1, received.refCnt(), "the received buffer held by the body alone");
        decoded.releasePooledBody();
        assertEquals(0, received.refCnt(), "released with the body");
    }

    @Test
    void aChunkReadAnswersBodyStaysInTheReceivedBufferUntilReleased() {
        byte[] body = "one chunk read back".getBytes(StandardCharsets.US_ASCII);
        Frame request = Frame.request(CommandCode.LARGE_CHUNK_READ, new ChunkReadRequest("big", 7, 0));
        ByteBuf received = Unpooled.directBuffer().writeBytes(encode(request.reply(null, Unpooled.wrappedBuffer(body))));
        in.writeInbound(received);
        Frame decoded = in.readInbound();

        assertArrayEquals(body, decoded.bodyBytes());
        assertFalse(decoded.body().hasArray(), "a view of the received buffer, not a heap copy");
        assertEquals(1, received.refCnt(), "the received buffer held by the body alone");
        decoded.body().release();
        assertEquals(0, received.refCnt(), "released with the body by whoever took the answer");
    }

    @Test
    void anotherFramesBodyIsAHeapCopyThatNeedsNoRelease() {
        byte[] body = "a message body".getBytes(StandardCharsets.US_ASCII);
        ByteBuf received = Unpooled.directBuffer().writeBytes(encode(Frame.request(CommandCode.QUERY_ROUTE, null,
                Unpooled.wrappedBuffer(body))));
        in.writeInbound(received);
        Frame decoded = in.readInbound();

        assertEquals(0, received.refCnt(), "the received buffer released once decoded");
        decoded.releasePooledBody();
        assertArrayEquals(body, decoded.bodyArray(), "a heap copy, untouched by releasePooledBody");
    }

    @Test
    void bodyArrayOfAPartlyReadBodyIsACopyOfTheReadableBytes() {
        byte[] body = "skipped|kept".getBytes(StandardCharsets.US_ASCII);
        ByteBuf buffer = Unpooled.wrappedBuffer(body);
        buffer.skipBytes("skipped|".length());
        Frame frame = Frame.request(CommandCode.QUERY_ROUTE, null, buffer);

        assertArrayEquals("kept".getBytes(StandardCharsets.US_ASCII), frame.bodyArray());
        assertEquals("skipped|".length(), buffer.readerIndex(), "reader index left where it was");
    }

    @Test
    void frameWithoutHeaderOrBodySurvivesARoundTrip() {
        Frame decoded = roundTrip(Frame.oneWay(CommandCode.HEARTBEAT, null));

        assertTrue(decoded.isOneWay());
        assertNull(decoded.header());
        assertEquals(0, decoded.body().readableBytes());
    }

    @Test
    void errorResponseCarriesItsStatusAndMessage() {
        Frame request = new Frame(7, CommandCode.QUERY_ROUTE, FrameDescriptor.FLAG_REQUEST, null, null);
        Frame decoded = roundTrip(request.replyError(ErrorStatus.NOT_FOUND, "no such destination"));

        assertTrue(decoded.isResponse());
        assertTrue(decoded.isError());
        assertEquals(7, decoded.requestId());
        assertEquals(new ErrorHeader(ErrorStatus.NOT_FOUND, "no such destination"), decoded.header());
    }

    @Test
    void aHeapBodyInPartsIsCopiedIntoTheOneBufferWritten() {
        ByteBuf body = Unpooled.wrappedBuffer("properties|".getBytes(StandardCharsets.US_ASCII),
                "body".getBytes(StandardCharsets.US_ASCII));

        assertTrue(out.writeOutbound(new Frame(3, CommandCode.QUERY_ROUTE, FrameDescriptor.FLAG_RESPONSE, null, body)));
        ByteBuf written = out.readOutbound();

        assertNull(out.readOutbound(), "head and body go as one write");
        assertEquals(0, body.refCnt(), "the body is released once copied");
        assertEquals(FrameDescriptor.frameLength(0, 15), written.getInt(0));
        assertEquals("properties|body", written.toString(FrameDescriptor.HEADER_OFFSET, 15, StandardCharsets.US_ASCII));
        in.writeInbound(written);
        assertEquals("properties|body", new String(((Frame) in.readInbound()).bodyBytes(), StandardCharsets.US_ASCII));
    }

    @Test
    void headersOfEverySizeFollowOneAnotherThroughTheReusedBuffers() {
        List<DestinationInfo> many = new java.util.ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            many.add(new DestinationInfo("queue-" + i, DestinationKind.QUEUE, 4, Permission.READ_WRITE));
        }
        RegisterBrokerRequest large = new RegisterBrokerRequest(new BrokerInfo("c1", "b1", 0, "127.0.0.1:1"), many, 1);
        HeaderCodec codec = new HeaderCodec();

        for (Object header : List.of(registration(), large, registration(), large)) {
            assertEquals(header, codec.decode(codec.encode(header)));
        }
        byte[] trailing = Arrays.copyOf(codec.encode(registration()), codec.encode(registration()).length + 1);
        assertThrows(com.esotericsoftware.kryo.KryoException.class, () -> codec.decode(trailing));
        assertEquals(registration(), codec.decode(codec.encode(registration())));
    }

    @Test
    void bodyFromAMappedStyleDirectBufferIsWrittenWithoutCopy() {
        ByteBuffer direct = ByteBuffer.allocateDirect(64);
        direct.put("record bytes".getBytes(StandardCharsets.US_ASCII)).flip();
        ByteBuf body = Unpooled.wrappedBuffer(direct);

        assertTrue(out.writeOutbound(new Frame(1, CommandCode.QUERY_ROUTE, FrameDescriptor.FLAG_RESPONSE, null, body)));
        ByteBuf head = out.readOutbound();
        ByteBuf written = out.readOutbound();

        assertEquals(FrameDescriptor.HEADER_OFFSET, head.readableBytes());
        assertEquals(FrameDescriptor.frameLength(0, 12), head.getInt(0));
        assertTrue(written.isDirect(), "the body buffer itself is written, not a heap copy");
        assertEquals(direct, written.nioBuffer());
        head.release();
        written.release();
    }

    @Test
    void framesSplitAcrossReadsAndSeveralInOneReadAreDecoded() {
        ByteBuf first = encode(Frame.request(CommandCode.LIST_BROKERS, null).withRequestId(1));
        ByteBuf second = encode(Frame.request(CommandCode.LIST_BROKERS, null).withRequestId(2));
        ByteBuf both = Unpooled.wrappedBuffer(first, second);

        in.writeInbound(both.readRetainedSlice(5));
        assertNull(in.readInbound());
        in.writeInbound(both);

        assertEquals(1, ((Frame) in.readInbound()).requestId());
        assertEquals(2, ((Frame) in.readInbound()).requestId());
    }

    @Test
    void lengthPrefixOverTheMaximumFailsBeforeBuffering() {
        ByteBuf prefix = Unpooled.buffer().writeInt(MAX + 1);

        assertThrows(FrameException.class, () -> in.writeInbound(prefix));
    }

    @Test
    void negativeLengthPrefixFails() {
        assertThrows(DecoderException.class, () -> in.writeInbound(Unpooled.buffer().writeInt(-5).writeLong(0)));
    }

    @Test
    void unknownVersionFails() {
        ByteBuf bytes = encode(Frame.request(CommandCode.LIST_BROKERS, null));
        bytes.setByte(FrameDescriptor.VERSION_OFFSET, 9);

        assertInstanceOf(FrameException.class, assertThrows(DecoderException.class, () -> in.writeInbound(bytes)));
    }

    @Test
    void invalidFlagsFail() {
        ByteBuf bytes = encode(Frame.request(CommandCode.LIST_BROKERS, null));
        bytes.setByte(FrameDescriptor.FLAGS_OFFSET, FrameDescriptor.FLAG_REQUEST | FrameDescriptor.FLAG_ONE_WAY);

        assertThrows(FrameException.class, () -> in.writeInbound(bytes));
    }

    @Test
    void headerLengthBeyondTheFrameFails() {
        ByteBuf bytes = encode(Frame.request(CommandCode.LIST_BROKERS, null));
        bytes.setInt(FrameDescriptor.HEADER_LENGTH_OFFSET, 1000);

        assertThrows(FrameException.class, () -> in.writeInbound(bytes));
    }

    @Test
    void unregisteredClassIdInTheHeaderFails() {
        // Kryo class ids are var-ints written plus 2; 500 is not registered
        byte[] header = {(byte) 0xf6, 0x03};
        assertThrows(FrameException.class, () -> in.writeInbound(rawFrame(header)));
    }

    @Test
    void truncatedHeaderFails() {
        byte[] full = headers.encode(registration());
        byte[] truncated = Arrays.copyOf(full, full.length / 2);

        assertThrows(FrameException.class, () -> in.writeInbound(rawFrame(truncated)));
    }

    @Test
    void hostileStringLengthFailsWithoutAllocatingIt() {
        byte[] full = headers.encode(new QueryRouteRequest("q"));
        // class id, then the string's var-int length marker: claim about 2^28 bytes
        byte[] hostile = {full[0], (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0x7f, 'q'};

        assertThrows(FrameException.class, () -> in.writeInbound(rawFrame(hostile)));
    }

    @Test
    void trailingBytesAfterTheHeaderFail() {
        byte[] full = headers.encode(new QueryRouteRequest("q"));
        byte[] longer = Arrays.copyOf(full, full.length + 3);

        assertThrows(FrameException.class, () -> in.writeInbound(rawFrame(longer)));
    }

    @Test
    void unregisteredHeaderClassCannotBeSent() {
        Frame frame = Frame.request(CommandCode.QUERY_ROUTE, new StringBuilder("not registered"));

        ChannelFuture written = out.writeAndFlush(frame);

        assertFalse(written.isSuccess());
        assertInstanceOf(IllegalArgumentException.class, written.cause());
    }

    static ByteBuf rawFrame(byte[] header) {
        return Unpooled.buffer()
                .writeInt(FrameDescriptor.frameLength(header.length, 0))
                .writeByte(FrameDescriptor.VERSION)
                .writeInt(1)
                .writeShort(CommandCode.QUERY_ROUTE)
                .writeByte(FrameDescriptor.FLAG_REQUEST)
                .writeInt(header.length)
                .writeBytes(header);
    }
}
