package io.ramjet.protocol.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.ramjet.protocol.command.CommandCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Inbound half of the frame codec: bytes to {@link Frame}s, layout in {@link FrameDescriptor}.
 *
 * <p>Memory is bounded by the maximum frame length: a length prefix above it (or below the
 * fixed fields) fails as soon as its four bytes arrive, before the frame is buffered. Every malformed input raises a
 * {@link io.netty.handler.codec.DecoderException}, after which the connection must be closed;
 * the decoder never tries to resynchronise and discards whatever arrives after the failure. Bytes of an unfinished frame left when the peer
 * closes are discarded with a warning.
 *
 * <p>On a server, the limit may start lower ({@code limitBeforeLogin}) until the connection
 * authenticates ({@link Authenticated}, fired down the pipeline), and a large frame must find room
 * in the server's {@link FrameMemory} before it is buffered, else the connection is closed. A
 * frame's body is copied out of the received buffer, except where {@link Frame#keepsPooledBody}
 * says it stays there (see {@link Frame} for who releases it then). One instance per channel,
 * used on its I/O thread.
 */
public final class FrameDecoder extends LengthFieldBasedFrameDecoder {

    private static final Logger LOG = LoggerFactory.getLogger(FrameDecoder.class);

    /** The user event telling the decoder its connection authenticated as {@code user}: the full limit applies. */
    public record Authenticated(String user) {
    }

    private final HeaderCodec headerCodec;
    private final int maxFrameLength;
    private final FrameMemory memory;
    private final RefusalLog refusals;
    private int limit;
    private String owner;
    private long reservedFrame;
    private boolean failed;

    /**
     * @param maxFrameLength largest accepted value of the length field
     */
    public FrameDecoder(int maxFrameLength, HeaderCodec headerCodec) {
        this(maxFrameLength, maxFrameLength, null, null, headerCodec);
    }

