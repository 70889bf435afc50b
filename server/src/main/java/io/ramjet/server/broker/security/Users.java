package io.ramjet.server.broker.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The users a broker knows, each with its {@link PasswordHash}, read once at start from a users
 * file: one {@code name = pbkdf2-sha256$iterations$salt$hash} per line; blank lines and lines
 * starting with {@code #} are skipped. A malformed line or a name given twice refuses the whole
 * file, naming the line (never its hash). Immutable.
 */
public final class Users {

    private final Map<String, PasswordHash> hashes;
    private final PasswordHash decoy = PasswordHash.decoy();

    private Users(Map<String, PasswordHash> hashes) {
        this.hashes = Map.copyOf(hashes);
    }

    /** No users: every authentication fails. */
    public static Users none() {
        return new Users(Map.of());
    }

    public static Users load(Path file) throws IOException {
        return parse(Files.readAllLines(file), file.toString());
    }

    /** @param source what to call the lines in an error message */
    static Users parse(List<String> lines, String source) {
        Map<String, PasswordHash> hashes = new HashMap<>();
        for (KeyValueLines.Line line : KeyValueLines.parse(lines, source, "name = hash")) {
            PasswordHash hash;
            try {
                hash = PasswordHash.parse(line.value());
            } catch (IllegalArgumentException e) {
                throw line.error(source, e.getMessage());
            }
            if (hashes.putIfAbsent(line.key(), hash) != null) {
                throw line.error(source, "user '" + line.key() + "' is listed twice");
            }
        }
        return new Users(hashes);
    }

    /**
     * Whether the user exists and the password is its own. An unknown user costs a full hash too,
     * so the time taken does not tell which users exist.
     */
    public boolean verify(String user, char[] password) {
        PasswordHash hash = hashes.get(user);
        if (hash == null) {
            decoy.matches(password);
            return false;
        }
        return hash.matches(password);
    }

    public int size() {
        return hashes.size();
    }

    @Override
    public String toString() {
        return "Users[" + hashes.size() + "]";
    }
}
