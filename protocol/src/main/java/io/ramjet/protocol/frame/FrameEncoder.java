package io.ramjet.protocol.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.PromiseCombiner;

/**
 * Outbound half of the frame codec: a {@link Frame} becomes two writes, a small buffer with
 * the fixed fields and the Kryo header, then the body buffer untouched. The body is never
 * copied, so a slice of a mapped CommitLog file goes to the socket as it is (the transport
 * writes both with one gathering write when it can). Stateless and sharable.
 */
@ChannelHandler.Sharable
public final class FrameEncoder extends ChannelOutboundHandlerAdapter {

    private final HeaderCodec headerCodec;

    public FrameEncoder(HeaderCodec headerCodec) {
        this.headerCodec = headerCodec;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof Frame frame)) {
            ctx.write(msg, promise);
            return;
        }
        ByteBuf body = frame.body();
        ByteBuf head;
        try {
            byte[] header = headerCodec.encode(frame.header());
            head = ctx.alloc().ioBuffer(FrameDescriptor.HEADER_OFFSET + header.length);
            head.writeInt(FrameDescriptor.frameLength(header.length, body.readableBytes()));
            head.writeByte(FrameDescriptor.VERSION);
            head.writeInt(frame.requestId());
            head.writeShort(frame.code());
            head.writeByte(frame.flags());
            head.writeInt(header.length);
            head.writeBytes(header);
        } catch (RuntimeException e) {
            body.release();
            promise.setFailure(e);
            return;
        }
        if (!body.isReadable()) {
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
