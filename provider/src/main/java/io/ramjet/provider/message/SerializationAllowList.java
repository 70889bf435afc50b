package io.ramjet.provider.message;

import java.util.List;

/**
 * The packages whose classes an ObjectMessage may deserialize: a class is allowed when its
 * package is one of them or inside one ({@code com.acme} allows {@code com.acme.order.Order});
 * {@code *} allows everything. Arrays are judged by their component class, primitives always
 * pass. Immutable. The default, {@link #DEFAULT}, covers the JDK's value types only; a
 * connection factory passes its configured list to the messages its sessions create.
 */
public final class SerializationAllowList {

    /** Property (system or factory) naming the allowed packages, comma-separated. */
    public static final String PROPERTY = "ramjet.serializable.packages";

    public static final SerializationAllowList DEFAULT = of("java.lang,java.util,java.math,java.time");

    private final List<String> packages;
    private final boolean all;

    private SerializationAllowList(List<String> packages) {
        this.packages = packages;
        this.all = packages.contains("*");
    }

    /** A list from a comma-separated package string. */
    public static SerializationAllowList of(String packages) {
        return new SerializationAllowList(List.of(packages.trim().isEmpty() ? new String[0]
                : java.util.Arrays.stream(packages.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                        .toArray(String[]::new)));
    }

    /** The list named by the system property {@link #PROPERTY}, or the default. */
    public static SerializationAllowList fromSystemProperties() {
        String value = System.getProperty(PROPERTY);
        return value == null ? DEFAULT : of(value);
    }

    public List<String> packages() {
        return packages;
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
            if (pkg.equals(allowed) || pkg.startsWith(allowed + ".")) {
                return true;
            }
        }
        return false;
    }
}
