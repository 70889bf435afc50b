package io.ramjet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.server.SourceReferences.Source;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The direction of the dependencies, read from what the main sources of every module name:
 * imports and names written out in full ({@link SourceReferences}, javac's parser). Three kinds
 * of rule, each a table below, so that a rule for another module is one more row:
 * <ul>
 *   <li>no cycle: the packages of all modules, bench and tools included, form no cycle;</li>
 *   <li>{@link #LAYERS}: under a prefix, a package names only packages of lower layers (each
 *       package of the prefix must be listed, so a new one takes a decided place);</li>
 *   <li>{@link #CONFINED}: types matching a pattern (the wire) are named only by the listed
 *       packages (a package, never a class of it: a package is all wire or none).</li>
 * </ul>
 * Each rule is also run on the real sources plus one planted violation written here, and must
 * report it: a rule that cannot fail is no rule.
 */
class ArchitectureTest {

    private static final Path REPOSITORY = Path.of("..");

    private static final String BROKER = "io.ramjet.server.broker";
    private static final String PROVIDER = "io.ramjet.provider";

    /** A prefix and its sub-packages from the bottom up; "" is the prefix itself. */
    private record Layering(String prefix, List<List<String>> layers) {
    }

    private static final List<Layering> LAYERS = List.of(
            new Layering(BROKER, List.of(
                    List.of("record", "error", "large"),
                    List.of("destination"),
                    List.of("subscription", "session"),
                    List.of("log"),
                    List.of("timer"),
                    List.of("delivery"),
                    List.of("transaction"),
                    List.of("idempotence"),
                    List.of("durability"),
                    List.of("retention", "security", "admin", "replication"),
                    List.of("processor"),
                    List.of("metrics", "console"),
                    // the remoting server and its processors, replication, registration, operations
                    List.of("assembly"),
                    List.of(""),
                    // controller mode: drives whole brokers
                    List.of("ha"))),
            // the JMS client as Qpid JMS layers it: value types, the internal client seam, the façade, JNDI
            new Layering(PROVIDER, List.of(
                    List.of("url", "selector", "destination"),
                    List.of("message"),
                    List.of("client"),
                    List.of("jms.error"),
                    List.of("jms.transaction"),
                    List.of("jms"),
                    List.of("jndi"))));

    /**
     * Types matching {@code types} are named only in the packages under {@code prefix} listed in
     * {@code allowed}, and elsewhere under it only if they also match {@code passing}.
     */
    private record Confinement(String what, Pattern types, String prefix, Set<String> allowed, Pattern passing) {
    }

    /** The wire: requests, responses, frames, the transport, and the broker's accepting side. */
    private static final Pattern WIRE = Pattern.compile("io\\.ramjet\\.protocol\\.(command|frame|remoting)\\..*");
    private static final Pattern NOTHING = Pattern.compile("(?!)");

    private static final List<Confinement> CONFINED = List.of(
            // the broker's domain speaks its own types and the model; processor translates the wire,
            // and assembly wires the transport: the remoting server and its processors, the
            // NameServer registration, the slave's link to its master, the append lane, the
            // operator's commands and the cluster overview. The root package (Broker, BrokerConfig,
            // the API other modules use) and controller mode (ha) name none: a port the broker
            // cannot listen on or a master that does not answer is the broker's NetworkException.
            new Confinement("wire types", Pattern.compile(WIRE.pattern() + "|io\\.ramjet\\.server\\.remoting\\..*"),
                    BROKER, Set.of("processor", "assembly"), NOTHING),
            // the JMS façade sees outcomes (ClientException) and the model, never the transport, a status or a request
            new Confinement("wire types", WIRE, PROVIDER, Set.of("client"), NOTHING),
            // info objects cross the seam downwards: nothing below it knows the JMS API
            new Confinement("the JMS API", Pattern.compile("jakarta\\.jms\\..*"), PROVIDER + ".client", Set.of(),
                    NOTHING));

    private static final List<Source> SOURCES = SourceReferences.readModules(REPOSITORY);

    @Test
    void packagesFormNoCycle() {
        assertEquals(List.of(), cycles(SOURCES), "package cycles");
    }

    @Test
    void noPackageNamesAHigherLayerOrAPeer() {
        assertEquals(List.of(), upwardArrows(SOURCES), "forbidden arrows");
    }

    @Test
    void wireTypesStayInTheirPackages() {
        assertEquals(List.of(), confinementBreaches(SOURCES), "types outside their packages");
    }

    @Test
    void everyModuleIsRead() {
        Set<String> modules = SOURCES.stream().map(Source::module).collect(Collectors.toCollection(TreeSet::new));
        assertTrue(modules.containsAll(Set.of("model", "protocol", "storage", "server", "provider", "controller",
                "bench", "cli", "junit5", "spring-boot-starter", "ra")), "modules read: " + modules);
        assertTrue(SOURCES.stream().anyMatch(s -> s.pkg().equals(BROKER)), "no source read from " + REPOSITORY);
    }

    @Test
    void aFullyQualifiedNameIsAReference() {
        Source source = SourceReferences.fixture("server", BROKER + ".delivery.Planted", """
                package io.ramjet.server.broker.delivery;

                import java.util.List;

                final class Planted {
                    /** {@link io.ramjet.protocol.frame.Frame} in a comment is no reference. */
                    @io.ramjet.Marker
                    Object request(List<io.ramjet.protocol.command.SendRequest.Part> parts) {
                        return new io.ramjet.protocol.command.PullRequest();
                    }
                }
                """);
        assertEquals(Set.of("io.ramjet.Marker", "io.ramjet.protocol.command.SendRequest",
                "io.ramjet.protocol.command.PullRequest"), source.references());
    }

    @Test
    void aPlantedCycleFails() {
        // delivery names processor in full; processor already names delivery
        List<String> found = cycles(planted("server", BROKER + ".delivery.PlantedCycle", """
                package io.ramjet.server.broker.delivery;

                final class PlantedCycle {
                    Object p() {
                        return io.ramjet.server.broker.processor.ConnectionSession.class;
                    }
                }
                """));
        assertTrue(found.stream().anyMatch(c -> c.contains(BROKER + ".delivery") && c.contains(BROKER + ".processor")),
                "the planted cycle is reported: " + found);
    }

    @Test
    void aPlantedCycleInAnyModuleFails() {
        List<String> found = cycles(planted("bench", "io.ramjet.bench.report.PlantedCycle", """
                package io.ramjet.bench.report;

                final class PlantedCycle {
                    io.ramjet.bench.jms.JmsWorkload workload;
                }
                """, "io.ramjet.bench.jms.PlantedBack", """
                package io.ramjet.bench.jms;

                import io.ramjet.bench.report.PlantedCycle;

                final class PlantedBack {
                    PlantedCycle back;
                }
                """));
        assertTrue(found.stream().anyMatch(c -> c.contains("io.ramjet.bench.jms") && c.contains("io.ramjet.bench.report")),
                "the planted cycle is reported: " + found);
    }

    @Test
    void aPlantedUpwardArrowFails() {
        List<String> found = upwardArrows(planted("server", BROKER + ".destination.PlantedArrow", """
                package io.ramjet.server.broker.destination;

                final class PlantedArrow {
                    io.ramjet.server.broker.delivery.HeldPulls pulls;
                }
                """));
        assertEquals(List.of(BROKER + ".destination -> " + BROKER + ".delivery"), found);
    }

    @Test
    void aPlantedPackageWithoutALayerFails() {
        List<String> found = upwardArrows(planted("provider", PROVIDER + ".planted.Unplaced", """
                package io.ramjet.provider.planted;

                final class Unplaced {
                }
                """));
        assertEquals(List.of(PROVIDER + ".planted has no layer in the table"), found);
    }

    @Test
    void aPlantedWireTypeOutsideProcessorFails() {
        List<String> found = confinementBreaches(planted("server", BROKER + ".delivery.PlantedWire", """
                package io.ramjet.server.broker.delivery;

                final class PlantedWire {
                    void send(io.ramjet.protocol.command.SendRequest request) {
                    }
                }
                """, BROKER + ".ha.PlantedFrame", """
                package io.ramjet.server.broker.ha;

                import io.ramjet.protocol.frame.Frame;

                final class PlantedFrame {
                    Frame frame;
                }
                """));
        assertEquals(List.of("wire types: PlantedWire (" + BROKER + ".delivery) names io.ramjet.protocol.command.SendRequest",
                "wire types: PlantedFrame (" + BROKER + ".ha) names io.ramjet.protocol.frame.Frame"), found);
    }

    @Test
    void aPlantedWireTypeInTheBrokersRootPackageFails() {
        List<String> found = confinementBreaches(planted("server", BROKER + ".Broker", """
                package io.ramjet.server.broker;

                public final class Broker {
                    public io.ramjet.protocol.command.BrokerInfo brokerInfo() {
                        return null;
                    }
                }
                """, BROKER + ".BrokerConfig", """
                package io.ramjet.server.broker;

                import io.ramjet.server.remoting.RemotingServer;

                public final class BrokerConfig {
                    RemotingServer server;
                }
                """, BROKER + ".RequestProcessors", """
                package io.ramjet.server.broker;

                final class RequestProcessors {
                    io.ramjet.protocol.frame.Frame frame;
                }
                """, BROKER + ".PlantedStart", """
                package io.ramjet.server.broker;

                final class PlantedStart {
                    void start() throws io.ramjet.protocol.remoting.RemotingException {
                    }
                }
                """, BROKER + ".assembly.PlantedLane", """
                package io.ramjet.server.broker.assembly;

                final class PlantedLane {
                    io.ramjet.protocol.frame.Frame frame;
                }
                """));
        // the assembly package may name the wire; no class of the root package may
        assertEquals(List.of("wire types: Broker (" + BROKER + ") names io.ramjet.protocol.command.BrokerInfo",
                "wire types: BrokerConfig (" + BROKER + ") names io.ramjet.server.remoting.RemotingServer",
                "wire types: RequestProcessors (" + BROKER + ") names io.ramjet.protocol.frame.Frame",
                "wire types: PlantedStart (" + BROKER + ") names io.ramjet.protocol.remoting.RemotingException"), found);
    }

    @Test
    void aPlantedWireTypeInTheJmsFacadeFails() {
        List<String> found = confinementBreaches(planted("provider", PROVIDER + ".jms.PlantedWire", """
                package io.ramjet.provider.jms;

                final class PlantedWire {
                    io.ramjet.protocol.remoting.RemotingConnection connection;
                }
                """, PROVIDER + ".client.PlantedJms", """
                package io.ramjet.provider.client;

                final class PlantedJms {
                    jakarta.jms.Message message;
                }
                """));
        assertEquals(List.of("wire types: PlantedWire (" + PROVIDER + ".jms) names io.ramjet.protocol.remoting.RemotingConnection",
                "the JMS API: PlantedJms (" + PROVIDER + ".client) names jakarta.jms.Message"), found);
    }

    /** The real sources plus sources planted in {@code module}, given as class name, code, class name, code... */
    private static List<Source> planted(String module, String... nameAndCode) {
        List<Source> sources = new ArrayList<>(SOURCES);
        for (int i = 0; i < nameAndCode.length; i += 2) {
            sources.add(SourceReferences.fixture(module, nameAndCode[i], nameAndCode[i + 1]));
        }
        return sources;
    }

    /** Every set of packages that name each other in a circle, as text. */
    private static List<String> cycles(List<Source> sources) {
        return cycles(packageGraph(sources, "io.ramjet")).stream().map(Set::toString).toList();
    }

    private static List<String> upwardArrows(List<Source> sources) {
        List<String> wrong = new ArrayList<>();
        for (Layering layering : LAYERS) {
            Map<String, Integer> layerOf = new HashMap<>();
            for (int i = 0; i < layering.layers().size(); i++) {
                for (String name : layering.layers().get(i)) {
                    layerOf.put(qualified(layering.prefix(), name), i);
                }
            }
            for (Map.Entry<String, Set<String>> e : packageGraph(sources, layering.prefix()).entrySet()) {
                Integer from = layerOf.get(e.getKey());
                if (from == null) {
                    wrong.add(e.getKey() + " has no layer in the table");
                    continue;
                }
                for (String to : e.getValue()) {
                    Integer target = layerOf.get(to);
                    if (target == null || target >= from) {
                        wrong.add(e.getKey() + " -> " + to);
                    }
                }
            }
        }
        return wrong;
    }

    private static List<String> confinementBreaches(List<Source> sources) {
        List<String> wrong = new ArrayList<>();
        for (Confinement rule : CONFINED) {
            Set<String> allowed = new TreeSet<>();
            rule.allowed().forEach(name -> allowed.add(qualified(rule.prefix(), name)));
            for (Source source : sources) {
                if (!within(source.pkg(), rule.prefix()) || allowed.contains(source.pkg())) {
                    continue;
                }
                source.references().stream()
                        .filter(r -> rule.types().matcher(r).matches() && !rule.passing().matcher(r).matches())
                        .forEach(r -> wrong.add(rule.what() + ": " + source.file().replace(".java", "")
                                + " (" + source.pkg() + ") names " + r));
            }
        }
        return wrong;
    }

    /** Package -> the packages under {@code prefix} it names (itself excluded). */
    private static Map<String, Set<String>> packageGraph(List<Source> sources, String prefix) {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (Source source : sources) {
            if (!within(source.pkg(), prefix)) {
                continue;
            }
            Set<String> targets = graph.computeIfAbsent(source.pkg(), p -> new TreeSet<>());
            for (String name : source.references()) {
                String pkg = SourceReferences.packageOf(name);
                if (within(pkg, prefix) && !pkg.equals(source.pkg())) {
                    targets.add(pkg);
                }
            }
        }
        return graph;
    }

    /** The strongly connected components of more than one package (Tarjan). */
    private static List<Set<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<Set<String>> found = new ArrayList<>();
        for (String start : graph.keySet()) {
            if (!index.containsKey(start)) {
                connect(start, graph, index, low, stack, found);
            }
        }
        return found;
    }

    private static void connect(String node, Map<String, Set<String>> graph, Map<String, Integer> index,
                                Map<String, Integer> low, Deque<String> stack, List<Set<String>> found) {
        index.put(node, index.size());
        low.put(node, index.get(node));
        stack.push(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            if (!index.containsKey(next)) {
                connect(next, graph, index, low, stack, found);
                low.put(node, Math.min(low.get(node), low.get(next)));
            } else if (stack.contains(next)) {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                component.add(member);
            } while (!member.equals(node));
            if (component.size() > 1) {
                found.add(component);
            }
        }
    }

    private static boolean within(String pkg, String prefix) {
        return pkg.equals(prefix) || pkg.startsWith(prefix + ".");
    }

    private static String qualified(String prefix, String name) {
        return name.isEmpty() ? prefix : prefix + "." + name;
    }
}