    /**
     * A server's decoder.
     *
     * @param maxFrameLength   largest accepted value of the length field once authenticated
     * @param limitBeforeLogin largest accepted before ({@code maxFrameLength} where no login is needed)
     * @param memory           the server's budget for large partial frames, or null for none
     * @param refusals         where refusals are logged, once per remote address
     */
    public FrameDecoder(int maxFrameLength, int limitBeforeLogin, FrameMemory memory, RefusalLog refusals,
                        HeaderCodec headerCodec) {
        super(Integer.MAX_VALUE - FrameDescriptor.LENGTH_FIELD_LENGTH < maxFrameLength
                        ? Integer.MAX_VALUE : maxFrameLength + FrameDescriptor.LENGTH_FIELD_LENGTH,
                FrameDescriptor.LENGTH_FIELD_OFFSET, FrameDescriptor.LENGTH_FIELD_LENGTH, 0, 0, true);
        if (maxFrameLength < FrameDescriptor.FIXED_LENGTH) {
            throw new IllegalArgumentException("maxFrameLength too small: " + maxFrameLength);
        }
        this.headerCodec = headerCodec;
        this.maxFrameLength = maxFrameLength;
        this.limit = Math.max(FrameDescriptor.FIXED_LENGTH, Math.min(limitBeforeLogin, maxFrameLength));
        this.memory = memory;
        this.refusals = refusals;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof Authenticated authenticated) {
            limit = maxFrameLength;
            owner = "user " + authenticated.user();
        }
        super.userEventTriggered(ctx, event);
    }

    private String owner(ChannelHandlerContext ctx) {
        if (owner == null) {
            owner = "address " + RefusalLog.host(ctx.channel().remoteAddress());
        }
        return owner;
    }

    private void releaseFrame(ChannelHandlerContext ctx) {
        if (reservedFrame > 0) {
            memory.release(owner(ctx), reservedFrame);
            reservedFrame = 0;
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        releaseFrame(ctx);
        super.handlerRemoved0(ctx);
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return null;
        }
        try {
            return decodeFrame(ctx, in);
        } catch (Exception e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
    }

    private Object decodeFrame(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (in.readableBytes() >= FrameDescriptor.LENGTH_FIELD_LENGTH) {
            int length = in.getInt(in.readerIndex() + FrameDescriptor.LENGTH_FIELD_OFFSET);
            if (length < FrameDescriptor.FIXED_LENGTH || length > limit) {
                if (length <= maxFrameLength && refusals != null) {
                    refusals.refused(ctx.channel().remoteAddress(), "a frame of " + length
                            + " bytes before authenticating (at most " + limit + ")");
                }
                throw new FrameException("frame length " + length + " outside " + FrameDescriptor.FIXED_LENGTH
                        + ".." + limit);
            }
            if (memory != null && length > FrameMemory.SMALL_FRAME && reservedFrame == 0) {
                if (!memory.reserve(owner(ctx), length)) {
                    refusals.refused(ctx.channel().remoteAddress(), "a frame of " + length + " bytes: the memory for"
                            + " partially received frames is taken (" + memory.reserved() + " of " + memory.limit()
                            + " bytes, " + memory.ownerLimit() + " per user or address)");
                    throw new FrameException("no memory for a frame of " + length + " bytes now");
                }
                reservedFrame = length;
            }
        }
        ByteBuf frame = (ByteBuf) super.decode(ctx, in);
        if (frame == null) {
            return null;
        }
        releaseFrame(ctx);
        try {
            return parse(frame);
        } finally {
            frame.release();
        }
    }

    private Frame parse(ByteBuf frame) {
        int frameLength = frame.getInt(FrameDescriptor.LENGTH_FIELD_OFFSET);
        byte version = frame.getByte(FrameDescriptor.VERSION_OFFSET);
        if (version != FrameDescriptor.VERSION) {
            throw new FrameException("unsupported codec version " + version);
        }
        int requestId = frame.getInt(FrameDescriptor.REQUEST_ID_OFFSET);
        short code = frame.getShort(FrameDescriptor.COMMAND_CODE_OFFSET);
        byte flags = frame.getByte(FrameDescriptor.FLAGS_OFFSET);
        if (!FrameDescriptor.isValidFlags(flags)) {
            throw new FrameException("invalid flags 0x" + Integer.toHexString(flags & 0xff)
                    + " on " + CommandCode.name(code));
        }
        int headerLength = frame.getInt(FrameDescriptor.HEADER_LENGTH_OFFSET);
        if (headerLength < 0 || headerLength > frameLength - FrameDescriptor.FIXED_LENGTH) {
            throw new FrameException("header length " + headerLength + " outside frame of " + frameLength);
        }
        byte[] headerBytes = new byte[headerLength];
        frame.getBytes(FrameDescriptor.HEADER_OFFSET, headerBytes);
        Object header;
        try {
            header = headerCodec.decode(headerBytes);
        } catch (RuntimeException e) {
            throw new FrameException("undecodable header on " + CommandCode.name(code) + ": " + e.getMessage(), e);
        }
        int bodyOffset = FrameDescriptor.bodyOffset(headerLength);
        int bodyLength = frame.writerIndex() - bodyOffset;
        if (bodyLength > 0 && Frame.keepsPooledBody(code, flags)) {
            return new Frame(requestId, code, flags, header, frame.retainedSlice(bodyOffset, bodyLength), true);
        }
        byte[] body = new byte[bodyLength];
        frame.getBytes(bodyOffset, body);
        return new Frame(requestId, code, flags, header, Unpooled.wrappedBuffer(body));
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        super.decodeLast(ctx, in, out);
        if (in.isReadable() && !failed) {
            LOG.warn("{} closed in the middle of a frame: {} bytes discarded",
                    ctx.channel().remoteAddress(), in.readableBytes());
            in.skipBytes(in.readableBytes());
        }
    }
}
