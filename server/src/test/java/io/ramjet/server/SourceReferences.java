package io.ramjet.server;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreeScanner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * What main sources refer to, read with javac's parser (the JDK's {@code com.sun.source} trees;
 * no attribution, no classpath, no build order): for each file its package and every Ramjet or
 * {@code jakarta} type or package it names, by an {@code import} (static and on-demand ones too) or
 * written out in full anywhere in the code ({@code io.ramjet.protocol.remoting.RemotingConnection c},
 * an annotation, a {@code new}, a cast). Comments and Javadoc are not code and are not read. A
 * name a file never writes (a type reached through {@code var} or a chained call) is not seen:
 * the rules are about what the code names.
 */
final class SourceReferences {

    /** A dotted name rooted where the rules look. */
    private static final Pattern WATCHED = Pattern.compile("(io\\.ramjet|jakarta)(\\.\\w+)+");

    /** One source file: its module directory, package, and the types (or packages) it names. */
    record Source(String module, String file, String pkg, Set<String> references) {
    }

    private SourceReferences() {
    }

    /** Every {@code src/main/java} tree of the modules under {@code repository}. */
    static List<Source> readModules(Path repository) {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> modules = Files.list(repository)) {
            for (Path module : modules.sorted().toList()) {
                Path root = module.resolve("src/main/java");
                if (Files.isDirectory(root)) {
                    try (Stream<Path> java = Files.walk(root)) {
                        java.filter(f -> f.toString().endsWith(".java")).sorted().forEach(files::add);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path base = repository.toAbsolutePath().normalize();
        try (StandardJavaFileManager manager = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            return parse(file -> base.relativize(Path.of(file).toAbsolutePath().normalize()).getName(0).toString(),
                    manager.getJavaFileObjectsFromPaths(files), javac);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A source written in the test, as if it were a main source of {@code module}. */
    static Source fixture(String module, String className, String code) {
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///" + className.replace('.', '/')
                + JavaFileObject.Kind.SOURCE.extension), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return code;
            }
        };
        return parse(uri -> module, List.of(file), ToolProvider.getSystemJavaCompiler()).get(0);
    }

    /** Parses {@code files} in one javac task; {@code moduleOf} names the module of a file's URI. */
    private static List<Source> parse(Function<URI, String> moduleOf, Iterable<? extends JavaFileObject> files,
                                      JavaCompiler javac) {
        JavacTask task = (JavacTask) javac.getTask(null, null, diagnostic -> { }, List.of("-proc:none"), null,
                files);
        List<Source> sources = new ArrayList<>();
        try {
            for (CompilationUnitTree unit : task.parse()) {
                Set<String> references = new TreeSet<>();
                new Names(references).scan(unit, null);
                String pkg = unit.getPackageName() == null ? "" : unit.getPackageName().toString();
                URI uri = unit.getSourceFile().toUri();
                String name = Path.of(uri.getPath()).getFileName().toString();
                sources.add(new Source(moduleOf.apply(uri), name, pkg, references));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sources;
    }

    /**
     * The type a dotted name names (up to its first capitalised segment), or the package it is
     * when it has none (an on-demand import).
     */
    static String typeOf(String dotted) {
        StringBuilder name = new StringBuilder();
        for (String segment : dotted.split("\\.")) {
            name.append(name.length() == 0 ? "" : ".").append(segment);
            if (Character.isUpperCase(segment.charAt(0))) {
                break;
            }
        }
        return name.toString();
    }

    /** The package of a name {@link #typeOf} gave. */
    static String packageOf(String name) {
        StringBuilder pkg = new StringBuilder();
        for (String segment : name.split("\\.")) {
            if (Character.isUpperCase(segment.charAt(0))) {
                break;
            }
            pkg.append(pkg.length() == 0 ? "" : ".").append(segment);
        }
        return pkg.toString();
    }

    /** Collects imports and fully written names; the package clause is not a reference. */
    private static final class Names extends TreeScanner<Void, Void> {

        private final Set<String> references;

        Names(Set<String> references) {
            this.references = references;
        }

        @Override
        public Void visitCompilationUnit(CompilationUnitTree unit, Void unused) {
            scan(unit.getImports(), null);
            scan(unit.getTypeDecls(), null);
            return null;
        }

        @Override
        public Void visitImport(ImportTree node, Void unused) {
            String name = node.getQualifiedIdentifier().toString();
            if (name.endsWith(".*")) {
                name = name.substring(0, name.length() - 2);
            }
            if (WATCHED.matcher(name).matches()) {
                references.add(typeOf(name));
            }
            return null;
        }

        @Override
        public Void visitMemberSelect(MemberSelectTree node, Void unused) {
            String dotted = node.toString();
            if (WATCHED.matcher(dotted).matches()) {
                String type = typeOf(dotted);
                if (!type.equals(packageOf(type))) {
                    references.add(type);
                }
                return null;
            }
            return super.visitMemberSelect(node, unused);
        }
    }
}
