package io.ramjet.protocol.frame;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import io.ramjet.protocol.command.HeaderRegistry;

/**
 * Kryo encoding of frame headers with the classes and ids of {@link HeaderRegistry}.
 * Thread-safe: Kryo instances are not, so each call borrows one from a pool.
 */
public final class HeaderCodec {

    private static final int INITIAL_BUFFER = 256;

    private final Pool<Kryo> pool;

    public HeaderCodec() {
        this.pool = new Pool<>(true, false, 64) {
            @Override
            protected Kryo create() {
                Kryo kryo = new Kryo();
                HeaderRegistry.configure(kryo);
                return kryo;
            }
        };
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
        Kryo kryo = pool.obtain();
        Output output = new Output(INITIAL_BUFFER, -1);
        kryo.writeClassAndObject(output, header);
        pool.free(kryo);
        return output.toBytes();
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
        Kryo kryo = pool.obtain();
        Input input = new Input(bytes);
        Object header;
        try {
            header = kryo.readClassAndObject(input);
        } catch (RuntimeException e) {
            // a failed read may leave the instance mid-graph: let it go rather than reuse it (same on write)
            throw e instanceof KryoException ? e : new KryoException(e);
        }
        pool.free(kryo);
        if (input.position() != bytes.length) {
            throw new KryoException((bytes.length - input.position()) + " trailing bytes after the header");
        }
        return header;
    }
}
