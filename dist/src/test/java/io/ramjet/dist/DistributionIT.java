package io.ramjet.dist;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user does with the tarball: unpack it, {@code bin/ramjet start}, send and receive a
 * message (with the JMS client, and with {@code ramjet-admin producer} and {@code consumer} as the
 * README's quick start does), run a sample's source file on {@code lib/} as getting-started says,
 * {@code status}, {@code stop}; that what the server writes is its user's only; and that each
 * tool and each of Ramjet's jars states the build's version. Prints a {@code DIST} line with the
 * time from unpacking to the first message received and the server's startup time.
 */
class DistributionIT {

    private static final Pattern NAME_SERVER = Pattern.compile("NameServer listening on (\\S+)");
    /** The CommitLog segment {@code standalone} creates when {@code segmentSize} is not set. */
    private static final long STANDALONE_SEGMENT_BYTES = 64L << 20;
    private static final Pattern TIMESTAMPED = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\S* .*");

    @TempDir
    Path dir;

    private Long serverPid;

    @AfterEach
    void killWhatTheTestLeftRunning() {
        if (serverPid != null) {
            ProcessHandle.of(serverPid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void anUnpackedDistributionStartsServesStopsAndLogsWithTimestamps() throws Exception {
        Path tarball = Path.of(System.getProperty("ramjet.distribution"));
        long unpackStart = System.nanoTime();
        assertEquals(0, run(List.of("tar", "xzf", tarball.toString(), "-C", dir.toString())).exitCode());
        Path home;
        try (var entries = Files.list(dir)) {
            home = entries.findFirst().orElseThrow();
        }
        assertTrue(Files.isExecutable(home.resolve("bin/ramjet")));
        // start reads etc/broker.properties: a key set there reaches the broker
        Files.writeString(home.resolve("etc/broker.properties"), "\nqueuesPerDestination = 2\n",
                StandardOpenOption.APPEND);

        long startStart = System.nanoTime();
        Result start = ramjet(home, "start", "standalone", "--namesrv-port", "0", "--port", "0");
        long startup = System.nanoTime() - startStart;
        assertEquals(0, start.exitCode(), start.output());
        assertTrue(start.output().contains("standalone started"), start.output());
        serverPid = Long.parseLong(Files.readString(home.resolve("var/standalone.pid")).trim());

        // a fresh standalone data directory holds one CommitLog segment, of standalone's small size
        assertEquals(List.of(STANDALONE_SEGMENT_BYTES), segmentSizes(home.resolve("data")));

        Path log = home.resolve("log/standalone.log");
        String nameServer = nameServerAddress(log).orElseThrow(() -> new AssertionError("no NameServer address in " + log));
        try (JMSContext context = new RamjetConnectionFactory("ramjet://" + nameServer).createContext()) {
            Queue queue = context.createQueue("dist");
            context.createProducer().send(queue, "first message");
            try (JMSConsumer consumer = context.createConsumer(queue)) {
                assertEquals("first message", consumer.receiveBody(String.class, 10_000));
            }
        }
        long firstMessage = System.nanoTime() - unpackStart;

        assertOwnerOnly(home.resolve("log"), home.resolve("var"), home.resolve("data"));

        Result check = admin(home, "check", "--url", "ramjet://" + nameServer);
        assertEquals(0, check.exitCode(), check.output());
        // the README's quick start: three messages sent and received with ramjet-admin
        Result produced = admin(home, "producer", "--url", "ramjet://" + nameServer, "-d", "hello", "-n", "3");
        assertEquals(0, produced.exitCode(), produced.output());
        assertTrue(produced.output().contains("sent 3 messages to hello"), produced.output());
        Result consumed = admin(home, "consumer", "--url", "ramjet://" + nameServer, "-d", "hello", "-n", "3");
        assertEquals(0, consumed.exitCode(), consumed.output());
        for (int i = 0; i < 3; i++) {
            assertTrue(consumed.output().contains("message " + i), consumed.output());
        }
        Result stat = admin(home, "queue", "stat", "--url", "ramjet://" + nameServer, "--json");
        assertEquals(0, stat.exitCode(), stat.output());
        assertTrue(stat.output().trim().startsWith("[") && stat.output().contains("\"name\" : \"dist\""),
                stat.output());
        Result list = admin(home, "queue", "list", "--url", "ramjet://" + nameServer, "--json");
        assertTrue(list.output().replaceAll("\\s", "").matches("(?s).*\"name\":\"dist\",[^}]*\"queueCount\":2[,}].*"),
                "etc/broker.properties' queuesPerDestination: " + list.output());

        // getting-started's samples: a sample's source file run against the server on lib/ alone
        Path sample = Path.of("..", "samples", "src", "main", "java", "io", "ramjet", "samples", "HelloQueue.java")
                .toAbsolutePath().normalize();
        ProcessBuilder hello = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dlogback.configurationFile=etc/logback-admin.xml", "-cp", "lib/*", sample.toString(),
                "ramjet://" + nameServer).directory(home.toFile());
        Result sampled = run(hello);
        assertEquals(0, sampled.exitCode(), sampled.output());
        assertTrue(sampled.output().contains("received: Hello, Ramjet!"), sampled.output());

        Result status = ramjet(home, "status");
        assertEquals(0, status.exitCode(), status.output());
        assertTrue(status.output().contains("running (pid " + serverPid + ")"), status.output());

        Result stop = ramjet(home, "stop");
        assertEquals(0, stop.exitCode(), stop.output());
        assertFalse(ProcessHandle.of(serverPid).map(ProcessHandle::isAlive).orElse(false), "server process gone");
        assertFalse(Files.exists(home.resolve("var/standalone.pid")));
        assertEquals(3, ramjet(home, "status").exitCode());

        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        assertFalse(lines.isEmpty());
        String arch = System.getProperty("os.arch");
        if (System.getProperty("os.name").startsWith("Linux") && (arch.equals("amd64") || arch.equals("aarch64"))) {
            // lib/ carries the native library for these: the ports listen on epoll, not NIO
            assertTrue(lines.stream().anyMatch(line -> line.contains("remoting server listening on")
                    && line.contains("(EPOLL)")), "no port on the native transport in " + log);
        }
        for (String line : lines) {
            assertTrue(TIMESTAMPED.matcher(line).matches(), "not timestamped: " + line);
        }
        System.out.printf("DIST tar xzf to first message: %d ms; bin/ramjet start until started: %d ms%n",
                TimeUnit.NANOSECONDS.toMillis(firstMessage), TimeUnit.NANOSECONDS.toMillis(startup));
    }

    @Test
    void everyToolAndJarStatesTheBuildsVersion() throws Exception {
        String version = System.getProperty("ramjet.pom.version");
        assertTrue(version != null && !version.isBlank(), "the build passes ramjet.pom.version");
        Path home = unpack();
        Result server = ramjet(home, "version");
        assertEquals(0, server.exitCode(), server.output());
        assertEquals("Ramjet " + version, server.output().strip());
        Result admin = admin(home, "-V");
        assertEquals(0, admin.exitCode(), admin.output());
        assertEquals("Ramjet admin " + version, admin.output().strip());

        List<Path> jars;
        try (var files = Files.list(home.resolve("lib"))) {
            jars = files.filter(f -> f.getFileName().toString().startsWith("ramjet-")).sorted().toList();
        }
        assertTrue(jars.size() >= 5, "Ramjet's jars in lib/: " + jars);
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                Attributes manifest = file.getManifest().getMainAttributes();
                assertEquals(version, manifest.getValue(Attributes.Name.IMPLEMENTATION_VERSION), jar.toString());
                assertTrue(manifest.getValue(Attributes.Name.IMPLEMENTATION_TITLE).toLowerCase(Locale.ROOT)
                        .startsWith("ramjet"), jar.toString());
            }
        }
    }

    /**
     * Everything the running server wrote (logs, .out and PID files, the data directory with its
     * secret and CommitLog) is its user's only, though bin/ramjet was started under umask 022.
     */
    private static void assertOwnerOnly(Path... roots) throws IOException {
        for (Path root : roots) {
            try (Stream<Path> paths = Files.walk(root)) {
                for (Path path : paths.toList()) {
                    Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
                    for (PosixFilePermission others : List.of(PosixFilePermission.GROUP_READ,
                            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
                            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
                            PosixFilePermission.OTHERS_EXECUTE)) {
                        assertFalse(permissions.contains(others), path + " is "
                                + PosixFilePermissions.toString(permissions));
                    }
                }
            }
        }
    }

    private Path unpack() throws Exception {
        Path tarball = Path.of(System.getProperty("ramjet.distribution"));
        Path into = Files.createDirectory(dir.resolve("unpacked"));
        assertEquals(0, run(List.of("tar", "xzf", tarball.toString(), "-C", into.toString())).exitCode());
        try (var entries = Files.list(into)) {
            return entries.findFirst().orElseThrow();
        }
    }

    private static List<Long> segmentSizes(Path data) throws IOException {
        try (var files = Files.list(data.resolve("commitlog"))) {
            return files.map(f -> f.toFile().length()).toList();
        }
    }

    private static Optional<String> nameServerAddress(Path log) throws IOException {
        Matcher m = NAME_SERVER.matcher(Files.readString(log));
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /**
     * bin/ramjet with this JVM's Java and a heap small enough for a shared test machine, under the
     * umask most users have (022), which would let everyone read what the server writes.
     */
    private static Result ramjet(Path home, String... args) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", "umask 022 && exec \"$0\" \"$@\"",
                home.resolve("bin/ramjet").toString());
        builder.command().addAll(List.of(args));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("RAMJET_HEAP", "-Xms64m -Xmx256m");
        return run(builder);
    }

    /** bin/ramjet-admin with this JVM's Java. */
    private static Result admin(Path home, String... args) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/ramjet-admin").toString());
        builder.command().addAll(List.of(args));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return run(builder);
    }

    private static Result run(List<String> command) throws Exception {
        return run(new ProcessBuilder(command));
    }

    private static Result run(ProcessBuilder builder) throws Exception {
        Path output = Files.createTempFile("ramjet-dist-", ".out");
        try {
            // to a file, not a pipe: a server started in the background must not hold our pipe open
            Process process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!process.waitFor(Duration.ofSeconds(90).toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(builder.command() + " did not finish: " + Files.readString(output));
            }
            return new Result(process.exitValue(), Files.readString(output));
        } finally {
            Files.delete(output);
        }
    }

    private record Result(int exitCode, String output) {
    }
}
