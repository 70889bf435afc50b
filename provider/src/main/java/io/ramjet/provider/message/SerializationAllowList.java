package io.ramjet.provider.message;

import java.util.List;

/**
 * What an ObjectMessage may deserialize: the packages of its classes, and bounds on the graph it
 * reads. A class is allowed when its package is one of them exactly ({@code com.acme} allows
 * {@code com.acme.Order}, not {@code com.acme.order.Line}), or inside one listed with {@code .**}
 * ({@code com.acme.**} allows both); {@code *} allows everything. Exact packages keep what a
 * broad entry would drag in out: {@code java.lang} without {@code java.lang.invoke} (a serialized
 * lambda) or {@code java.lang.reflect}, {@code java.util} without {@code java.util.logging}. Arrays are judged by their
 * component class, primitives always pass. The bounds (nesting depth, array length, references
 * and bytes, as {@link java.io.ObjectInputFilter} counts them) stop a small body from
 * exhausting memory, the stack or the CPU: nested {@code HashSet}s whose hash codes take
 * 2<sup>depth</sup> steps, an array length that asks for gigabytes. Immutable. The default,
 * {@link #DEFAULT}, covers the JDK's value types only (the four packages exactly) with the default bounds; a connection
 * factory passes its configured list to the messages its sessions create.
 */
public final class SerializationAllowList {

    /** Property (system or factory) naming the allowed packages, comma-separated. */
    public static final String PROPERTY = "ramjet.serializable.packages";

    /** Default bounds: the nesting depth of RMI's registry filter, and room for any body a record holds. */
    public static final int DEFAULT_MAX_DEPTH = 20;
    public static final int DEFAULT_MAX_ARRAY_LENGTH = 16 << 20;
    public static final long DEFAULT_MAX_REFERENCES = 1_000_000;
    public static final long DEFAULT_MAX_BYTES = 16 << 20;

    /** The ending of an entry that covers its package and every package inside it. */
    public static final String SUBPACKAGES = ".**";

    public static final SerializationAllowList DEFAULT = of("java.lang,java.util,java.math,java.time");

    private final List<String> packages;
    private final boolean all;
    private final int maxDepth;
    private final int maxArrayLength;
    private final long maxReferences;
    private final long maxBytes;

    private SerializationAllowList(List<String> packages, int maxDepth, int maxArrayLength, long maxReferences,
                                   long maxBytes) {
        if (maxDepth < 1 || maxArrayLength < 0 || maxReferences < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("ObjectMessage bounds must be positive: depth " + maxDepth
                    + ", array length " + maxArrayLength + ", references " + maxReferences + ", bytes " + maxBytes);
        }
        this.packages = packages;
        this.all = packages.contains("*");
        this.maxDepth = maxDepth;
        this.maxArrayLength = maxArrayLength;
        this.maxReferences = maxReferences;
        this.maxBytes = maxBytes;
    }

    /** A list from a comma-separated package string. */
    public static SerializationAllowList of(String packages) {
        return new SerializationAllowList(List.of(packages.trim().isEmpty() ? new String[0]
                : java.util.Arrays.stream(packages.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                        .toArray(String[]::new)), DEFAULT_MAX_DEPTH, DEFAULT_MAX_ARRAY_LENGTH, DEFAULT_MAX_REFERENCES,
                DEFAULT_MAX_BYTES);
    }

    /**
     * This list with other bounds.
     *
     * @throws IllegalArgumentException when a bound is not positive (an array length may be 0)
     */
    public SerializationAllowList withBounds(int maxDepth, int maxArrayLength, long maxReferences, long maxBytes) {
        return new SerializationAllowList(packages, maxDepth, maxArrayLength, maxReferences, maxBytes);
    }

    /** The list named by the system property {@link #PROPERTY}, or the default. */
    public static SerializationAllowList fromSystemProperties() {
        String value = System.getProperty(PROPERTY);
        return value == null ? DEFAULT : of(value);
    }

    public List<String> packages() {
        return packages;
    }

    public int maxDepth() {
        return maxDepth;
    }

    public int maxArrayLength() {
        return maxArrayLength;
    }

    public long maxReferences() {
        return maxReferences;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** Whether a class of this binary name ({@code Class.getName()} form) may be deserialized. */
    public boolean allows(String className) {
        String name = className;
        while (name.startsWith("[")) {
            name = name.substring(1);
        }
        if (name.length() == 1) {
            return true;
        }
        if (name.startsWith("L") && name.endsWith(";") && name.length() != className.length()) {
            name = name.substring(1, name.length() - 1);
        }
        if (all) {
            return true;
        }
        int dot = name.lastIndexOf('.');
        String pkg = dot < 0 ? "" : name.substring(0, dot);
        for (String allowed : packages) {
            if (allowed.endsWith(SUBPACKAGES)) {
                String parent = allowed.substring(0, allowed.length() - SUBPACKAGES.length());
                if (pkg.equals(parent) || pkg.startsWith(parent + ".")) {
                    return true;
                }
            } else if (pkg.equals(allowed)) {
                return true;
            }
        }
        return false;
    }
}
