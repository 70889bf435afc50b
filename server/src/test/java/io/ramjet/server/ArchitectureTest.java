package io.ramjet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The direction of the dependencies, read from the {@code import} lines of the main sources of
 * the modules (no bytecode, no extra library). Three kinds of rule, each a table below, so that
 * a rule for another module is one more row:
 * <ul>
 *   <li>{@link #ACYCLIC}: the packages under a prefix form no cycle;</li>
 *   <li>{@link #LAYERS}: under a prefix, a package imports only packages of lower layers (each
 *       package of the prefix must be listed, so a new one takes a decided place);</li>
 *   <li>{@link #CONFINED}: types matching a pattern (the wire) are imported only by the listed
 *       packages.</li>
 * </ul>
 * Same-package references need no import, so they are invisible here, and need not be seen.
 */
class ArchitectureTest {

    private static final Path REPOSITORY = Path.of("..");
    private static final List<String> MODULES = List.of("model", "protocol", "storage", "server", "provider");

    private static final String BROKER = "io.ramjet.server.broker";
    private static final String PROVIDER = "io.ramjet.provider";

    /** Package prefixes whose packages must not depend on each other in a circle. */
    private static final List<String> ACYCLIC = List.of(BROKER, PROVIDER, "io.ramjet.protocol", "io.ramjet.server");

    /** A prefix and its sub-packages from the bottom up; "" is the prefix itself. */
    private record Layering(String prefix, List<List<String>> layers) {
    }

    private static final List<Layering> LAYERS = List.of(
            new Layering(BROKER, List.of(
                    List.of("record", "error"),
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

    /** Imports matching {@code types} are allowed only in packages under {@code prefix} listed in {@code allowed}. */
    private record Confinement(String what, Pattern types, String prefix, Set<String> allowed) {
    }

    private static final List<Confinement> CONFINED = List.of(
            new Confinement("wire types", Pattern.compile("io\\.ramjet\\.(protocol\\.(remoting\\..*|frame\\.Frame"
                    + "|command\\.ErrorStatus)|server\\.remoting\\..*)"), BROKER, Set.of("processor", "", "ha")),
            // the JMS façade sees outcomes (ClientException), never the transport, a status or a request
            new Confinement("wire types", Pattern.compile("io\\.ramjet\\.protocol\\.(remoting\\..*|frame\\..*"
                    + "|command\\.ErrorStatus|command\\.\\w+(Request|Response))"), PROVIDER, Set.of("client")),
            // info objects cross the seam downwards: nothing below it knows the JMS API
            new Confinement("the JMS API", Pattern.compile("jakarta\\.jms\\..*"), PROVIDER + ".client", Set.of()));

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)(?:\\.\\*)?;",
            Pattern.MULTILINE);

    /** One main source file: its package and the fully qualified names it imports. */
    private record Source(Path file, String pkg, List<String> imports) {
    }

    private static final List<Source> SOURCES = readSources();

    @Test
    void packagesFormNoCycle() {
        for (String prefix : ACYCLIC) {
            List<Set<String>> cycles = cycles(packageGraph(prefix));
            assertTrue(cycles.isEmpty(), "package cycles under " + prefix + ": " + cycles);
        }
    }

    @Test
    void noPackageImportsAHigherLayerOrAPeer() {
        for (Layering layering : LAYERS) {
            Map<String, Integer> layerOf = new HashMap<>();
            for (int i = 0; i < layering.layers().size(); i++) {
                for (String name : layering.layers().get(i)) {
                    layerOf.put(qualified(layering.prefix(), name), i);
                }
            }
            List<String> wrong = new ArrayList<>();
            for (Map.Entry<String, Set<String>> e : packageGraph(layering.prefix()).entrySet()) {
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
            assertEquals(List.of(), wrong, "forbidden arrows under " + layering.prefix());
        }
    }

    @Test
    void wireTypesStayInTheirPackages() {
        for (Confinement rule : CONFINED) {
            Set<String> allowed = new TreeSet<>();
            rule.allowed().forEach(name -> allowed.add(qualified(rule.prefix(), name)));
            List<String> wrong = new ArrayList<>();
            for (Source source : SOURCES) {
                if (!within(source.pkg(), rule.prefix()) || allowed.contains(source.pkg())) {
                    continue;
                }
                source.imports().stream().filter(i -> rule.types().matcher(i).matches())
                        .forEach(i -> wrong.add(source.file().getFileName() + " imports " + i));
            }
            assertEquals(List.of(), wrong, rule.what() + " outside " + allowed);
        }
    }

    @Test
    void theRulesSeeTheSources() {
        assertTrue(SOURCES.stream().anyMatch(s -> s.pkg().equals(BROKER)), "no source read from " + REPOSITORY);
        assertTrue(cycles(Map.of("a", Set.of("b"), "b", Set.of("a"))).size() == 1, "a two-package cycle is seen");
    }

    /** Package -> the packages under {@code prefix} it imports (itself excluded). */
    private static Map<String, Set<String>> packageGraph(String prefix) {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (Source source : SOURCES) {
            if (!within(source.pkg(), prefix)) {
                continue;
            }
            Set<String> targets = graph.computeIfAbsent(source.pkg(), p -> new TreeSet<>());
            for (String imported : source.imports()) {
                String pkg = packageOf(imported);
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

    /** The package of an imported name: the part before the first capitalised segment. */
    private static String packageOf(String imported) {
        StringBuilder pkg = new StringBuilder();
        for (String segment : imported.split("\\.")) {
            if (Character.isUpperCase(segment.charAt(0))) {
                break;
            }
            pkg.append(pkg.length() == 0 ? "" : ".").append(segment);
        }
        return pkg.toString();
    }

    private static List<Source> readSources() {
        List<Source> sources = new ArrayList<>();
        for (String module : MODULES) {
            Path root = REPOSITORY.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    sources.add(read(file));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return sources;
    }

    private static Source read(Path file) throws IOException {
        String text = Files.readString(file);
        Matcher pkg = PACKAGE.matcher(text);
        List<String> imports = new ArrayList<>();
        Matcher imported = IMPORT.matcher(text);
        while (imported.find()) {
            imports.add(imported.group(1));
        }
        return new Source(file, pkg.find() ? pkg.group(1) : "", imports);
    }
}
