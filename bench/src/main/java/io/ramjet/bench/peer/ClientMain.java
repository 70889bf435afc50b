package io.ramjet.bench.peer;

import io.ramjet.bench.rocketmq.RocketMqWorkloads;
import io.ramjet.bench.workload.Acknowledgement;
import io.ramjet.bench.workload.Failover;
import io.ramjet.bench.workload.FanOut;
import io.ramjet.bench.workload.NotApplicableException;
import io.ramjet.bench.workload.Rate;
import io.ramjet.bench.workload.Workloads;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * A peer's client in a JVM of its own, on that product's client library and Netty
 * ({@link ClientProcess} starts it): it builds the peer's {@link Workloads}, states its Netty and
 * JVM as {@link PeerControl} settings, prints {@code READY 0}, then runs one call a line from
 * stdin and answers each on a line of its own, prefixed {@value #ANSWER}: {@code OK} and the
 * result, {@code NULL}, {@code NA} and the reason (a {@link NotApplicableException}) or
 * {@code ERROR} and the failure. End of stdin closes the client and ends the JVM. Everything else
 * this JVM prints goes to stderr.
 *
 * <p>Usage: {@code ClientMain ramjet <producers> <consumers> <url>},
 * {@code ClientMain artemis <producers> <consumers> <url> <confirmationWindowSize>} or
 * {@code ClientMain rocketmq <producers> <consumers> <syncNameServer> <asyncNameServer>}.
 */
public final class ClientMain {

    /** The prefix of an answer line. */
    static final String ANSWER = "@@ ";

    private final Workloads w;
    private final Map<Integer, AutoCloseable> open = new HashMap<>();
    private int handles;

    private ClientMain(Workloads w) {
        this.w = w;
    }

    public static void main(String[] args) throws Exception {
        PrintStream answers = System.out;
        PeerControl.noteNetty();
        Workloads w = workloads(List.of(args));
        PeerControl.ready(0);
        System.setOut(System.err);
        ClientMain client = new ClientMain(w);
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                answers.println(ANSWER + client.answer(line.split(" ")));
                answers.flush();
            }
        } finally {
            for (AutoCloseable c : client.open.values()) {
                c.close();
            }
            w.close();
        }
        System.exit(0);
    }

    /** The client {@code args} name: its product, producers, consumers, then its spec ({@link JmsClient#of}). */
    static Workloads workloads(List<String> args) {
        int producers = Integer.parseInt(args.get(1));
        int consumers = Integer.parseInt(args.get(2));
        List<String> spec = new ArrayList<>(args.subList(3, args.size()));
        if (args.get(0).equals("rocketmq")) {
            return new RocketMqWorkloads(spec.get(0), spec.get(1), producers, consumers);
        }
        spec.add(0, args.get(0));
        return JmsClient.of(spec).workloads(producers, consumers);
    }

    private String answer(String[] call) {
        try {
            Object result = run(call);
            return result == null ? "NULL" : "OK " + result;
        } catch (NotApplicableException e) {
            return "NA " + oneLine(e.getMessage());
        } catch (Exception | Error e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            e.printStackTrace();
            return "ERROR " + oneLine(e.toString());
        }
    }

    private Object run(String[] c) throws Exception {
        return switch (c[0]) {
            case "send" -> rate(c.length > 5 ? w.send(c[1], n(c[2]), i(c[3]), b(c[4]), i(c[5]))
                    : w.send(c[1], n(c[2]), i(c[3]), b(c[4])));
            case "drain" -> rate(c.length > 4 ? w.drain(c[1], n(c[2]), Acknowledgement.valueOf(c[3]), i(c[4]))
                    : w.drain(c[1], n(c[2]), Acknowledgement.valueOf(c[3])));
            case "acknowledgements" -> w.acknowledgements().stream().map(Enum::name).collect(Collectors.joining(","));
            case "acknowledgementGap" -> w.acknowledgementGap(Acknowledgement.valueOf(c[1]));
            case "openConsumers" -> keep(w.openConsumers(c[1], i(c[2])));
            case "openFanOut" -> keep(w.openFanOut(c[1], i(c[2]), b(c[3])));
            case "fanOutSend" -> rate(opened(FanOut.class, c[1]).send(n(c[2]), i(c[3])));
            case "failover" -> keep(w.failover(c[1]));
            case "failoverStart" -> {
                opened(Failover.class, c[1]).start(i(c[2]));
                yield "";
            }
            case "failoverKilling" -> {
                opened(Failover.class, c[1]).killing();
                yield "";
            }
            case "failoverExited" -> opened(Failover.class, c[1]).exited(Duration.ofNanos(n(c[2]))).encode();
            case "close" -> {
                AutoCloseable closing = open.remove(i(c[1]));
                if (closing == null) {
                    throw new IllegalArgumentException("no open handle " + c[1]);
                }
                closing.close();
                yield "";
            }
            case "transactedSend" -> rate(w.transactedSend(c[1], n(c[2]), i(c[3]), i(c[4])));
            case "largeTransactionCommit" -> w.largeTransactionCommit(c[1], n(c[2]), i(c[3])).toNanos();
            case "sendAsync" -> rate(w.sendAsync(c[1], n(c[2]), i(c[3])));
            case "latency" -> histogram(w.latency(c[1], i(c[2]), i(c[3]), Duration.ofNanos(n(c[4]))));
            case "selective" -> w.selective(c[1], n(c[2]), i(c[3]), b(c[4])).toNanos();
            case "orderedGroups" -> rate(w.orderedGroups(c[1], i(c[2]), n(c[3]), i(c[4]), i(c[5])));
            case "manyDestinations" -> rate(w.manyDestinations(c[1], i(c[2]), i(c[3])));
            case "largeSend" -> rate(w.largeSend(c[1], n(c[2]), i(c[3])));
            case "largeDrain" -> rate(w.largeDrain(c[1], n(c[2]), i(c[3])));
            case "temporaryQueues" -> histogram(w.temporaryQueues(i(c[1])));
            case "peakHeap" -> PeerControl.peakHeapBytes();
            case "collect" -> {
                System.gc();
                yield "";
            }
            default -> throw new IllegalArgumentException("no call " + Arrays.toString(c));
        };
    }

    /** Keeps {@code opened} until a {@code close} call names the handle this returns. */
    private int keep(AutoCloseable opened) {
        open.put(++handles, opened);
        return handles;
    }

    private <T> T opened(Class<T> type, String handle) {
        AutoCloseable o = open.get(i(handle));
        if (!type.isInstance(o)) {
            throw new IllegalArgumentException("no open " + type.getSimpleName() + " " + handle);
        }
        return type.cast(o);
    }

    /** A rate as its messages and nanoseconds. */
    static String rate(Rate r) {
        return r.messages() + " " + r.nanos();
    }

    static Rate rate(String s) {
        String[] p = s.split(" ");
        return new Rate(Long.parseLong(p[0]), Long.parseLong(p[1]));
    }

    /** A histogram in HdrHistogram's compressed encoding, in Base64. */
    static String histogram(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    static Histogram histogram(String s) throws java.util.zip.DataFormatException {
        return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(s)), 0);
    }

    /** The arguments of a call, space-separated (names and numbers have no spaces). */
    static String call(Object... parts) {
        List<String> s = new ArrayList<>();
        for (Object p : parts) {
            String text = String.valueOf(p);
            if (text.isEmpty() || text.contains(" ") || text.contains("\n")) {
                throw new IllegalArgumentException("not an argument of a client call: '" + text + "'");
            }
            s.add(text);
        }
        return String.join(" ", s);
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replace('\n', ' ').replace('\r', ' ');
    }

    private static long n(String s) {
        return Long.parseLong(s);
    }

    private static int i(String s) {
        return Integer.parseInt(s);
    }

    private static boolean b(String s) {
        return Boolean.parseBoolean(s);
    }
}
