package io.ramjet.bench.peer;

import io.ramjet.bench.workload.BuildDirectory;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker started in a child JVM with the same heap as every other peer, stopped by closing its
 * stdin (or killed if it is not gone 10 s later: its data is thrown away anyway). Its main class speaks {@link PeerControl}: it prints
 * {@code READY <port>} when it serves and answers {@code heap}. Everything it prints is kept in
 * {@code bench/target/peer-logs/<main class>-<pid>.log} (the property {@code bench.peer.logs} names
 * another directory), so that a failed row can be read against the broker's own log.
 */
public final class PeerProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PeerProcess.class);
    private static final int KEPT_LOG_LINES = 40;

    private final String name;
    private final Process process;
    private final int port;
    private final BlockingQueue<Long> heapAnswers = new LinkedBlockingQueue<>();
    private final BlockingQueue<Long> peakAnswers = new LinkedBlockingQueue<>();
    private final List<String> lastLines = new ArrayList<>();
    private final Map<String, String> settings;

    private PeerProcess(String name, Process process, int port, Map<String, String> settings) {
        this.name = name;
        this.process = process;
        this.port = port;
        this.settings = Collections.unmodifiableMap(settings);
    }

    /**
     * Starts {@code mainClass port dataDir extra...} with the given heap on this JVM's class path
     * (Ramjet's Netty) and waits for READY.
     */
    public static PeerProcess start(Class<?> mainClass, String heap, Path dataDir, String... extra) throws IOException {
        return start(mainClass, heap, null, List.of(), dataDir, extra);
    }

    /**
     * Starts {@code java -Xmx<heap> <jvmArgs> mainClass port dataDir extra...} on this JVM's
     * class path, on {@code peerClassPath} ({@link PeerClassPath}) unless null, and waits for READY.
     */
    public static PeerProcess start(Class<?> mainClass, String heap, PeerClassPath peerClassPath, List<String> jvmArgs,
                                    Path dataDir, String... extra) throws IOException {
        return start(freePort(), mainClass, heap, peerClassPath, jvmArgs, dataDir, extra);
    }

    /**
     * {@link #start(Class, String, PeerClassPath, List, Path, String...)} on a port the caller chose
     * (with {@link #freePort()}), for a peer whose other JVMs must be told it before it starts.
     */
    public static PeerProcess start(int port, Class<?> mainClass, String heap, PeerClassPath peerClassPath, List<String> jvmArgs,
                                    Path dataDir, String... extra) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms" + heap, "-Xmx" + heap));
        cmd.addAll(jvmArgs);
        if (peerClassPath != null) {
            cmd.addAll(peerClassPath.jvmArgs(dataDir));
        }
        String classPath = peerClassPath == null ? classPath(mainClass) : peerClassPath.apply(mainClass, classPath(mainClass));
        cmd.addAll(List.of("-cp", classPath, mainClass.getName(),
                Integer.toString(port), dataDir.toString()));
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedWriter log = logFile(mainClass, p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        StringBuilder seen = new StringBuilder();
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("heap", "-Xms" + heap + " -Xmx" + heap);
        settings.put("class-path", (peerClassPath == null ? "the benchmark's" : peerClassPath.toString()) + ", "
                + classPath.split(File.pathSeparator).length + " entries");
        while ((line = out.readLine()) != null) {
            keep(log, line);
            if (line.startsWith(PeerControl.NOTE)) {
                LOG.info("{}: {}", mainClass.getSimpleName(), line.substring(PeerControl.NOTE.length()));
            }
            if (line.startsWith(PeerControl.SETTING)) {
                String[] setting = line.substring(PeerControl.SETTING.length()).split(" ", 2);
                settings.put(setting[0], setting.length > 1 ? setting[1] : "");
                LOG.info("{}: {} = {}", mainClass.getSimpleName(), setting[0], settings.get(setting[0]));
            }
            if (line.startsWith(PeerControl.READY)) {
                PeerProcess peer = new PeerProcess(mainClass.getSimpleName(), p, port, settings);
                Thread reader = new Thread(() -> peer.read(out, log), mainClass.getSimpleName() + "-out");
                reader.setDaemon(true);
                reader.start();
                return peer;
            }
            seen.append(line).append('\n');
        }
        close(log);
        throw new IOException(mainClass.getSimpleName() + " exited before it was ready:\n" + seen);
    }

    /** Where the peer's output is kept; null (with a warning) if the file cannot be opened. */
    static BufferedWriter logFile(Class<?> mainClass, Process p) {
        Path file = BuildDirectory.of("bench.peer.logs", "peer-logs").resolve(mainClass.getSimpleName() + "-" + p.pid()
                + ".log");
        try {
            Files.createDirectories(file.getParent());
            return Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            LOG.warn("{}'s output is not kept: {}", mainClass.getSimpleName(), e.toString());
            return null;
        }
    }

    static void keep(BufferedWriter log, String line) {
        if (log == null) {
            return;
        }
        try {
            log.write(line);
            log.newLine();
            log.flush();
        } catch (IOException e) {
            LOG.debug("a peer's output line was not kept", e);
        }
    }

    static void close(BufferedWriter log) {
        if (log != null) {
            try {
                log.close();
            } catch (IOException e) {
                LOG.debug("a peer's output file did not close", e);
            }
        }
    }

    /** The simple name of the JVM's main class. */
    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    /** The settings the peer stated before it was ready ({@link PeerControl#setting}), in order. */
    public Map<String, String> settings() {
        return settings;
    }

    /**
     * The CPU time the JVM has used, user and system, in nanoseconds ({@code utime + stime} of
     * {@code /proc/<pid>/stat}, in clock ticks of 10 ms); -1 where that is unavailable.
     */
    public long cpuNanos() {
        return CpuTime.ofProcess(process.pid());
    }

    /**
     * The most heap the peer had in use at once since the last call (the first call: since it
     * started), in bytes, as the peer itself reports it; -1 if it does not answer within 30 s.
     */
    public long peakHeapBytes() throws IOException {
        return ask("peak", peakAnswers);
    }

    public long pid() {
        return process.pid();
    }

    /** Resident set size of the peer in bytes, read from /proc; -1 where that is unavailable. */
    public long residentBytes() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (l.startsWith("VmRSS:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException ignored) {
            return -1;
        }
        return -1;
    }

    /**
     * The peer's heap in use after a full collection, in bytes, as the peer itself reports it;
     * -1 if it does not answer within 30 s.
     */
    public long liveHeapBytes() throws IOException {
        return ask("heap", heapAnswers);
    }

    private long ask(String question, BlockingQueue<Long> answers) throws IOException {
        answers.clear();
        OutputStream in = process.getOutputStream();
        synchronized (in) {
            in.write((question + "\n").getBytes(StandardCharsets.US_ASCII));
            in.flush();
        }
        try {
            Long answer = answers.poll(30, TimeUnit.SECONDS);
            return answer == null ? -1 : answer;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Kills the peer as {@code kill -9} would and returns once it has exited. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** Stops the peer; if it had already exited on its own, logs the last lines it printed. */
    @Override
    public void close() throws IOException {
        if (!process.isAlive()) {
            synchronized (lastLines) {
                LOG.warn("{} had exited with status {}; its last lines:\n{}", this, process.exitValue(),
                        String.join("\n", lastLines));
            }
        }
        endThroughStdin(process, 10);
    }

    /**
     * Ends a child that stops when its stdin closes: closes it, waits up to {@code seconds}, then
     * kills it. Returns whether it had to be killed.
     */
    static boolean endThroughStdin(Process process, long seconds) {
        try {
            process.getOutputStream().close();
        } catch (IOException alreadyGone) {
            // the pipe is broken: the process has exited or is about to
        }
        try {
            if (process.waitFor(seconds, TimeUnit.SECONDS)) {
                return false;
            }
            process.destroyForcibly().waitFor();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        return true;
    }

    @Override
    public String toString() {
        return name + "(pid " + process.pid() + ", port " + port + ")";
    }

    private void read(BufferedReader out, BufferedWriter log) {
        try {
            String line;
            while ((line = out.readLine()) != null) {
                keep(log, line);
                if (line.startsWith(PeerControl.HEAP)) {
                    heapAnswers.add(Long.parseLong(line.substring(PeerControl.HEAP.length()).trim()));
                } else if (line.startsWith(PeerControl.PEAK)) {
                    peakAnswers.add(Long.parseLong(line.substring(PeerControl.PEAK.length()).trim()));
                } else {
                    synchronized (lastLines) {
                        lastLines.add(line);
                        if (lastLines.size() > KEPT_LOG_LINES) {
                            lastLines.remove(0);
                        }
                    }
                }
            }
        } catch (IOException | NumberFormatException ignored) {
            // the peer stopped
        } finally {
            close(log);
        }
    }

    /**
     * The class path that loaded {@code mainClass}: the URLs of its class loader where that is a
     * URLClassLoader (as under {@code mvn exec:java}, where java.class.path is Maven's own), else
     * java.class.path.
     */
    static String classPath(Class<?> mainClass) {
        if (mainClass.getClassLoader() instanceof URLClassLoader loader && loader.getURLs().length > 0) {
            List<String> entries = new ArrayList<>();
            for (URL url : loader.getURLs()) {
                try {
                    entries.add(Path.of(url.toURI()).toString());
                } catch (URISyntaxException | IllegalArgumentException notAFile) {
                    // not on the file system: a child JVM could not use it anyway
                }
            }
            return String.join(File.pathSeparator, entries);
        }
        return System.getProperty("java.class.path");
    }

    /** A port free on the loopback address now, for a child to bind. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
