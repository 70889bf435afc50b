package io.ramjet.bench.jms;

import io.ramjet.bench.workload.NotApplicableException;
import jakarta.jms.ConnectionFactory;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A vendor's large-message stream API, which JMS leaves to each provider: the BytesMessage
 * property that takes an {@code InputStream} as the body to send, and the one that writes a
 * received body to an {@code OutputStream}, returning once it is whole.
 */
record LargeBodies(String inputStream, String saveStream) {

    static final LargeBodies RAMJET = new LargeBodies("JMS_Ramjet_InputStream", "JMS_Ramjet_SaveStream");
    static final LargeBodies ARTEMIS = new LargeBodies("JMS_AMQ_InputStream", "JMS_AMQ_SaveStream");

    /** The API of the provider whose connection factory {@code factory} is. */
    static LargeBodies of(ConnectionFactory factory) throws NotApplicableException {
        if (factory.getClass().getName().startsWith("io.ramjet.")) {
            return RAMJET;
        }
        if (factory.getClass().getName().startsWith("org.apache.activemq.artemis.")) {
            return ARTEMIS;
        }
        throw new NotApplicableException("no large-message stream API known for " + factory.getClass().getName());
    }

    /** {@code length} zero bytes, generated as they are read. */
    static final class Zeros extends InputStream {
        private long left;

        Zeros(long length) {
            this.left = length;
        }

        @Override
        public int read() {
            if (left == 0) {
                return -1;
            }
            left--;
            return 0;
        }

        @Override
        public int read(byte[] into, int offset, int count) {
            if (left == 0) {
                return -1;
            }
            int n = (int) Math.min(count, left);
            Arrays.fill(into, offset, offset + n, (byte) 0);
            left -= n;
            return n;
        }
    }

    /** Counts the bytes written to it and keeps none. */
    static final class Counter extends OutputStream {
        private long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            count += length;
        }

        long count() {
            return count;
        }
    }
}
