package io.ramjet.client;

import java.nio.file.Path;

/** Where the build left the shaded jar and its dependency-reduced pom (failsafe system properties). */
final class ShadedJar {

    private ShadedJar() {
    }

    static Path path() {
        return Path.of(System.getProperty("ramjet.client.jar"));
    }

    static Path reducedPom() {
        return Path.of(System.getProperty("ramjet.client.pom"));
    }
}
