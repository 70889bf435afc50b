package io.ramjet.protocol.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorHeader;

import java.util.Objects;

/**
 * One decoded frame (layout in {@link FrameDescriptor}): a command code, flags, an optional
 * header object of a class listed in {@code HeaderRegistry}, and a body.
 *
 * <p>Body ownership: an outbound frame's body is handed to Netty when the frame is written and
 * released after the write, so it may be a pooled buffer or a slice of a mapped file wrapped
 * with {@code Unpooled.wrappedBuffer(ByteBuffer)}; it is written as it is, never copied. An
 * inbound frame's body is an unpooled heap buffer copied out of the socket buffer (holding or
 * dropping it needs no release), except a body that {@link #keepsPooledBody} names: that one is a
 * retained slice of the pooled buffer the frame arrived in, not copied, and must be released
 * exactly once, when nothing reads it any more. A request's is released by the remoting handler
 * ({@link #releasePooledBody}, once the request's processing has completed or the request was
 * turned away); a response's by whoever its request's future hands it to
 * ({@code body().release()}), or by the remoting client where no request takes it (one that
 * ended already, an answer of another command). A frame is not safe to write twice.
 */
public final class Frame {

    private final int requestId;
    private final short code;
    private final byte flags;
    private final Object header;
    private final ByteBuf body;
    private final boolean pooledBody;

    public Frame(int requestId, short code, byte flags, Object header, ByteBuf body) {
        this(requestId, code, flags, header, body, false);
    }

    /** @param pooledBody whether {@code body} is a retained slice of a received buffer ({@link #releasePooledBody}) */
    Frame(int requestId, short code, byte flags, Object header, ByteBuf body, boolean pooledBody) {
        if (!FrameDescriptor.isValidFlags(flags)) {
            throw new IllegalArgumentException("invalid flags " + flags);
        }
        this.requestId = requestId;
        this.code = code;
        this.flags = flags;
        this.header = header;
        this.body = body == null ? Unpooled.EMPTY_BUFFER : body;
        this.pooledBody = pooledBody;
    }

    /**
     * Whether a received frame of {@code code} and {@code flags} keeps its body in the pooled
     * buffer it arrived in rather than in a heap copy: a chunk of a large message, up to a
     * mebibyte, which a heap copy would make a large short-lived array of. A LARGE_CHUNK_WRITE
     * request's chunk goes straight from that buffer into the CommitLog; a LARGE_CHUNK_READ
     * answer's is copied once, into the array its reader reads from.
     */
    static boolean keepsPooledBody(short code, byte flags) {
        boolean response = (flags & FrameDescriptor.FLAG_RESPONSE) != 0;
        return code == CommandCode.LARGE_CHUNK_WRITE && !response
                || code == CommandCode.LARGE_CHUNK_READ && response && (flags & FrameDescriptor.FLAG_ERROR) == 0;
    }

    /**
     * Releases the body if it is a retained slice of a received buffer (an inbound frame that
     * {@link #keepsPooledBody} names); does nothing for any other frame. Called exactly once for
     * such a frame, after which its body must not be read.
     */
    public void releasePooledBody() {
        if (pooledBody) {
            body.release();
        }
    }

    /** A request awaiting a response; the request id is assigned when it is sent. */
    public static Frame request(short code, Object header) {
        return request(code, header, Unpooled.EMPTY_BUFFER);
    }

    public static Frame request(short code, Object header, ByteBuf body) {
        return new Frame(0, code, FrameDescriptor.FLAG_REQUEST, header, body);
    }

    /** A frame that expects no response. */
    public static Frame oneWay(short code, Object header) {
        return oneWay(code, header, Unpooled.EMPTY_BUFFER);
    }

    public static Frame oneWay(short code, Object header, ByteBuf body) {
        return new Frame(0, code, FrameDescriptor.FLAG_ONE_WAY, header, body);
    }

    /** The successful response to this request. */
    public Frame reply(Object header) {
        return reply(header, Unpooled.EMPTY_BUFFER);
    }

    public Frame reply(Object header, ByteBuf body) {
        return new Frame(requestId, code, FrameDescriptor.FLAG_RESPONSE, header, body);
    }

    /** The failed response to this request. */
    public Frame replyError(int status, String message) {
        return new Frame(requestId, code, (byte) (FrameDescriptor.FLAG_RESPONSE | FrameDescriptor.FLAG_ERROR),
                new ErrorHeader(status, message), Unpooled.EMPTY_BUFFER);
    }

    /** The same frame under another request id: how a connection numbers what it sends. */
    public Frame withRequestId(int newRequestId) {
        return new Frame(newRequestId, code, flags, header, body);
    }

    public int requestId() {
        return requestId;
    }

    public short code() {
        return code;
    }

    public byte flags() {
        return flags;
    }

    public boolean isRequest() {
        return (flags & FrameDescriptor.FLAG_REQUEST) != 0;
    }

    public boolean isResponse() {
        return (flags & FrameDescriptor.FLAG_RESPONSE) != 0;
    }

    public boolean isOneWay() {
        return (flags & FrameDescriptor.FLAG_ONE_WAY) != 0;
    }

    public boolean isError() {
        return (flags & FrameDescriptor.FLAG_ERROR) != 0;
    }

    /** The decoded header, or null when the frame has none. */
    public Object header() {
        return header;
    }

    /**
     * The header as the given type.
     *
     * @throws HeaderTypeException if the header is missing or of another class
     */
    public <T> T header(Class<T> type) {
        Objects.requireNonNull(type, "type");
        if (!type.isInstance(header)) {
            throw new HeaderTypeException(CommandCode.name(code) + " expects a " + type.getSimpleName()
                    + " header, got " + (header == null ? "none" : header.getClass().getSimpleName()));
        }
        return type.cast(header);
    }

    public ByteBuf body() {
        return body;
    }

    /** A copy of the readable body bytes, leaving the body's reader index where it is. */
    public byte[] bodyBytes() {
        return ByteBufUtil.getBytes(body);
    }

    /**
     * The readable body bytes, not copied when the body is one whole heap array (an inbound
     * frame's is, unless {@link #keepsPooledBody} names it), else a copy. The caller must not
     * change them: they may be the body's own.
     */
    public byte[] bodyArray() {
        if (body.hasArray() && body.arrayOffset() == 0 && body.readerIndex() == 0
                && body.readableBytes() == body.array().length) {
            return body.array();
        }
        return bodyBytes();
    }

    @Override
    public String toString() {
        return "Frame[" + CommandCode.name(code) + ", id " + requestId + ", flags 0x" + Integer.toHexString(flags)
                + ", header " + header + ", body " + body.readableBytes() + " bytes]";
    }
}
