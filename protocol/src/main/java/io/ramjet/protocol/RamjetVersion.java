package io.ramjet.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of Ramjet this code was built as: the project's version, written into
 * {@code version.properties} beside this class by the build (which also puts it in every jar's
 * manifest as {@code Implementation-Version}). The broker, the client, the console and the
 * command line all report this one value.
 */
public final class RamjetVersion {

    /** The build's version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static final String VERSION = read();

    private RamjetVersion() {
    }

    private static String read() {
        try (InputStream in = RamjetVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing beside " + RamjetVersion.class);
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read version.properties", e);
        }
    }

    /** The major number of {@link #VERSION}. */
    public static int major() {
        return number(0);
    }

    /** The minor number of {@link #VERSION}. */
    public static int minor() {
        return number(1);
    }

    private static int number(int index) {
        String[] parts = VERSION.split("[.-]");
        return index < parts.length && parts[index].matches("\\d+") ? Integer.parseInt(parts[index]) : 0;
    }
}
