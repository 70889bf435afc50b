package io.ramjet.bench.peer;

import io.ramjet.bench.workload.Acknowledgement;
import io.ramjet.bench.workload.Failover;
import io.ramjet.bench.workload.FanOut;
import io.ramjet.bench.workload.NotApplicableException;
import io.ramjet.bench.workload.Rate;
import io.ramjet.bench.workload.Workloads;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A peer's client in a JVM of its own ({@link ClientMain}) on that product's client library and
 * its Netty ({@link PeerClassPath#client}), not on the benchmark's class path: every call of
 * {@link Workloads} goes to it as a line and waits for its answer, so the timers run in the
 * client's JVM exactly as they did in this one. Its output is kept in
 * {@code bench/target/peer-logs/ClientMain-<pid>.log}. Closing it closes the client's stdin and
 * waits for the JVM to end (killed after 30 s).
 */
public final class ClientProcess implements Workloads {

    private static final Logger LOG = LoggerFactory.getLogger(ClientProcess.class);
    private static final String END = "end of the client JVM's output";
    /**
     * The heap of every peer's client JVM, initial and maximum alike, as the brokers' are: the
     * same for every peer, so no client runs on a larger heap than another's (the JVM's default
     * is a quarter of the machine's memory, which differs between machines).
     */
    public static final String HEAP = "1g";

    private final String product;
    private final Process process;
    private final Map<String, String> settings;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final List<Acknowledgement> acknowledgements;

    private ClientProcess(String product, Process process, Map<String, String> settings, BufferedReader out,
                          BufferedWriter log) throws IOException, NotApplicableException {
        this.product = product;
        this.process = process;
        this.settings = settings;
        Thread reader = new Thread(() -> read(out, log), "client-" + product + "-out");
        reader.setDaemon(true);
        reader.start();
        List<Acknowledgement> modes = new ArrayList<>();
        for (String m : ask("acknowledgements").split(",")) {
            modes.add(Acknowledgement.valueOf(m));
        }
        this.acknowledgements = List.copyOf(modes);
    }

    /**
     * Starts the client {@code spec} names (its product, ramjet, artemis or rocketmq, then its
     * broker's address and settings as {@link ClientMain} reads them) with {@code producers} and
     * {@code consumers}, the JVM with {@link #HEAP} and {@code jvmArgs}; returns once it is ready.
     */
    public static ClientProcess start(List<String> spec, int producers, int consumers, List<String> jvmArgs)
            throws IOException {
        String product = spec.get(0);
        PeerClassPath classPath = PeerClassPath.client(product);
        String cp = classPath.apply(ClientMain.class, PeerProcess.classPath(ClientMain.class));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(List.of("-Xms" + HEAP, "-Xmx" + HEAP));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", cp, ClientMain.class.getName(), product, Integer.toString(producers),
                Integer.toString(consumers)));
        cmd.addAll(spec.subList(1, spec.size()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedWriter log = PeerProcess.logFile(ClientMain.class, p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("client-class-path", classPath + ", " + cp.split(File.pathSeparator).length + " entries");
        settings.put("client-heap", "-Xms" + HEAP + " -Xmx" + HEAP + ", every peer's client JVM alike");
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = out.readLine()) != null) {
            PeerProcess.keep(log, line);
            if (line.startsWith(PeerControl.SETTING)) {
                String[] setting = line.substring(PeerControl.SETTING.length()).split(" ", 2);
                settings.put("client-" + setting[0], setting.length > 1 ? setting[1] : "");
            } else if (line.startsWith(PeerControl.READY)) {
                LOG.info("{} client JVM (pid {}) on {}, Netty {}", product, p.pid(), classPath,
                        settings.get("client-netty"));
                try {
                    return new ClientProcess(product, p, Collections.unmodifiableMap(settings), out, log);
                } catch (NotApplicableException e) {
                    p.destroyForcibly();
                    throw new IOException(product + "'s client has no acknowledgement modes: " + e.getMessage());
                } catch (IOException | RuntimeException e) {
                    p.destroyForcibly();
                    throw e;
                }
            }
            seen.append(line).append('\n');
        }
        PeerProcess.close(log);
        throw new IOException(product + "'s client JVM exited before it was ready:\n" + seen);
    }

    /** The settings the client JVM stated (its Netty, epoll, Java and JVM arguments) and its class path. */
    @Override
    public Map<String, String> settings() {
        return settings;
    }

    @Override
    public Rate send(String queue, long count, int size, boolean persistent) throws Exception {
        return ClientMain.rate(ask("send", queue, count, size, persistent));
    }

    @Override
    public Rate send(String queue, long count, int size, boolean persistent, int producers) throws Exception {
        return ClientMain.rate(ask("send", queue, count, size, persistent, producers));
    }

    @Override
    public Rate drain(String queue, long count, Acknowledgement ack) throws Exception {
        return ClientMain.rate(ask("drain", queue, count, ack));
    }

    @Override
    public Rate drain(String queue, long count, Acknowledgement ack, int consumers) throws Exception {
        return ClientMain.rate(ask("drain", queue, count, ack, consumers));
    }

    @Override
    public AutoCloseable openConsumers(String queue, int connections) throws Exception {
        String handle = ask("openConsumers", queue, connections);
        return () -> ask("close", handle);
    }

    @Override
    public List<Acknowledgement> acknowledgements() {
        return acknowledgements;
    }

    @Override
    public String acknowledgementGap(Acknowledgement ack) {
        try {
            return ask("acknowledgementGap", ack);
        } catch (IOException | NotApplicableException e) {
            return "the client JVM did not answer: " + e.getMessage();
        }
    }

    @Override
    public Rate transactedSend(String queue, long count, int size, int commitEvery) throws Exception {
        return ClientMain.rate(ask("transactedSend", queue, count, size, commitEvery));
    }

    @Override
    public Duration largeTransactionCommit(String queue, long count, int size) throws Exception {
        return Duration.ofNanos(Long.parseLong(ask("largeTransactionCommit", queue, count, size)));
    }

    @Override
    public Rate sendAsync(String queue, long count, int size) throws Exception {
        return ClientMain.rate(ask("sendAsync", queue, count, size));
    }

    @Override
    public Histogram latency(String queue, int size, int perSecond, Duration duration) throws Exception {
        return ClientMain.histogram(ask("latency", queue, size, perSecond, duration.toNanos()));
    }

    @Override
    public Duration selective(String queue, long count, int size, boolean tagged) throws Exception {
        return Duration.ofNanos(Long.parseLong(ask("selective", queue, count, size, tagged)));
    }

    @Override
    public FanOut openFanOut(String topic, int subscribers, boolean durable) throws Exception {
        String handle = ask("openFanOut", topic, subscribers, durable);
        return new FanOut() {
            @Override
            public Rate send(long count, int size) throws Exception {
                return ClientMain.rate(ask("fanOutSend", handle, count, size));
            }

            @Override
            public void close() throws Exception {
                ask("close", handle);
            }
        };
    }

    @Override
    public Failover failover(String queue) throws Exception {
        String handle = ask("failover", queue);
        return new Failover() {
            @Override
            public void start(int sends) throws Exception {
                ask("failoverStart", handle, sends);
            }

            @Override
            public void killing() throws Exception {
                ask("failoverKilling", handle);
            }

            @Override
            public Outcome exited(Duration patience) throws Exception {
                return Outcome.decode(ask("failoverExited", handle, patience.toNanos()));
            }

            @Override
            public void close() throws Exception {
                ask("close", handle);
            }
        };
    }

    @Override
    public Rate orderedGroups(String queue, int groups, long perGroup, int size, int consumers) throws Exception {
        return ClientMain.rate(ask("orderedGroups", queue, groups, perGroup, size, consumers));
    }

    @Override
    public Rate manyDestinations(String prefix, int count, int size) throws Exception {
        return ClientMain.rate(ask("manyDestinations", prefix, count, size));
    }

    @Override
    public Rate largeSend(String queue, long count, int size) throws Exception {
        return ClientMain.rate(ask("largeSend", queue, count, size));
    }

    @Override
    public Rate largeDrain(String queue, long count, int size) throws Exception {
        return ClientMain.rate(ask("largeDrain", queue, count, size));
    }

    @Override
    public Histogram temporaryQueues(int count) throws Exception {
        return ClientMain.histogram(ask("temporaryQueues", count));
    }

    /** The client JVM's heap peak since the last call, as {@link PeerControl#peakHeapBytes} counts it. */
    @Override
    public long peakHeapBytes() throws Exception {
        return Long.parseLong(ask("peakHeap"));
    }

    /** A full collection in the client JVM. */
    @Override
    public void collectGarbage() throws Exception {
        ask("collect");
    }

    /**
     * Sends one call and waits for its answer: the result of {@code OK}, null for {@code NULL};
     * throws {@link NotApplicableException} for {@code NA}, an IOException for {@code ERROR} and
     * when the JVM has ended.
     */
    private synchronized String ask(Object... call) throws IOException, NotApplicableException {
        String line = ClientMain.call(call);
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        String answer;
        try {
            answer = answers.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for " + product + "'s client: " + line, e);
        }
        if (answer == END) {
            answers.add(END);
            throw new IOException(product + "'s client JVM has exited (status " + exitValue() + ") during " + line);
        }
        if (answer.equals("NULL")) {
            return null;
        }
        if (answer.startsWith("OK")) {
            return answer.length() > 2 ? answer.substring(3) : "";
        }
        if (answer.startsWith("NA ")) {
            throw new NotApplicableException(answer.substring(3));
        }
        throw new IOException(product + "'s client: " + line.split(" ")[0] + " failed: "
                + answer.substring(Math.min(answer.length(), "ERROR ".length())));
    }

    private String exitValue() {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private void read(BufferedReader out, BufferedWriter log) {
        try {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(ClientMain.ANSWER)) {
                    answers.add(line.substring(ClientMain.ANSWER.length()));
                } else {
                    PeerProcess.keep(log, line);
                }
            }
        } catch (IOException stopped) {
            // the client JVM ended
        } finally {
            answers.add(END);
            PeerProcess.close(log);
        }
    }

    @Override
    public void close() throws IOException {
        if (PeerProcess.endThroughStdin(process, 30)) {
            LOG.warn("{}'s client JVM did not end within 30 s of its stdin closing: killed", product);
        }
    }

    @Override
    public String toString() {
        return product + " client (pid " + process.pid() + ")";
    }
}
