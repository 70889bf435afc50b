package io.ramjet.bench.peer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A broker started in a child JVM with the same heap as every other peer, stopped by closing its
 * stdin (or killed if it does not go). Its main class prints {@code READY <port>} when it serves.
 */
public final class PeerProcess implements AutoCloseable {

    private final Process process;
    private final int port;

    private PeerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts {@code mainClass port dataDir extra...} with the given heap and waits for READY. */
    public static PeerProcess start(Class<?> mainClass, String heap, Path dataDir, String... extra) throws IOException {
        int port = freePort();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms" + heap, "-Xmx" + heap, "-cp", System.getProperty("java.class.path"), mainClass.getName(),
                Integer.toString(port), dataDir.toString()));
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        StringBuilder seen = new StringBuilder();
        while ((line = out.readLine()) != null) {
            if (line.startsWith("READY ")) {
                Thread drain = new Thread(() -> drain(out), mainClass.getSimpleName() + "-out");
                drain.setDaemon(true);
                drain.start();
                return new PeerProcess(p, port);
            }
            seen.append(line).append('\n');
        }
        throw new IOException(mainClass.getSimpleName() + " exited before it was ready:\n" + seen);
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** Resident set size of the peer in bytes, read from /proc; -1 where that is unavailable. */
    public long residentBytes() {
        try {
            for (String l : java.nio.file.Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (l.startsWith("VmRSS:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException ignored) {
            return -1;
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        process.getOutputStream().close();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // the peer's log is not part of the figures
            }
        } catch (IOException ignored) {
            // the peer stopped
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
