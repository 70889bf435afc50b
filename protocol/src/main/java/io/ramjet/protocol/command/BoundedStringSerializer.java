package io.ramjet.protocol.command;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

import java.nio.charset.StandardCharsets;

/**
 * UTF-8 strings as a var-int byte count (0 = null, n + 1 = n bytes) followed by the bytes.
 * Kryo's own string format allocates the announced length before reading it; this one refuses
 * a length larger than what is left in the header.
 */
final class BoundedStringSerializer extends Serializer<String> {

    BoundedStringSerializer() {
        super(true, true);
    }

    @Override
    public void write(Kryo kryo, Output output, String value) {
        if (value == null) {
            output.writeVarInt(0, true);
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        output.writeVarInt(bytes.length + 1, true);
        output.writeBytes(bytes);
    }

    @Override
    public String read(Kryo kryo, Input input, Class<? extends String> type) {
        int marker = input.readVarInt(true);
        if (marker == 0) {
            return null;
        }
        int length = marker - 1;
        if (length < 0 || length > input.limit() - input.position()) {
            throw new KryoException("string length " + length + " exceeds the remaining header bytes");
        }
        return new String(input.readBytes(length), StandardCharsets.UTF_8);
    }
}
