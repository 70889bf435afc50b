package io.ramjet.protocol.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.PromiseCombiner;
import io.ramjet.protocol.command.CommandCode;

/**
 * Outbound half of the frame codec: a {@link Frame} becomes a buffer with the fixed fields and
 * the Kryo header, then the body. A direct body is written untouched as a second write, so a
 * slice of a mapped CommitLog file goes to the socket as it is (the transport writes both with
 * one gathering write when it can). A heap body is copied into the first buffer instead: the
 * transport would copy it to direct memory anyway, and for a composite (a client's properties
 * and body) by way of a merged heap copy per frame. A frame longer than the peer accepts is
 * refused before anything of it is written, failing its write with a
 * {@link FrameTooLongException}: sent anyway, it would make the peer close the connection, and
 * everything else on it with the frame. Stateless and sharable.
 */
@ChannelHandler.Sharable
public final class FrameEncoder extends ChannelOutboundHandlerAdapter {

    private final HeaderCodec headerCodec;
    private final int maxFrameLength;

    /** An encoder for peers that accept frames up to {@link FrameDescriptor#DEFAULT_MAX_FRAME_LENGTH}. */
    public FrameEncoder(HeaderCodec headerCodec) {
        this(headerCodec, FrameDescriptor.DEFAULT_MAX_FRAME_LENGTH);
    }

    /** @param maxFrameLength the longest frame (value of its length field) the peer accepts */
    public FrameEncoder(HeaderCodec headerCodec, int maxFrameLength) {
        this.headerCodec = headerCodec;
        this.maxFrameLength = maxFrameLength;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof Frame frame)) {
            ctx.write(msg, promise);
            return;
        }
        ByteBuf body = frame.body();
        ByteBuf head;
        boolean copied;
        try {
            byte[] header = headerCodec.encode(frame.header());
            long length = (long) FrameDescriptor.FIXED_LENGTH + header.length + body.readableBytes();
            if (length > maxFrameLength) {
                throw new FrameTooLongException(CommandCode.name(frame.code()), length, maxFrameLength);
            }
            copied = !body.isDirect();
            head = ctx.alloc().ioBuffer(FrameDescriptor.HEADER_OFFSET + header.length
                    + (copied ? body.readableBytes() : 0));
            head.writeInt(FrameDescriptor.frameLength(header.length, body.readableBytes()));
            head.writeByte(FrameDescriptor.VERSION);
            head.writeInt(frame.requestId());
            head.writeShort(frame.code());
            head.writeByte(frame.flags());
            head.writeInt(header.length);
            head.writeBytes(header);
            if (copied) {
                // component by component: writeBytes(composite) would merge it into a heap copy first
                body.getBytes(body.readerIndex(), head, body.readableBytes());
            }
        } catch (RuntimeException e) {
            body.release();
            promise.setFailure(e);
            return;
        }
        if (copied || !body.isReadable()) {
            body.release();
            ctx.write(head, promise);
            return;
        }
        PromiseCombiner combiner = new PromiseCombiner(ctx.executor());
        combiner.add(ctx.write(head));
        combiner.add(ctx.write(body));
        combiner.finish(promise);
    }
}
