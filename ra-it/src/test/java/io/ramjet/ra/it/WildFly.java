package io.ramjet.ra.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * WildFly (its full profile) as a child process on this JVM's JDK: the distribution the build
 * unpacked ({@code -Dra.it.wildflyHome}), a server base directory of its own under the test's
 * work directory, every port shifted by one offset at which they are all free. Before it boots,
 * one offline jboss-cli run configures it as the Jakarta EE page tells an administrator to
 * ({@link #adapterCommands}): the embedded Artemis broker removed, ramjet-ra.rar deployed with a
 * pooled XA connection factory and a queue, MDBs bound to Ramjet's adapter by default, then the
 * application deployed. WildFly validates archives at deployment (the jca subsystem's
 * archive-validation, on in its default configuration, failing on errors).
 */
final class WildFly extends AppServer {

    private static final Duration CLI_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
    /** The ports of standalone-full.xml before the offset: HTTP(S), management, AJP, transactions, IIOP. */
    private static final int[] BASE_PORTS = {8080, 8443, 9990, 9993, 8009, 4712, 4713, 3528, 3529};

    private WildFly(LoggedProcess process, int httpPort) {
        super(process, httpPort);
    }

    /** Where the build unpacked WildFly ({@code -Dra.it.wildflyHome}). */
    static Path home() {
        return Path.of(System.getProperty("ra.it.wildflyHome", "target/wildfly"));
    }

    /**
     * The jboss-cli lines that install Ramjet's adapter in a WildFly full profile: the rar at
     * {@code rar} configured to reach {@code ramjetUrl}, its pooled XA factory at
     * {@code java:/jms/ramjet/cf} (also the default JMS connection factory, which a bare
     * {@code @Inject JMSContext} uses) whose prepared branches the transaction manager recovers
     * signed on as {@code recoveryUser}, the queue it.orders at {@code java:/jms/ramjet/orders},
     * and every MDB that names no adapter bound to it.
     */
    static List<String> adapterCommands(Path rar, String ramjetUrl, String recoveryUser, String recoveryPassword) {
        String ra = "/subsystem=resource-adapters/resource-adapter=ramjet-ra";
        return List.of(
                "batch",
                "/subsystem=messaging-activemq/server=default:remove",
                "/subsystem=ee/service=default-bindings:write-attribute(name=jms-connection-factory,"
                        + " value=java:/jms/ramjet/cf)",
                "/subsystem=ejb3:write-attribute(name=default-resource-adapter-name, value=ramjet-ra)",
                "run-batch",
                "deploy " + rar,
                "batch",
                ra + ":add(archive=ramjet-ra.rar, transaction-support=XATransaction)",
                ra + "/config-properties=connectionUrl:add(value=\"" + ramjetUrl + "\")",
                ra + "/connection-definitions=cf:add(class-name=io.ramjet.ra.RamjetManagedConnectionFactory,"
                        + " jndi-name=java:/jms/ramjet/cf, min-pool-size=0, max-pool-size=8,"
                        + " recovery-username=" + recoveryUser + ", recovery-password=" + recoveryPassword + ")",
                ra + "/admin-objects=orders:add(class-name=io.ramjet.ra.ManagedQueue, jndi-name=java:/jms/ramjet/orders)",
                ra + "/admin-objects=orders/config-properties=name:add(value=it.orders)",
                "run-batch");
    }

    /**
     * Configures a WildFly server in {@code workDir} with Ramjet's adapter reaching
     * {@code ramjetUrl}, then {@code moreCommands}, deploys {@code deployables} (archives in
     * {@code deployDir}) and the application, boots it and returns once {@code readyPath} of the
     * application answers 200.
     */
    static WildFly start(Path deployDir, Path workDir, Path logFile, String ramjetUrl, String readyPath,
                         List<String> moreCommands, List<String> deployables) throws IOException, InterruptedException {
        Path home = home();
        Path base = workDir.resolve("wildfly-base");
        copyTree(home.resolve("standalone").resolve("configuration"), base.resolve("configuration"));
        Files.createDirectories(base.resolve("deployments"));
        List<String> script = new ArrayList<>();
        script.add("embed-server --server-config=standalone-full.xml --std-out=discard");
        script.addAll(adapterCommands(deployDir.resolve("ramjet-ra.rar"), ramjetUrl, AdapterScenarios.RECOVERY_USER,
                AdapterScenarios.RECOVERY_PASSWORD));
        script.addAll(moreCommands);
        for (String deployable : deployables) {
            script.add("deploy " + deployDir.resolve(deployable));
        }
        script.add("deploy " + deployDir.resolve("ra-it-app.war"));
        script.add("stop-embedded-server");
        Path cliFile = workDir.resolve("wildfly-setup.cli");
        Files.writeString(cliFile, String.join("\n", script) + "\n");
        Map<String, String> environment = Map.of("JAVA_HOME", System.getProperty("java.home"),
                "JAVA_OPTS", "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djboss.server.base.dir=" + base);
        LoggedProcess cli = new LoggedProcess(logFile.resolveSibling(logFile.getFileName() + ".cli"));
        cli.start(List.of("bash", home.resolve("bin/jboss-cli.sh").toString(), "--file=" + cliFile), environment);
        if (cli.awaitExit(CLI_TIMEOUT, "jboss-cli") != 0) {
            throw new IOException("jboss-cli failed:\n" + cli.tail(40));
        }
        int offset = freeOffset();
        LoggedProcess process = new LoggedProcess(logFile);
        process.start(List.of("bash", home.resolve("bin/standalone.sh").toString(), "-c", "standalone-full.xml",
                "-Djboss.server.base.dir=" + base, "-Djboss.socket.binding.port-offset=" + offset,
                "-Djboss.node.name=ra-it", "-b", "127.0.0.1", "-bmanagement", "127.0.0.1"),
                Map.of("JAVA_HOME", System.getProperty("java.home"), "JAVA_OPTS",
                        "-Xms64m -Xmx512m -XX:+UseSerialGC -Djava.net.preferIPv4Stack=true"
                                + " -Djboss.modules.system.pkgs=org.jboss.byteman -Djava.awt.headless=true"));
        WildFly wildFly = new WildFly(process, BASE_PORTS[0] + offset);
        try {
            wildFly.awaitReady(readyPath, READY_TIMEOUT);
        } catch (IOException e) {
            wildFly.close();
            throw e;
        }
        return wildFly;
    }

    @Override
    String name() {
        return "WildFly " + System.getProperty("ra.it.wildflyVersion");
    }

    @Override
    String ramjetStacks() {
        return process().stacksNaming(Path.of(System.getProperty("java.home")), List.of("io.ramjet"), 300);
    }

    @Override
    String xaRecords() {
        return process().recordsNaming(60, "CompletingXAResource", "RamjetXAResource", "ARJUNA", "IJ0");
    }

    /** A port offset at which every port of {@link #BASE_PORTS} is free now. */
    private static int freeOffset() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int offset = ThreadLocalRandom.current().nextInt(10_000, 50_000);
            if (allFree(offset)) {
                return offset;
            }
        }
        throw new IOException("no port offset found at which WildFly's ports are all free");
    }

    private static boolean allFree(int offset) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int port : BASE_PORTS) {
                held.add(new ServerSocket(port + offset));
            }
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // closing a probe
                }
            }
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
