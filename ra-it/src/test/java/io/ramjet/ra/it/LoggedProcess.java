package io.ramjet.ra.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A child process whose output is appended to one log file, and what the tests need around it:
 * free ports, a port that accepts, a log tail for failure messages, and an end that asks first
 * and forces after a short grace (or forces at once: {@code kill -9}).
 */
final class LoggedProcess {

    private final Path logFile;
    private Process process;

    LoggedProcess(Path logFile) throws IOException {
        Files.createDirectories(logFile.getParent());
        Files.deleteIfExists(logFile);
        this.logFile = logFile;
    }

    void start(List<String> command) throws IOException {
        start(command, Map.of());
    }

    /** Starts {@code command} with {@code environment} added to this JVM's. */
    void start(List<String> command, Map<String, String> environment) throws IOException {
        Files.writeString(logFile, "==== " + LocalTime.now() + " " + String.join(" ", command) + "\n",
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        builder.environment().putAll(environment);
        process = builder.start();
    }

    /**
     * The stacks of the process's threads whose name and frames name all of {@code words}, by
     * {@code jcmd} of the JDK at {@code javaHome} (at most {@code maxLines} lines), for a failure
     * message.
     */
    String stacksNaming(Path javaHome, List<String> words, int maxLines) {
        if (!isAlive()) {
            return "(the process has ended)";
        }
        Path dumpFile = logFile.resolveSibling(logFile.getFileName() + ".threads");
        try {
            // into a file, so that a jcmd that hangs is given up after a while instead of read for ever
            Process jcmd = new ProcessBuilder(javaHome.resolve("bin").resolve("jcmd").toString(),
                    Long.toString(process.pid()), "Thread.print").redirectErrorStream(true)
                    .redirectOutput(dumpFile.toFile()).start();
            if (!jcmd.waitFor(10, TimeUnit.SECONDS)) {
                jcmd.destroyForcibly();
                return "(no thread dump: jcmd did not finish within 10 s)";
            }
            String dump = Files.readString(dumpFile, StandardCharsets.ISO_8859_1);
            List<String> lines = new ArrayList<>();
            for (String thread : dump.split("\n\n")) {
                if (words.stream().allMatch(thread::contains)) {
                    lines.addAll(List.of(thread.split("\n")));
                    lines.add("");
                }
            }
            return String.join("\n", lines.subList(0, Math.min(maxLines, lines.size())));
        } catch (IOException e) {
            return "(no thread dump: " + e + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(no thread dump: interrupted)";
        }
    }

    /** Waits for the process to exit and returns its exit code; throws with the log tail after {@code timeout}. */
    int awaitExit(java.time.Duration timeout, String what) throws IOException, InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            end(true, 0);
            throw new IOException(what + " did not end within " + timeout + ":\n" + tail(40));
        }
        return process.exitValue();
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Throws with the log tail when the process already exited. */
    void checkAlive(String what) throws IOException {
        if (!isAlive()) {
            throw new IOException(what + " exited while starting:\n" + tail(60));
        }
    }

    /**
     * Ends the process and the processes it started (a launch script's JVM): at once when
     * {@code forcibly} ({@code kill -9}), else SIGTERM and a grace of {@code graceSeconds}.
     */
    void end(boolean forcibly, int graceSeconds) throws InterruptedException {
        if (process == null) {
            return;
        }
        List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        for (ProcessHandle p : all) {
            if (forcibly) {
                p.destroyForcibly();
            } else {
                p.destroy();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(forcibly ? 20 : graceSeconds);
        for (ProcessHandle p : all) {
            try {
                p.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                p.destroyForcibly();
            }
        }
        process.waitFor(20, TimeUnit.SECONDS);
    }

    /**
     * The last {@code max} log records whose first line names any of {@code words}, each cut to
     * 500 characters; a record whose text starts on its next line (Payara's {@code [[}) brings it.
     */
    String recordsNaming(int max, String... words) {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.ISO_8859_1);
            List<String> found = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                String line = all.get(i);
                if (Arrays.stream(words).anyMatch(line::contains)) {
                    String record = line.endsWith("[[") && i + 1 < all.size() ? line + all.get(i + 1) : line;
                    found.add(record.substring(0, Math.min(500, record.length())));
                }
            }
            return String.join("\n", found.subList(Math.max(0, found.size() - max), found.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** How many lines the log has now: a mark for {@link #linesSince}. */
    int lineCount() {
        return linesSince(0).size();
    }

    /** The log's lines after the first {@code mark}. */
    List<String> linesSince(int mark) {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.ISO_8859_1);
            return all.subList(Math.min(mark, all.size()), all.size());
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
    }

    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.ISO_8859_1);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Where the build wants the child processes' logs ({@code -Dra.it.logDir}). */
    static Path logDir() {
        return Path.of(System.getProperty("ra.it.logDir", "target/it-logs"));
    }

    static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static int[] freePorts(int count) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0);
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
