package io.ramjet.reliability;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * A client in a JVM of its own (run with a small heap), for {@link LargeMessageTest}: sends or
 * receives one large BytesMessage whose body is {@link Pattern}'s bytes, streamed
 * ({@code JMS_Ramjet_InputStream} to send, {@code JMS_Ramjet_SaveStream} to receive), or written
 * whole with {@code writeBytes} (mode {@code write}: the body in the client's memory, which the
 * client may send again after a failover, where a stream is read once). Prints one
 * line per step on standard output: {@code sending}, {@code sent MILLIS}; {@code reading},
 * {@code received LENGTH MISMATCH_AT REDELIVERED MILLIS} (MISMATCH_AT -1 when every byte is as
 * sent); then {@code peakHeap BYTES}, the JVM's own peak use of its heap pools. A receive uses
 * CLIENT_ACKNOWLEDGE and acknowledges once the whole body is read; {@code none} when no message
 * comes within the timeout.
 * Arguments: {@code send|write URL QUEUE LENGTH} or {@code receive URL QUEUE TIMEOUT_MILLIS}.
 */
public final class LargeMessageChild {

    private LargeMessageChild() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        RamjetConnectionFactory factory = new RamjetConnectionFactory(args[1]);
        try (Connection connection = factory.createConnection()) {
            if (args[0].equals("send") || args[0].equals("write")) {
                send(connection, args[2], Long.parseLong(args[3]), args[0].equals("write"), out);
            } else {
                receive(connection, args[2], Long.parseLong(args[3]), out);
            }
        }
        out.println("peakHeap " + peakHeap());
        out.flush();
    }

    private static void send(Connection connection, String queue, long length, boolean whole, PrintStream out)
            throws Exception {
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = session.createProducer(session.createQueue(queue));
        BytesMessage m = session.createBytesMessage();
        m.setLongProperty("length", length);
        if (whole) {
            m.writeBytes(new Pattern.Stream(length).readAllBytes());
        } else {
            m.setObjectProperty("JMS_Ramjet_InputStream", new Pattern.Stream(length));
        }
        out.println("sending");
        out.flush();
        long start = System.nanoTime();
        try {
            producer.send(m);
        } catch (JMSException e) {
            // the exception's type tells a send certainly not stored from one whose outcome is unknown
            out.println("failed " + e.getClass().getSimpleName());
            out.flush();
            throw e;
        }
        out.println("sent " + (System.nanoTime() - start) / 1_000_000);
        out.flush();
    }

    private static void receive(Connection connection, String queue, long timeout, PrintStream out) throws Exception {
        Session session = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
        connection.start();
        long start = System.nanoTime();
        Message m = consumer.receive(timeout);
        if (m == null) {
            out.println("none");
            return;
        }
        out.println("reading");
        out.flush();
        Pattern.Check check = new Pattern.Check();
        m.setObjectProperty("JMS_Ramjet_SaveStream", check);
        boolean lengthAgrees = ((BytesMessage) m).getBodyLength() == m.getLongProperty("length");
        m.acknowledge();
        out.println("received " + check.length() + " " + (lengthAgrees ? check.mismatchAt() : -2) + " "
                + m.getJMSRedelivered() + " " + (System.nanoTime() - start) / 1_000_000);
        out.flush();
    }

    private static long peakHeap() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }

    /** Bytes that depend on their position only, generated and checked without holding them. */
    static final class Pattern {

        private Pattern() {
        }

        static byte at(long i) {
            return (byte) (i * 31 + (i >>> 11) + (i >>> 23));
        }

        static final class Stream extends InputStream {
            private final long length;
            private long position;

            Stream(long length) {
                this.length = length;
            }

            @Override
            public int read() {
                return position < length ? at(position++) & 0xff : -1;
            }

            @Override
            public int read(byte[] into, int offset, int count) {
                if (position >= length) {
                    return -1;
                }
                int n = (int) Math.min(count, length - position);
                for (int k = 0; k < n; k++) {
                    into[offset + k] = at(position++);
                }
                return n;
            }
        }

        static final class Check extends OutputStream {
            private long length;
            private long mismatchAt = -1;

            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int count) {
                for (int k = 0; k < count; k++) {
                    if (mismatchAt < 0 && bytes[offset + k] != at(length)) {
                        mismatchAt = length;
                    }
                    length++;
                }
            }

            long length() {
                return length;
            }

            long mismatchAt() {
                return mismatchAt;
            }
        }
    }
}
