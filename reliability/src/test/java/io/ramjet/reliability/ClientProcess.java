package io.ramjet.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A client main class run in a JVM of its own with the heap it is given, whose standard output
 * lines are kept for the test to wait on; its standard error goes to {@code target/broker-logs}.
 * Killed on {@link #close}.
 */
final class ClientProcess implements AutoCloseable {

    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private ClientProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                }
            } catch (IOException ended) {
                // the process is gone: its lines so far are kept
            }
        }, "client-process-output");
        reader.setDaemon(true);
        reader.start();
    }

    static ClientProcess start(String name, String heap, Class<?> main, String... arguments) throws IOException {
        Path logDir = Path.of(System.getProperty("reliability.logDir", "target/broker-logs"));
        java.nio.file.Files.createDirectories(logDir);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                heap, "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(arguments));
        return new ClientProcess(new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(logDir.resolve(name + ".log").toFile())).start());
    }

    /** The first output line starting with {@code prefix}, waiting for it up to {@code timeout}; empty if none came. */
    Optional<String> awaitLine(String prefix, Duration timeout) {
        Await.until(timeout, () -> line(prefix).isPresent() || !process.isAlive());
        Await.until(Duration.ofSeconds(1), () -> line(prefix).isPresent());
        return line(prefix);
    }

    Optional<String> line(String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).findFirst();
    }

    /** Waits for the exit; -1 if it did not exit within {@code timeout} (it is then killed). */
    int exit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            return -1;
        }
        return process.exitValue();
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
