package io.ramjet.ra.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Payara Micro 7 as a child process: its own JDK (21 or later, which Payara 7 needs, looked for
 * under {@code /usr/lib/jvm} unless {@code -Dra.it.javaHome} names one), an ephemeral HTTP port,
 * no clustering, a temporary root directory, the resource adapter configured by a post-boot
 * command file, then the RAR and the application deployed in that order.
 */
final class PayaraMicro extends AppServer {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
    private static final Path JVM_DIR = Path.of("/usr/lib/jvm");
    private static final Pattern JAVA_VERSION = Pattern.compile("JAVA_VERSION=\"(\\d+)");

    private PayaraMicro(LoggedProcess process, int httpPort) {
        super(process, httpPort);
    }

    /** Where the build copied Payara Micro and the archives to deploy ({@code -Dra.it.deployDir}). */
    static Path deployDir() {
        return Path.of(System.getProperty("ra.it.deployDir", "target/it-deploy"));
    }

    /**
     * Starts Payara Micro with the adapter's {@code connectionUrl} set to {@code ramjetUrl} and
     * returns once {@code readyPath} of the application answers 200.
     */
    static PayaraMicro start(Path deployDir, Path workDir, Path logFile, String ramjetUrl, String readyPath)
            throws IOException {
        return start(deployDir, workDir, logFile, ramjetUrl, readyPath, List.of(), List.of());
    }

    /**
     * As above, with {@code postBootCommands} run after Ramjet's adapter configuration and
     * {@code deployables} (archives in {@code deployDir}) deployed after the RAR and before the
     * application, so that they were deployed (or failed) once the application answers.
     */
    static PayaraMicro start(Path deployDir, Path workDir, Path logFile, String ramjetUrl, String readyPath,
                             List<String> postBootCommands, List<String> deployables) throws IOException {
        Path java = javaHome().resolve("bin").resolve("java");
        Path postBoot = workDir.resolve("post-boot.asadmin");
        List<String> commands = new ArrayList<>();
        commands.add("create-resource-adapter-config --property connectionUrl="
                + ramjetUrl.replace(":", "\\:") + " ramjet-ra");
        commands.addAll(postBootCommands);
        Files.writeString(postBoot, String.join("\n", commands) + "\n");
        int port = LoggedProcess.freePorts(1)[0];
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx512m", "-XX:+UseSerialGC",
                "-jar", deployDir.resolve("payara-micro.jar").toString(),
                "--nocluster", "--port", Integer.toString(port),
                "--rootdir", workDir.resolve("payara-root").toString(),
                "--postbootcommandfile", postBoot.toString(),
                "--deploy", deployDir.resolve("ramjet-ra.rar").toString()));
        for (String deployable : deployables) {
            command.addAll(List.of("--deploy", deployDir.resolve(deployable).toString()));
        }
        command.addAll(List.of("--deploy", deployDir.resolve("ra-it-app.war").toString()));
        LoggedProcess process = new LoggedProcess(logFile);
        process.start(command);
        PayaraMicro payara = new PayaraMicro(process, port);
        payara.awaitReady(readyPath, READY_TIMEOUT);
        return payara;
    }

    @Override
    String name() {
        return "Payara Micro " + System.getProperty("ra.it.payaraVersion");
    }

    /** The stacks of Payara's worker threads that are in Ramjet's code now, for a message left in doubt. */
    @Override
    String ramjetStacks() {
        try {
            return process().stacksNaming(javaHome(), List.of("orb-thread-pool", "io.ramjet"), 300);
        } catch (IOException e) {
            return "(no JDK for jcmd: " + e + ")";
        }
    }

    /** What the adapter's XA resources and the transaction manager logged, for a message left in doubt. */
    @Override
    String xaRecords() {
        return process().recordsNaming(60, "CompletingXAResource", "RamjetXAResource", "JTS5");
    }

    /** A JDK of version 21 or later: {@code -Dra.it.javaHome}, else the newest under /usr/lib/jvm. */
    static Path javaHome() throws IOException {
        String configured = System.getProperty("ra.it.javaHome");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        Optional<Path> newest = Optional.empty();
        if (Files.isDirectory(JVM_DIR)) {
            try (Stream<Path> homes = Files.list(JVM_DIR)) {
                newest = homes.filter(home -> version(home) >= 21 && Files.isExecutable(home.resolve("bin/java")))
                        .max(Comparator.comparingInt(PayaraMicro::version));
            }
        }
        return newest.orElseThrow(() -> new IOException("Payara Micro 7 needs a JDK 21 or later: none found under "
                + JVM_DIR + " (a directory with a 'release' file saying JAVA_VERSION=\"21\" or later and bin/java);"
                + " install one there or pass -Dra.it.javaHome=/path/to/jdk"));
    }

    private static int version(Path home) {
        try {
            Matcher m = JAVA_VERSION.matcher(Files.readString(home.resolve("release")));
            return m.find() ? Integer.parseInt(m.group(1)) : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
