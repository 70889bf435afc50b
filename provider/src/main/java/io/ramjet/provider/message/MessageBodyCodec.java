package io.ramjet.provider.message;

import io.ramjet.protocol.message.BodyType;
import io.ramjet.protocol.message.MessageFormatError;
import io.ramjet.protocol.message.ValueCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The byte layout of each body type, the record's "body bytes"; the header section names the
 * type ({@link BodyType}). Values and varints are {@link ValueCodec}'s, char and byte[] included.
 *
 * <pre>
 *   MESSAGE  empty
 *   TEXT     empty for a null text, else 0x01 then the text in UTF-8
 *   BYTES    the bytes as written
 *   MAP      entry count (varint), then per entry: name (varint length, UTF-8), typed value
 *   STREAM   value count (varint), then the typed values in order
 *   OBJECT   empty for a null object, else the Java serialization stream (starts 0xACED)
 * </pre>
 */
final class MessageBodyCodec {

    private static final byte TEXT_PRESENT = 1;

    private MessageBodyCodec() {
    }

    static byte[] encode(RamjetMessage message) {
        switch (message.bodyType()) {
            case TEXT: {
                String text = ((RamjetTextMessage) message).getText();
                if (text == null) {
                    return new byte[0];
                }
                byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                return new ValueCodec.Sink(utf8.length + 1).put(TEXT_PRESENT).putRaw(utf8, 0, utf8.length).toByteArray();
            }
            case BYTES:
                return ((RamjetBytesMessage) message).sentBytes();
            case MAP: {
                Map<String, Object> entries = ((RamjetMapMessage) message).entries();
                ValueCodec.Sink out = new ValueCodec.Sink(16 * entries.size() + 4).putVarint(entries.size());
                entries.forEach((name, value) -> {
                    out.putString(name);
                    ValueCodec.write(out, value);
                });
                return out.toByteArray();
            }
            case STREAM: {
                List<Object> values = ((RamjetStreamMessage) message).values();
                ValueCodec.Sink out = new ValueCodec.Sink(8 * values.size() + 4).putVarint(values.size());
                values.forEach(value -> ValueCodec.write(out, value));
                return out.toByteArray();
            }
            case OBJECT: {
                byte[] serialized = ((RamjetObjectMessage) message).serialized();
                return serialized == null ? new byte[0] : serialized.clone();
            }
            default:
                return new byte[0];
        }
    }

    /**
     * A writable message of the type with the body decoded; the caller makes it read-only. The
     * body is read from its position to its limit, which it moves; a bytes body stays a view of
     * it, so nothing may change it afterwards.
     */
    static RamjetMessage decode(BodyType type, ByteBuffer in, SerializationAllowList allowList) {
        switch (type) {
            case TEXT: {
                if (!in.hasRemaining()) {
                    return new RamjetTextMessage();
                }
                byte marker = in.get();
                if (marker != TEXT_PRESENT) {
                    throw new MessageFormatError("bad text body marker " + marker);
                }
                return new RamjetTextMessage(new String(rest(in), StandardCharsets.UTF_8));
            }
            case BYTES: {
                RamjetBytesMessage m = new RamjetBytesMessage();
                m.setBody(in);
                return m;
            }
            case MAP: {
                RamjetMapMessage m = new RamjetMapMessage();
                int count = count(in);
                for (int i = 0; i < count; i++) {
                    String name = ValueCodec.readString(in);
                    m.entries().put(name, ValueCodec.read(in, true));
                }
                end(in);
                return m;
            }
            case STREAM: {
                RamjetStreamMessage m = new RamjetStreamMessage();
                int count = count(in);
                for (int i = 0; i < count; i++) {
                    m.values().add(ValueCodec.read(in, true));
                }
                end(in);
                return m;
            }
            case OBJECT: {
                RamjetObjectMessage m = new RamjetObjectMessage(allowList);
                m.setSerialized(in.hasRemaining() ? rest(in) : null);
                return m;
            }
            default:
                if (in.hasRemaining()) {
                    throw new MessageFormatError("a message without a body has " + in.remaining() + " body bytes");
                }
                return new RamjetMessage();
        }
    }

    private static byte[] rest(ByteBuffer in) {
        byte[] bytes = new byte[in.remaining()];
        in.get(bytes);
        return bytes;
    }

    private static int count(ByteBuffer in) {
        int count = ValueCodec.readVarint(in);
        if (count > in.remaining()) {
            throw new MessageFormatError("value count " + count + " exceeds the body");
        }
        return count;
    }

    private static void end(ByteBuffer in) {
        if (in.hasRemaining()) {
            throw new MessageFormatError(in.remaining() + " bytes after the last value");
        }
    }
}
