package io.ramjet.controller;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/** One controller node in a child JVM ({@link ControllerMain}), killed with {@code destroyForcibly} (kill -9). */
final class ControllerProcess implements AutoCloseable {

    private final String id;
    private final Path dir;
    private final Path log;
    private Process process;

    ControllerProcess(String id, Path dir, ControllerGroup group, Duration brokerTimeout) throws IOException {
        this.id = id;
        this.dir = dir;
        // outside the test's temporary directory when the build names one, to read after a failure
        Path logDir = Path.of(System.getProperty("controller.logDir", dir.toString()));
        this.log = logDir.resolve(dir.getParent().getFileName() + "-" + id + ".log");
        Files.createDirectories(dir);
        Files.createDirectories(logDir);
        Properties properties = new Properties();
        properties.setProperty("controller.id", id);
        properties.setProperty("controller.dataDir", dir.resolve("data").toString());
        properties.setProperty("controller.peers", group.toString());
        properties.setProperty("controller.brokerTimeoutMillis", Long.toString(brokerTimeout.toMillis()));
        properties.setProperty("controller.raftTimeoutMillis", "1000");
        properties.setProperty("controller.snapshotEvery", "5");
        properties.setProperty("controller.clusterSecret", TestClusterSecret.TEXT);
        try (Writer out = Files.newBufferedWriter(dir.resolve("controller.properties"))) {
            properties.store(out, "controller " + id);
        }
    }

    String id() {
        return id;
    }

    ControllerProcess start() throws IOException {
        process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                ControllerMain.class.getName(), dir.resolve("controller.properties").toString()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        return this;
    }

    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            kill();
        }
    }
}
