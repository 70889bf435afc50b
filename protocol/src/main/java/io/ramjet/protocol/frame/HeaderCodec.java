package io.ramjet.protocol.frame;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import io.ramjet.protocol.command.HeaderRegistry;

/**
 * Kryo encoding of frame headers with the classes and ids of {@link HeaderRegistry}.
 * Thread-safe: Kryo instances are not, so each call borrows one from a pool, with the Output
 * and Input it reuses (a frame's header costs no buffers of its own).
 */
public final class HeaderCodec {

    private static final int INITIAL_BUFFER = 256;
    /** An Output grown past this by a large header is replaced, so the pool holds no large buffers. */
    private static final int KEPT_BUFFER = 16 * 1024;
    private static final byte[] NO_BYTES = new byte[0];

    private final Pool<Instance> pool;

    public HeaderCodec() {
        this.pool = new Pool<>(true, false, 64) {
            @Override
            protected Instance create() {
                Kryo kryo = new Kryo();
                HeaderRegistry.configure(kryo);
                return new Instance(kryo, new Output(INITIAL_BUFFER, -1), new Input());
            }
        };
    }

    private record Instance(Kryo kryo, Output output, Input input) {
    }

    /**
     * The header's bytes, or an empty array for a null header.
     *
     * @throws IllegalArgumentException if the header's class (or a class inside it) is not registered
     */
    public byte[] encode(Object header) {
        if (header == null) {
            return new byte[0];
        }
        Instance instance = pool.obtain();
        Output output = instance.output();
        output.reset();
        instance.kryo().writeClassAndObject(output, header);
        byte[] bytes = output.toBytes();
        if (output.getBuffer().length > KEPT_BUFFER) {
            output.setBuffer(new byte[INITIAL_BUFFER], -1);
        }
        pool.free(instance);
        return bytes;
    }

    /**
     * Decodes a header that must use every byte given.
     *
     * @throws KryoException for an unregistered class id, a malformed or truncated value or trailing bytes
     */
    public Object decode(byte[] bytes) {
        if (bytes.length == 0) {
            return null;
        }
        Instance instance = pool.obtain();
        Input input = instance.input();
        input.setBuffer(bytes);
        Object header;
        try {
            header = instance.kryo().readClassAndObject(input);
        } catch (RuntimeException e) {
            // a failed read may leave the instance mid-graph: let it go rather than reuse it (same on write)
            throw e instanceof KryoException ? e : new KryoException(e);
        }
        int read = input.position();
        input.setBuffer(NO_BYTES);
        pool.free(instance);
        if (read != bytes.length) {
            throw new KryoException((bytes.length - read) + " trailing bytes after the header");
        }
        return header;
    }
}
