package io.ramjet.protocol.message;

/**
 * Writes a header section byte by byte, for sections {@link MessagePropertiesCodec#encode} never
 * writes: a name that comes twice, names and strings that are not well-formed UTF-8.
 */
public final class RawSection {

    private final ValueCodec.Sink headers = new ValueCodec.Sink(64);
    private final ValueCodec.Sink properties = new ValueCodec.Sink(64);
    private int bits;
    private int count;

    public RawSection messageId(byte[] utf8) {
        bits |= HeaderSectionDescriptor.MESSAGE_ID;
        headers.putBytes(utf8);
        return this;
    }

    /** After {@link #messageId}, as the layout orders them. */
    public RawSection replyTo(byte kind, byte[] utf8) {
        bits |= HeaderSectionDescriptor.REPLY_TO;
        headers.put(kind).putBytes(utf8);
        return this;
    }

    /** After the other headers, as the layout orders them. */
    public RawSection type(byte[] utf8) {
        bits |= HeaderSectionDescriptor.TYPE;
        headers.putBytes(utf8);
        return this;
    }

    public RawSection property(byte[] name, Object value) {
        properties.putBytes(name);
        ValueCodec.write(properties, value);
        count++;
        return this;
    }

    public RawSection stringProperty(byte[] name, byte[] utf8) {
        properties.putBytes(name).put(ValueCodec.STRING).putBytes(utf8);
        count++;
        return this;
    }

    public byte[] toBytes() {
        ValueCodec.Sink out = new ValueCodec.Sink(HeaderSectionDescriptor.FIXED_LENGTH + headers.size() + properties.size() + 5);
        out.put(HeaderSectionDescriptor.VERSION).put(BodyType.TEXT.code()).put((byte) MessageHeaders.PERSISTENT)
                .put((byte) MessageHeaders.DEFAULT_PRIORITY).putLong(1).putLong(0).putLong(0).put((byte) bits);
        out.putRaw(headers.toByteArray(), 0, headers.size()).putVarint(count);
        return out.putRaw(properties.toByteArray(), 0, properties.size()).toByteArray();
    }
}
