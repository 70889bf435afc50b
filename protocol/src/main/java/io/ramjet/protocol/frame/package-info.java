/**
 * The frame: the wire protocol's unit. {@link io.ramjet.protocol.frame.FrameDescriptor} draws
 * the layout; {@link io.ramjet.protocol.frame.FrameDecoder} and
 * {@link io.ramjet.protocol.frame.FrameEncoder} are the Netty codec;
 * {@link io.ramjet.protocol.frame.HeaderCodec} encodes headers with Kryo and the registry of
 * {@code io.ramjet.protocol.command}.
 */
package io.ramjet.protocol.frame;
