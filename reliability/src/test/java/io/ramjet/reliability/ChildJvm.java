package io.ramjet.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One server process ({@code io.ramjet.server.standalone.Launcher} with a command and its
 * options) run with this JVM's {@code java} and classpath. Its output goes to one log file under
 * {@code target/broker-logs} ({@code -Dreliability.logDir}), appended across restarts, so a
 * failing test can print its tail. Not thread-safe: one thread drives it at a time.
 */
final class ChildJvm {

    /**
     * How long a server may take to serve: a slave's port opens only once it has registered,
     * handshaken with its master and recovered, and on a machine shared by several builds a JVM
     * alone can take half a minute to start.
     */
    static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(50);

    private final String name;
    private final Path logFile;
    private Process process;
    private int starts;
    private boolean paused;

    ChildJvm(String name) throws IOException {
        this.name = name;
        Path logDir = Path.of(System.getProperty("reliability.logDir", "target/broker-logs"));
        Files.createDirectories(logDir);
        this.logFile = logDir.resolve(name + ".log");
        Files.deleteIfExists(logFile);
    }

    String name() {
        return name;
    }

    Path logFile() {
        return logFile;
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Starts {@code Launcher launcherArguments...}; returns once the JVM runs (not once it serves). */
    void start(List<String> launcherArguments) throws IOException {
        start("io.ramjet.server.standalone.Launcher", launcherArguments);
    }

    /** Starts {@code mainClass arguments...} on this JVM's classpath; returns once the JVM runs. */
    void start(String mainClass, List<String> arguments) throws IOException {
        if (isAlive()) {
            throw new IllegalStateException(name + " is running");
        }
        starts++;
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
                "-cp", System.getProperty("java.class.path"),
                mainClass));
        command.addAll(arguments);
        Files.writeString(logFile, "==== " + LocalTime.now() + " start #" + starts + " of " + name + "\n",
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start();
    }

    /** Polls {@code ready} until it holds, failing with the log's tail if the JVM exits or {@code timeout} passes. */
    void awaitReady(String what, Duration timeout, BooleanSupplier ready) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready.getAsBoolean()) {
            LockSupport.parkNanos(POLL.toNanos());
            if (!process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + " while starting:\n" + logTail(40));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(name + ": " + what + " not within " + timeout + ":\n" + logTail(40));
            }
        }
    }

    /** {@code kill -9} ({@code forcibly}) or SIGTERM, then waits for the exit. */
    void end(boolean forcibly) throws InterruptedException {
        if (process == null) {
            return;
        }
        if (forcibly) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Freezes the JVM ({@code kill -STOP}): its sockets stay open and go silent, as behind a
     * network partition, until {@link #resume()}.
     */
    void pause() throws IOException, InterruptedException {
        signal("STOP");
        paused = true;
    }

    /** Lets a paused JVM run again ({@code kill -CONT}). */
    void resume() throws IOException, InterruptedException {
        signal("CONT");
        paused = false;
    }

    /** Running and not paused. */
    boolean isServing() {
        return isAlive() && !paused;
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** Kills the child if it runs, ignoring an interrupt (for {@code close()} methods). */
    void killQuietly() {
        try {
            end(true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last {@code lines} lines of the child's log, for a failure message. */
    String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no log: " + e + ")";
        }
    }

    static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code count} distinct ports free now on 127.0.0.1, picked once and kept across restarts. */
    static int[] freePorts(int count) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0);
                socket.setReuseAddress(true);
                held.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : held) {
                socket.close();
            }
        }
    }
}
