package io.ramjet.server.broker.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which roles each user holds, read from a roles file in the form of Artemis's
 * {@code artemis-roles.properties}: one {@code role = user, user} per line, {@code #} comments.
 * A role given twice refuses the file, naming the line. Immutable.
 */
public final class Roles {

    private final Map<String, Set<String>> byUser;

    private Roles(Map<String, Set<String>> byUser) {
        this.byUser = Map.copyOf(byUser);
    }

    /** Nobody holds a role. */
    public static Roles none() {
        return new Roles(Map.of());
    }

    public static Roles load(Path file) throws IOException {
        return parse(Files.readAllLines(file), file.toString());
    }

    /** @param source what to call the lines in an error message */
    static Roles parse(List<String> lines, String source) {
        Map<String, Set<String>> byUser = new HashMap<>();
        Set<String> seen = new HashSet<>();
        for (KeyValueLines.Line line : KeyValueLines.parse(lines, source, "role = user, user")) {
            if (!seen.add(line.key())) {
                throw line.error(source, "role '" + line.key() + "' is listed twice");
            }
            for (String user : line.value().split("\\s*,\\s*")) {
                if (!user.isEmpty()) {
                    byUser.computeIfAbsent(user, u -> new HashSet<>()).add(line.key());
                }
            }
        }
        byUser.replaceAll((user, roles) -> Set.copyOf(roles));
        return new Roles(byUser);
    }

    /** The roles of {@code user}, empty for a user no line names. */
    public Set<String> of(String user) {
        return byUser.getOrDefault(user, Set.of());
    }
}
