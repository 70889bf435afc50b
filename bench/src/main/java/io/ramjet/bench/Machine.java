package io.ramjet.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the results say of the machine a run ran on: CPU model and cores, memory, operating system
 * and kernel, Java, and the I/O scheduler of each disk (the idle I/O class of {@link IdlePeers}
 * acts only under a scheduler that honours it). Read from {@code /proc}, {@code /sys} and
 * {@code /etc/os-release}; what cannot be read is left out.
 */
final class Machine {

    private Machine() {
    }

    static Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        firstValue(Path.of("/proc/cpuinfo"), "model name").ifPresent(v -> m.put("cpu", v));
        firstValue(Path.of("/proc/meminfo"), "MemTotal").ifPresent(v -> m.put("memory", v));
        firstValue(Path.of("/etc/os-release"), "PRETTY_NAME").ifPresent(v -> m.put("os", v.replace("\"", "")));
        read(Path.of("/proc/sys/kernel/osrelease")).ifPresent(v -> m.put("kernel", v));
        m.put("java", System.getProperty("java.vm.name") + " " + Runtime.version());
        List<String> schedulers = new ArrayList<>();
        try (DirectoryStream<Path> disks = Files.newDirectoryStream(Path.of("/sys/block"))) {
            for (Path disk : disks) {
                String name = disk.getFileName().toString();
                if (!name.startsWith("loop") && !name.startsWith("ram")) {
                    read(disk.resolve("queue/scheduler")).ifPresent(s -> schedulers.add(name + " " + s));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /sys/block: nothing to say
        }
        if (!schedulers.isEmpty()) {
            m.put("io-schedulers", String.join("; ", schedulers));
        }
        return m;
    }

    /** The commit of the working tree the benchmark runs from ({@code git describe --always --dirty}), or "unknown". */
    static String commit() {
        try {
            Process git = new ProcessBuilder("git", "describe", "--always", "--dirty").redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
            return git.waitFor() == 0 && !out.isEmpty() ? out : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** The value of the first line of {@code file} of the form {@code key: value} or {@code key=value}. */
    private static java.util.Optional<String> firstValue(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith(key)) {
                    String rest = line.substring(key.length()).trim();
                    if (rest.startsWith(":") || rest.startsWith("=")) {
                        return java.util.Optional.of(rest.substring(1).trim());
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.empty();
    }

    private static java.util.Optional<String> read(Path file) {
        try {
            return java.util.Optional.of(Files.readString(file).trim());
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }
}
