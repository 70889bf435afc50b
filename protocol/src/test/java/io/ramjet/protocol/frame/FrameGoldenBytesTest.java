package io.ramjet.protocol.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorHeader;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.command.QueryRouteRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pins the frame layout of {@link FrameDescriptor} to bytes: length, version, request id, code,
 * flags, header length, header, body, each at its offset, big-endian. Header bytes are pinned
 * type by type in {@code HeaderGoldenBytesTest}.
 */
class FrameGoldenBytesTest {

    private final HeaderCodec headers = new HeaderCodec();
    private final EmbeddedChannel out = new EmbeddedChannel(new FrameEncoder(headers));
    private final EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(FrameDescriptor.DEFAULT_MAX_FRAME_LENGTH,
            headers));

    @AfterEach
    void close() {
        out.finishAndReleaseAll();
        in.finishAndReleaseAll();
    }

    @Test
    void aRequestWithHeaderAndBody() {
        Frame frame = new Frame(0x01020304, CommandCode.QUERY_ROUTE, FrameDescriptor.FLAG_REQUEST,
                new QueryRouteRequest("orders"), Unpooled.wrappedBuffer("body".getBytes(StandardCharsets.US_ASCII)));
        String golden = "00000018" // frame length: 12 fixed + 8 header + 4 body
                + "01" // version
                + "01020304" // request id
                + "0066" // command code QUERY_ROUTE (102)
                + "01" // flags: request
                + "00000008" // header length
                + "74076f7264657273" // header: QueryRouteRequest("orders")
                + "626f6479"; // body
        assertGolden(frame, golden);
    }

    @Test
    void aOneWayFrameWithoutHeaderOrBody() {
        Frame frame = new Frame(0, CommandCode.SEND, FrameDescriptor.FLAG_ONE_WAY, null, Unpooled.EMPTY_BUFFER);
        assertGolden(frame, "0000000c" + "01" + "00000000" + "00c8" + "04" + "00000000");
    }

    @Test
    void anErrorResponse() {
        Frame frame = new Frame(7, CommandCode.SEND, (byte) (FrameDescriptor.FLAG_RESPONSE | FrameDescriptor.FLAG_ERROR),
                new ErrorHeader(ErrorStatus.BAD_REQUEST, "bad"), Unpooled.EMPTY_BUFFER);
        assertGolden(frame, "00000012" + "01" + "00000007" + "00c8" + "0a" + "00000006" + "660462616404");
    }

    private void assertGolden(Frame frame, String golden) {
        byte[] body = frame.bodyBytes();
        assertTrue(out.writeOutbound(frame));
        ByteBuf all = Unpooled.buffer();
        for (ByteBuf part; (part = out.readOutbound()) != null; ) {
            all.writeBytes(part);
            part.release();
        }
        assertEquals(golden, ByteBufUtil.hexDump(all));
        all.release();

        in.writeInbound(Unpooled.wrappedBuffer(HexFormat.of().parseHex(golden)));
        Frame decoded = in.readInbound();
        assertEquals(frame.requestId(), decoded.requestId());
        assertEquals(frame.code(), decoded.code());
        assertEquals(frame.flags(), decoded.flags());
        assertEquals(frame.header(), decoded.header());
        assertArrayEquals(body, decoded.bodyBytes());
    }
}
