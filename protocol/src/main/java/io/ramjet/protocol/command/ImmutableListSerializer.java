package io.ramjet.protocol.command;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;

import java.util.ArrayList;
import java.util.List;

/**
 * The JDK's immutable lists ({@code List.of}, {@code List.copyOf}), which every header record
 * normalises its list components to: a var-int size, then each element with its class id.
 * A size larger than the remaining header bytes is refused before anything is allocated.
 */
final class ImmutableListSerializer extends Serializer<List<?>> {

    ImmutableListSerializer() {
        super(false, true);
    }

    @Override
    public void write(Kryo kryo, Output output, List<?> list) {
        output.writeVarInt(list.size(), true);
        for (Object element : list) {
            kryo.writeClassAndObject(output, element);
        }
    }

    @Override
    public List<?> read(Kryo kryo, Input input, Class<? extends List<?>> type) {
        int size = input.readVarInt(true);
        if (size < 0 || size > input.limit() - input.position()) {
            throw new KryoException("list size " + size + " exceeds the remaining header bytes");
        }
        List<Object> elements = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            Object element = kryo.readClassAndObject(input);
            if (element == null) {
                throw new KryoException("null list element");
            }
            elements.add(element);
        }
        return List.copyOf(elements);
    }
}
